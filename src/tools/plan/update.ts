import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { MAX_PLAN_ITEMS, PLAN_PATH, PlanItemSchema, type PlanItem } from '../../contract/plan';
import { aliasOf, defineTool, failure, success } from '../tool';

const args = z.object({
    items: z
        .array(PlanItemSchema.describe('One step: a short id ("1", "draft"), its text, and its status.'))
        .max(MAX_PLAN_ITEMS)
        .describe(`The whole plan, in order (at most ${MAX_PLAN_ITEMS} items). It replaces the previous plan.`),
});

function counts(items: readonly PlanItem[]): string {
    const by = (status: PlanItem['status']) => items.filter((item) => item.status === status).length;
    return `${by('done')} done, ${by('doing')} doing, ${by('pending')} pending, ${by('dropped')} dropped`;
}

export const planUpdateTool = defineTool({
    name: 'plan.update',
    alias: aliasOf('plan.update'),
    description: [
        `Sets your plan for this run: a checklist of at most ${MAX_PLAN_ITEMS} steps, each {id, text, status: pending | doing | done | dropped}.`,
        'Each call replaces the whole plan. The user watches it live, and you are shown the current plan at the start of every turn.',
        'Make one for work of several steps, and update it as steps start and finish. It is kept in plan/plan.json.',
    ].join(' '),
    args,
    readOnly: false,
    async execute(input, { workspace, journal }) {
        const ids = new Set<string>();
        for (const item of input.items) {
            if (ids.has(item.id)) return failure(toolError('tool.invalid_arguments', `Two plan items have the id "${item.id}".`, 'Give every item its own id.'));
            ids.add(item.id);
        }
        if (!journal) throw new Error('plan.update needs the run journal in its tool context.');
        const items = input.items.map(({ id, text, status }) => ({ id, text, status }));
        // Written by the runtime whatever roots the profile may write: the plan file is the tool's own.
        const entry = await workspace.write(PLAN_PATH, `${JSON.stringify({ items }, null, 2)}\n`, 'replace');
        await journal.append('plan-update', { items });
        return success(`Plan updated: ${items.length} items (${counts(items)}).`, { path: PLAN_PATH, version: entry.version, items });
    },
});
