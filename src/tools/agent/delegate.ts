import * as z from 'zod';
import { aliasOf, defineTool, failure, success, type ToolOutcome } from '../tool';
import { agentsUnavailable } from './unavailable';

const args = z.object({
    agentId: z.string().min(1).describe('The id of the agent to give the task to (see agent_list).'),
    task: z
        .object({
            objective: z.string().min(1).describe('What the sub-agent must find out or produce.'),
            title: z.string().optional().describe('A short title for the timeline.'),
            context: z.record(z.string(), z.unknown()).optional().describe('Anything the sub-agent should know (names, message indexes, file paths).'),
            expectedOutput: z.record(z.string(), z.unknown()).optional().describe('What you want back, e.g. {"format": "bullet list of facts with message refs"}.'),
        })
        .describe('The task.'),
    // Accepted for compatibility and ignored: a child's budget comes from its own profile (SPEC §2).
    budget: z.object({ maxRounds: z.number().optional(), maxToolCalls: z.number().optional() }).optional().describe('Ignored: each agent has its own budget.'),
});

export const agentDelegateTool = defineTool({
    name: 'agent.delegate',
    alias: aliasOf('agent.delegate'),
    description: [
        'Starts a sub-agent on a task and returns its task id at once; you keep working while it runs.',
        'Several tasks run in parallel. Get results with agent_await (a finished result you have not awaited is also shown to you in your next turn).',
        'Sub-agents share your workspace (within their own folders) and write their result to summaries/<agentId>-result.md.',
    ].join(' '),
    args,
    readOnly: false,
    async execute(input, { agents }) {
        if (!agents) return agentsUnavailable();
        const started = agents.delegate(input.agentId, input.task);
        if (!started.ok) return failure(started.error);
        return delegatedOutcome(started.taskId, input.agentId, started.agentName);
    },
});

/** The answer to a delegate call whose task started (also given on resume, when the cut call had started it). */
export function delegatedOutcome(taskId: string, agentId: string, agentName: string): ToolOutcome {
    return success(`Task ${taskId} started: ${agentName} is working on it. Call agent_await to get its result.`, { taskId, agentId });
}
