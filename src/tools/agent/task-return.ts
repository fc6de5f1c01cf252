import * as z from 'zod';
import { aliasOf, defineTool, failure, success } from '../tool';
import { agentsUnavailable } from './unavailable';
import { toolError } from '../../contract/errors';
import { checkVisible } from '../../workspace/paths';

/** A structured finding as one line for the caller: its text (or its JSON), with its ref when it names one. */
function findingText(finding: string | Record<string, unknown>): string {
    if (typeof finding === 'string') return finding;
    const text = [finding.text, finding.finding, finding.summary].find((value): value is string => typeof value === 'string');
    const ref = [finding.ref, finding.source].find((value): value is string => typeof value === 'string');
    const line = text ?? JSON.stringify(finding);
    return (ref ? `${line} (${ref})` : line).slice(0, 2000);
}

const args = z.object({
    summary: z.string().min(1).describe('What you found or did, for the agent that gave you the task.'),
    status: z.enum(['completed', 'failed']).default('completed').describe('"failed" when the task could not be done.'),
    confidence: z.enum(['low', 'medium', 'high']).optional(),
    artifacts: z
        .array(
            z.object({
                path: z.string().min(1).max(512).describe('A workspace file you wrote, e.g. summaries/places.md.'),
                kind: z.string().min(1).max(64).describe('What it is: notes, draft, list, table…'),
                role: z.string().min(1).max(200).describe('What the caller should use it for.'),
            }),
        )
        .max(50)
        .default([])
        .describe('Workspace files you wrote for the caller, each with its kind and role.'),
    findings: z
        .array(z.union([z.string().max(2000), z.record(z.string(), z.unknown())]))
        .max(100)
        .default([])
        .describe('What you found: short texts, or objects such as {"text": "…", "ref": "chat:current#12"}.'),
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
    async execute(input, { agents, workspace }) {
        if (!agents) return agentsUnavailable();
        // Every artifact is a file the caller can open (issue 39 §10): a path that names nothing is the model's to fix.
        for (const artifact of input.artifacts) {
            const checked = checkVisible(artifact.path, workspace.policy, { allowRoot: false });
            if (!checked.ok) return failure(checked.error);
            if (!workspace.get(checked.path)) {
                return failure(toolError('tool.invalid_arguments', `The artifact ${JSON.stringify(artifact.path)} is not a file in the workspace.`, 'List only files you wrote (workspace_list_files shows them), or leave artifacts out.'));
            }
        }
        const stored = await agents.returnResult({
            summary: input.summary,
            status: input.status,
            ...(input.confidence ? { confidence: input.confidence } : {}),
            artifacts: input.artifacts,
            findings: input.findings.map(findingText),
            warnings: input.warnings,
            suggestedNextActions: input.suggestedNextActions,
            questionsForCaller: input.questionsForCaller,
        });
        if (!stored.ok) return failure(stored.error);
        return success(`Result returned (${stored.summaryPath}). Your task is over.`, { resultPath: stored.resultPath, summaryPath: stored.summaryPath });
    },
});
