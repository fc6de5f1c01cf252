import * as z from 'zod';
import { MEMORY_MAX_BYTES } from './memory';

/**
 * The chat's **memory seed** (issue 37 §2): memory the chat starts from before any of its own messages carries
 * memory, copied from another chat of the same character (`/agent memory from`) or left by a memory build over
 * this chat (`/agent memory build`). It lives in the chat's metadata under its own key, not beside Agent Mode's
 * small state, so it travels with the chat file (every device, every branch) and is read only when a run starts.
 */
export const MEMORY_SEED_KEY = 'tavern_agent_memory_seed';

/** Where a seed came from: another chat's file name, or this chat's own memory build. */
export const MemorySeedSourceSchema = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('chat'), chat: z.string().min(1).max(500) }).strict(),
    z.object({ kind: z.literal('build'), chunks: z.number().int().nonnegative(), messages: z.number().int().nonnegative() }).strict(),
]);
export type MemorySeedSource = z.infer<typeof MemorySeedSourceSchema>;

export const MemorySeedSchema = z
    .object({
        v: z.literal(1),
        source: MemorySeedSourceSchema,
        /** When the seed was taken (ISO 8601). */
        at: z.string().max(40),
        /** persist/ files by path, as a message's full memory payload holds them. */
        files: z.record(z.string().max(300), z.string()),
    })
    .strict();
export type MemorySeed = z.infer<typeof MemorySeedSchema>;

/** The same bound as memory in a message: a seed is memory that travels with the chat. */
export const MEMORY_SEED_MAX_BYTES = MEMORY_MAX_BYTES;

export function memorySeedBytes(seed: MemorySeed): number {
    return new TextEncoder().encode(JSON.stringify(seed)).length;
}

/** The seed a chat's metadata holds, or null when it holds none or one that does not parse (which is then ignored, never an error). */
export function readMemorySeed(metadata: Record<string, unknown> | undefined): MemorySeed | null {
    const parsed = MemorySeedSchema.safeParse(metadata?.[MEMORY_SEED_KEY]);
    return parsed.success ? parsed.data : null;
}
