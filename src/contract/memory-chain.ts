import { applyMemory, type MemoryPayload } from './memory';

/** A chat message as memory sees it: who names its memory (the run deltas use as `base`) and what it carries. */
export interface MemoryCarrier {
    runId: string | null;
    memory?: MemoryPayload;
}

/** The latest memory a chat carries, the message that carries it, and whether the chat alone resolves it. */
export interface ChatMemory {
    files: Record<string, string>;
    messageIndex: number;
    /** False when this browser's cache filled in some link of the chain (another device could not resolve a delta on it). */
    inChat: boolean;
}

/** The memory a run left, from a cache outside the chat (this browser's store), or null when none is known. */
export type MemoryCache = (runId: string) => Promise<Record<string, string> | null>;

const NO_CACHE: MemoryCache = async () => null;

/**
 * The one reading of a chat's memory chain (SPEC §4): the newest message whose memory resolves gives it. A
 * message carries its memory whole, or as a delta against the memory of an earlier message of the same chat
 * (`base`, that message's run id); a link the chat cannot resolve is taken from `fromCache` when it knows that
 * run, else the message is passed over for an earlier one. A chain that loops (a marker edited by hand) is cut,
 * not followed. The engine's `memoryBase` reads a run's prefix with this browser's store as the cache; another
 * chat read from the server (issue 37 §2) has none.
 */
export async function resolveChatMemory(messages: readonly MemoryCarrier[], fromCache: MemoryCache = NO_CACHE): Promise<ChatMemory | null> {
    const byRun = new Map<string, number>();
    messages.forEach((message, index) => message.runId && byRun.set(message.runId, index));
    const resolving = new Set<number>();

    async function resolve(index: number): Promise<{ files: Record<string, string>; inChat: boolean } | null> {
        const { memory, runId } = messages[index]!;
        if (memory && !resolving.has(index)) {
            resolving.add(index);
            if ('files' in memory) return { files: applyMemory(memory, {}), inChat: true };
            const baseIndex = byRun.get(memory.base);
            const base = baseIndex !== undefined && baseIndex < index ? await resolve(baseIndex) : null;
            const baseFiles = base?.files ?? (await fromCache(memory.base));
            if (baseFiles) return { files: applyMemory(memory, baseFiles), inChat: base?.inChat ?? false };
        }
        const cached = runId ? await fromCache(runId) : null;
        return cached ? { files: cached, inChat: false } : null;
    }

    for (let index = messages.length - 1; index >= 0; index -= 1) {
        if (!messages[index]!.runId && !messages[index]!.memory) continue;
        const found = await resolve(index);
        if (found) return { ...found, messageIndex: index };
    }
    return null;
}

/** Another chat's latest memory (issue 37 §2), from its own messages only: the last that carries any and resolves. */
export async function latestChatMemory(messages: readonly MemoryCarrier[]): Promise<{ files: Record<string, string>; messageIndex: number } | null> {
    const found = await resolveChatMemory(messages);
    return found ? { files: found.files, messageIndex: found.messageIndex } : null;
}
