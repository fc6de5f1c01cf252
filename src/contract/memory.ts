import * as z from 'zod';

/**
 * The chat's agent memory (persist/) as it travels in the message a run committed (SPEC §4): in
 * `extra.tavern_agent.memory`, per swipe. Either every file, or the change against the memory of an
 * earlier agent message of the same chat (`base`, that message's run id) when that is smaller.
 */
export const MemoryPayloadSchema = z.union([
    z.object({ v: z.literal(1), files: z.record(z.string(), z.string()) }).strict(),
    z
        .object({
            v: z.literal(1),
            base: z.string().min(1),
            changed: z.record(z.string(), z.string()),
            removed: z.array(z.string()),
        })
        .strict(),
]);
export type MemoryPayload = z.infer<typeof MemoryPayloadSchema>;

/** A chat message is no place for a large archive: over this the memory stays in the browser only. */
export const MEMORY_MAX_BYTES = 256 * 1024;

export function memoryBytes(payload: MemoryPayload): number {
    return new TextEncoder().encode(JSON.stringify(payload)).length;
}

/** The smaller of the full state and the change against `base` (whose files are known). */
export function encodeMemory(files: Record<string, string>, base: { runId: string; files: Record<string, string> } | null): MemoryPayload {
    const full: MemoryPayload = { v: 1, files };
    if (!base) return full;
    const changed: Record<string, string> = {};
    for (const [path, content] of Object.entries(files)) if (base.files[path] !== content) changed[path] = content;
    const removed = Object.keys(base.files).filter((path) => !(path in files));
    const delta: MemoryPayload = { v: 1, base: base.runId, changed, removed };
    return memoryBytes(delta) < memoryBytes(full) ? delta : full;
}

/** Applies a payload to the files of its base (ignored for a full payload). */
export function applyMemory(payload: MemoryPayload, baseFiles: Record<string, string>): Record<string, string> {
    if ('files' in payload) return { ...payload.files };
    const files = { ...baseFiles };
    for (const path of payload.removed) delete files[path];
    return Object.assign(files, payload.changed);
}
