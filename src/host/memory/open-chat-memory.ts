import type { MemoryHome, MemorySnapshot } from '../../contract/memory-view';
import { readMemorySeed } from '../../contract/memory-seed';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import type { ChatIdentity } from '../../contract/run-input';
import { openChatIdentity } from '../sillytavern/chat-identity';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { getEngine } from '../worker/worker-client';
import { memoryCarriers } from './memory-carriers';

/** The open chat's memory, and the chat it was read from. */
export interface OpenChatMemory extends MemorySnapshot {
    identity: ChatIdentity;
    /** The message `home` names, as it was when the memory was read: a change is written only into this object. */
    homeMessage: ChatMessage | null;
}

/**
 * Reads the open chat's memory as a run at its tip would (engine/run/memory-base.ts, in the worker, with this
 * browser's cache for messages written before memory travelled), and where a change to it goes: the newest
 * message of the shown branch with a memory owner, or the seed when no message gave the memory.
 */
export async function openChatMemory(): Promise<Result<OpenChatMemory>> {
    const identity = openChatIdentity();
    if (!identity) return fail('host.no_chat', t`Open a chat first.`);
    const context = stContext();
    // The chat as it is now: the index found below names a message of this array, which the awaits may leave.
    const chat = context.chat;
    const carriers = memoryCarriers(chat);
    const seed = readMemorySeed(context.chatMetadata);
    const engine = await getEngine();
    const resolved = await engine.resolveMemory(carriers, seed);
    if (!resolved.ok) return resolved;
    const { files, runId } = resolved.value;
    let home: MemoryHome = seed ? { kind: 'seed' } : { kind: 'none' };
    let homeMessage: ChatMessage | null = null;
    if (runId !== null) {
        // The newest message of the branch that names a memory owner, not only the one that gave the memory here:
        // memoryBase reads the newest first, and another browser may hold a cached (older) memory for a later
        // reply that carries none. Written there, in full, the change is what every device resolves first.
        const index = carriers.findLastIndex((carrier) => carrier.runId !== null);
        if (index >= 0) {
            home = { kind: 'message', messageId: index };
            homeMessage = chat[index] ?? null;
        }
    }
    return ok({ identity, files, home, homeMessage, seed });
}
