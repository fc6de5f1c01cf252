/** SPEC §4: the roots an agent may see and write. Profiles may narrow them, never widen. */
export const VISIBLE_ROOTS = ['output', 'scratch', 'plan', 'summaries', 'persist'] as const;
export type VisibleRoot = (typeof VISIBLE_ROOTS)[number];

/** Stores the run keeps for itself: shown read-only in the timeline and exports, never to tools. */
export const HIDDEN_ROOTS = ['input', 'tool-args', 'tool-results', 'model-responses', 'agent-results', 'checkpoints', 'events.jsonl', 'request-parts'] as const;
