import * as z from 'zod';

/**
 * How many runs of each chat are kept (SPEC: storage stays bounded): the newest `keepFull` whole, the next
 * `keepSummaries` as summaries (record and journal; files and checkpoints dropped), older ones deleted.
 */
export const RetentionPolicySchema = z.object({
    keepFull: z.number().int().min(1).max(1000),
    keepSummaries: z.number().int().min(0).max(10_000),
});
export type RetentionPolicy = z.infer<typeof RetentionPolicySchema>;

export const DEFAULT_RETENTION: RetentionPolicy = { keepFull: 20, keepSummaries: 100 };

/** Runs stored per chat, for the panel's storage section (runs of deleted chats are listed too). */
export interface ChatRunCount {
    chatKey: string;
    /** The chat's file name when its newest run was made (a chat renamed since shows its old name). */
    chatId: string;
    runs: number;
    /** Runs kept as summaries (no files). */
    summaries: number;
    newestAt: number;
    /** Bytes of memory only this browser holds (runs whose memory no message carries, kept by retention). */
    heldMemoryBytes: number;
}

/** What a prune did. */
export interface PruneReport {
    summarized: number;
    deleted: number;
    /** Runs that would have been deleted but hold the only copy of their chat's memory: kept as summaries. */
    held: number;
}

const ChatKeysSchema = z.union([z.array(z.string()), z.literal('all')]);

/** Which runs a prune touches: `retention` applies the policy, `delete` removes every run of the scope. */
export const PruneRequestSchema = z.discriminatedUnion('action', [
    z.object({ action: z.literal('retention'), chatKeys: ChatKeysSchema, policy: RetentionPolicySchema }),
    z.object({ action: z.literal('delete'), chatKeys: ChatKeysSchema }),
]);
export type PruneRequest = z.infer<typeof PruneRequestSchema>;
