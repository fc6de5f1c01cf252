import * as z from 'zod';
import { aliasOf, defineTool, failure, success } from '../tool';
import { agentsUnavailable } from './unavailable';

const args = z.object({
    summary: z.string().min(1).describe('What you found or did, for the agent that gave you the task.'),
    status: z.enum(['completed', 'failed']).default('completed').describe('"failed" when the task could not be done.'),
    confidence: z.enum(['low', 'medium', 'high']).optional(),
    artifacts: z
        .array(z.object({ path: z.string(), kind: z.string().optional(), role: z.string().optional() }))
        .default([])
        .describe('Workspace files you wrote for the caller.'),
    findings: z.array(z.string()).default([]),
    warnings: z.array(z.string()).default([]),
    suggestedNextActions: z.array(z.string()).default([]),
    questionsForCaller: z.array(z.string()).default([]),
});

export const taskReturnTool = defineTool({
    name: 'task.return',
    alias: aliasOf('task.return'),
    description: 'Returns your task\'s result to the agent that delegated it, and ends your task. Call it once, last.',
    args,
    readOnly: false,
    async execute(input, { agents }) {
        if (!agents) return agentsUnavailable();
        const stored = await agents.returnResult({
            summary: input.summary,
            status: input.status,
            ...(input.confidence ? { confidence: input.confidence } : {}),
            artifacts: input.artifacts,
            findings: input.findings,
            warnings: input.warnings,
            suggestedNextActions: input.suggestedNextActions,
            questionsForCaller: input.questionsForCaller,
        });
        if (!stored.ok) return failure(stored.error);
        return success(`Result returned (${stored.summaryPath}). Your task is over.`, { resultPath: stored.resultPath, summaryPath: stored.summaryPath });
    },
});
