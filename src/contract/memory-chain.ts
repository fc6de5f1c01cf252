import { applyMemory, type MemoryPayload } from './memory';

/** A chat message as memory sees it: who names its memory (the run deltas use as `base`) and what it carries. */
export interface MemoryCarrier {
    runId: string | null;
    memory?: MemoryPayload;
}

/** The latest memory a chat carries, and the message that carries it. */
export interface ChatMemory {
    files: Record<string, string>;
    messageIndex: number;
}

/**
 * The memory of the last message of `messages` that carries any (issue 37 §2: a chat's "latest memory"), its
 * delta chain resolved from these messages only: another chat read from the server has no cache to fall back
 * on, so a message whose chain cannot be resolved is passed over for an earlier one. Never throws; a chain that
 * loops (a marker edited by hand) is cut, not followed.
 */
export function latestChatMemory(messages: readonly MemoryCarrier[]): ChatMemory | null {
    const byRun = new Map<string, number>();
    messages.forEach((message, index) => message.runId && byRun.set(message.runId, index));

    function resolve(index: number, seen: Set<number>): Record<string, string> | null {
        const memory = messages[index]?.memory;
        if (!memory || seen.has(index)) return null;
        seen.add(index);
        if ('files' in memory) return applyMemory(memory, {});
        const baseIndex = byRun.get(memory.base);
        // A delta's base is an earlier message of the same chat, as memoryBase (engine/run/memory-base.ts) reads it.
        const base = baseIndex !== undefined && baseIndex < index ? resolve(baseIndex, seen) : null;
        return base ? applyMemory(memory, base) : null;
    }

    for (let index = messages.length - 1; index >= 0; index -= 1) {
        if (!messages[index]!.memory) continue;
        const files = resolve(index, new Set());
        if (files) return { files, messageIndex: index };
    }
    return null;
}
