import * as z from 'zod';
import { aliasOf, defineTool, failure, success } from '../tool';
import { agentsUnavailable } from './unavailable';

const args = z.object({
    taskIds: z.array(z.string()).optional().describe('Tasks to wait for (default: every task you started).'),
    mode: z
        .enum(['nextCompleted', 'allCompleted', 'statusOnly'])
        .default('nextCompleted')
        .describe('"nextCompleted" (default) returns when one more task is done; "allCompleted" when all are; "statusOnly" does not wait.'),
    timeoutMs: z.number().int().min(0).max(300_000).default(120_000).describe('Longest wait in ms (default 120000, at most 300000). A timeout returns the current status.'),
});

export const agentAwaitTool = defineTool({
    name: 'agent.await',
    alias: aliasOf('agent.await'),
    description: 'Waits for tasks you started with agent_delegate, or reports their status, and returns each finished task\'s result (summary, findings, warnings, artifacts, summary file).',
    args,
    readOnly: true,
    async execute(input, { agents }) {
        if (!agents) return agentsUnavailable();
        const awaited = await agents.await({ ...(input.taskIds ? { taskIds: input.taskIds } : {}), mode: input.mode, timeoutMs: input.timeoutMs });
        if (!awaited.ok) return failure(awaited.error);
        if (awaited.tasks.length === 0) return success('You have started no task.', { tasks: [], delivered: [] });
        const running = awaited.tasks.filter((t) => t.status === 'running').length;
        const header = awaited.timedOut
            ? `Timed out after ${input.timeoutMs} ms; ${running} task${running === 1 ? '' : 's'} still running.`
            : `${awaited.tasks.length - running} of ${awaited.tasks.length} task${awaited.tasks.length === 1 ? '' : 's'} finished.`;
        // `delivered` is journaled with the result: a resumed run knows which results its agent has seen.
        return success(`${header}\n${JSON.stringify(awaited.tasks, null, 1)}`, { tasks: awaited.tasks, timedOut: awaited.timedOut, delivered: awaited.delivered });
    },
});
