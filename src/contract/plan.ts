import * as z from 'zod';

/**
 * The run's plan (issue 38 §4): a short checklist the agent keeps with `plan.update`, which the timeline shows
 * live and the model reads at the start of each turn. Each update replaces the whole plan.
 */
export const PLAN_STATUSES = ['pending', 'doing', 'done', 'dropped'] as const;
export const PlanStatusSchema = z.enum(PLAN_STATUSES);
export type PlanStatus = z.infer<typeof PlanStatusSchema>;

export const MAX_PLAN_ITEMS = 30;
export const MAX_PLAN_ITEM_CHARS = 300;

export const PlanItemSchema = z.object({
    id: z.string().trim().min(1).max(40),
    text: z.string().trim().min(1).max(MAX_PLAN_ITEM_CHARS),
    status: PlanStatusSchema,
});
export type PlanItem = z.infer<typeof PlanItemSchema>;

/** Where the plan is stored in the run's workspace, as JSON `{items}`. */
export const PLAN_PATH = 'plan/plan.json';

const MARKS: Record<PlanStatus, string> = { pending: '[ ]', doing: '[~]', done: '[x]', dropped: '[-]' };

/** The plan as the model reads it at the start of a turn (never stored in the conversation: see call-model.ts). */
export function planNote(items: readonly PlanItem[]): string {
    const lines = items.map((item) => `${MARKS[item.status]} ${item.id}. ${item.text}${item.status === 'doing' || item.status === 'dropped' ? ` (${item.status})` : ''}`);
    return ['[Tavern Agent] Your current plan (keep it current with plan_update):', ...lines].join('\n');
}
