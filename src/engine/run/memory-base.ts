import { resolveChatMemory } from '../../contract/memory-chain';
import type { MemorySeed } from '../../contract/memory-seed';
import type { PrefixMessage } from '../../contract/run-input';
import type { RunStorage } from '../../store/run-storage';

/** The memory a run starts from, and where it came from (a delta is written only against a base the chat holds). */
export interface MemoryBase {
    files: Record<string, string>;
    /** The run whose message gave the base, or null when no message of the prefix carries memory (the seed or nothing). */
    runId: string | null;
    /** Whether the chat itself carries the base (so another device can resolve a delta against it). */
    inChat: boolean;
}

/**
 * persist/ follows the branch (SPEC §4): the newest agent message of the prefix whose memory can be
 * resolved gives the base, so a swipe or regenerate never sees a discarded run's memory and a deleted
 * message takes its memory with it. The chat is the truth — its messages carry their memory, on any device;
 * this browser's IndexedDB only fills in for messages written before memory travelled with the chat (a
 * state counts only once its run record says `completed`). While no message carries memory, the chat's memory
 * seed (issue 37 §2) is the base: it is in the chat's metadata, so it counts as in the chat, and the first
 * memory a message carries is then written in full (there is no run to be a delta's base).
 */
export async function memoryBase(prefix: readonly PrefixMessage[], storage: RunStorage, seed?: MemorySeed | null): Promise<MemoryBase> {
    // A state counts only once its run record says `completed`.
    const fromCache = async (runId: string): Promise<Record<string, string> | null> => {
        const [run, state] = await Promise.all([storage.getRun(runId).catch(() => undefined), storage.getPersistState(runId).catch(() => undefined)]);
        return run?.state === 'completed' && state ? state.files : null;
    };
    const carriers = prefix.map((message) => ({ runId: message.agentRunId, ...(message.memory ? { memory: message.memory } : {}) }));
    const found = await resolveChatMemory(carriers, fromCache);
    if (found) return { files: found.files, runId: prefix[found.messageIndex]!.agentRunId, inChat: found.inChat };
    return seed ? { files: { ...seed.files }, runId: null, inChat: true } : { files: {}, runId: null, inChat: false };
}
