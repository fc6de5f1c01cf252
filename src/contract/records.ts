import * as z from 'zod';

/** Every stored record carries the schema version it was written with, so later versions can migrate it. */
export const RECORD_VERSION = 1;

export const RunStateSchema = z.enum([
    'created',
    'preparing',
    'running',
    'awaiting_commit',
    'finishing',
    'completed',
    'failed',
    'cancelled',
    'interrupted',
]);
export type RunState = z.infer<typeof RunStateSchema>;

const ENDED_STATES: ReadonlySet<RunState> = new Set(['completed', 'failed', 'cancelled', 'interrupted']);

/** A run in one of these states is over: nothing works on it, and only a resume (of `interrupted`) goes on. */
export function isEndedState(state: RunState): boolean {
    return ENDED_STATES.has(state);
}

export const RunRecordSchema = z.object({
    v: z.literal(RECORD_VERSION),
    runId: z.string(),
    /** Stable chat key: `chat_metadata.integrity` (survives renames). */
    chatKey: z.string(),
    chatId: z.string(),
    profileId: z.string(),
    generationType: z.string(),
    state: RunStateSchema,
    /** The chat message this run committed to, once it has. */
    messageId: z.number().int().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    createdAt: z.number(),
    updatedAt: z.number(),
    /**
     * The run's lease (engine/tabs/leases.ts): the engine working on it (`owner`) renews it while it works,
     * and `token` names that one claim. Where Web Locks are missing (a plain-HTTP LAN origin) another tab
     * treats the run as alive until `until`; a claim whose token is no longer here has lost the run. A record
     * stored before tokens has none: its lease is nobody's now.
     */
    lease: z.object({ owner: z.string(), token: z.string().optional(), until: z.number() }).optional(),
    /** Kept as a summary by retention: record and journal only, its files and checkpoints were dropped. */
    summary: z.boolean().optional(),
    /**
     * Where the memory (persist/) a finished run promoted went (issue 39 §4): into its message (`carried`), or
     * only into this browser (over the bound a message may carry, or refused): then this run holds the only copy.
     */
    memory: z.object({ carried: z.boolean(), bytes: z.number().int().nonnegative() }).optional(),
    /** Its phase in its chat's turn (issue 34); absent: `reply`. */
    phase: z.enum(['before', 'reply', 'after']).optional(),
    /** The turn it belongs to (the user message it answers), when the page named one. */
    turnId: z.string().optional(),
    /** An `after` run: the chat message (index) of the reply it follows. */
    follows: z.number().int().nonnegative().optional(),
    /** Tokens of every model turn of the run, its sub-agents' included, and their cost when priced (issue 38 §2). */
    usage: z.object({ input: z.number(), output: z.number(), cost: z.number().optional() }).optional(),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

/**
 * A stored journal event's envelope: its type is checked against the event types and its payload against
 * that type's schema where untrusted records come in (an import: `eventPayloadProblem` in events.ts). The
 * typed union readers switch over is `JournalEvent` in events.ts.
 */
export const JournalEventSchema = z.object({
    v: z.literal(RECORD_VERSION),
    runId: z.string(),
    seq: z.number().int().nonnegative(),
    at: z.number(),
    type: z.string(),
    payload: z.unknown(),
});

export const WorkspaceFileSchema = z.object({
    v: z.literal(RECORD_VERSION),
    runId: z.string(),
    path: z.string(),
    content: z.string(),
    version: z.number().int().nonnegative(),
    updatedAt: z.number(),
});
export type WorkspaceFile = z.infer<typeof WorkspaceFileSchema>;

export const CheckpointRecordSchema = z.object({
    v: z.literal(RECORD_VERSION),
    runId: z.string(),
    seq: z.number().int().nonnegative(),
    path: z.string(),
    /** A diff-match-patch delta against the previous checkpoint of the path, or null when `full` is set. */
    delta: z.string().nullable(),
    full: z.string().nullable(),
    at: z.number(),
});
export type CheckpointRecord = z.infer<typeof CheckpointRecordSchema>;

export const PersistStateSchema = z.object({
    v: z.literal(RECORD_VERSION),
    runId: z.string(),
    chatKey: z.string(),
    /** path (under persist/) → content */
    files: z.record(z.string(), z.string()),
    at: z.number(),
});
export type PersistState = z.infer<typeof PersistStateSchema>;

/** The records a journal event describes, stored in the event's own transaction. */
export interface EventAttachments {
    files?: WorkspaceFile[];
    checkpoints?: CheckpointRecord[];
}
