import * as z from 'zod';
import { aliasOf, defineTool, success } from '../tool';
import { agentsUnavailable } from './unavailable';

const args = z.object({
    purpose: z.enum(['any', 'delegate', 'handoff']).default('any').describe('What you want an agent for: "delegate" a task (or "any").'),
    query: z.string().optional().describe('Words to filter by id, name or description.'),
    limit: z.number().int().min(1).max(20).default(8).describe('Most agents to list (1–20, default 8).'),
});

export const agentListTool = defineTool({
    name: 'agent.list',
    alias: aliasOf('agent.list'),
    description: 'Lists the agents you may delegate a task to (id, name, what each is for). Read-only: it starts nothing.',
    args,
    readOnly: true,
    async execute(input, { agents }) {
        if (!agents) return agentsUnavailable();
        const cards = agents.list({ purpose: input.purpose, ...(input.query ? { query: input.query } : {}), limit: input.limit });
        if (cards.length === 0) return success('No agent is available for this purpose. Do the work yourself.', { agents: [] });
        const lines = cards.map((card) => `- ${card.id} (${card.displayName}): ${card.description} [may be used to: ${card.purposes.join(', ')}]`);
        return success([`${cards.length} agent${cards.length === 1 ? '' : 's'} you may call with agent_delegate:`, ...lines].join('\n'), { agents: cards });
    },
});
