import type { MemoryHome, MemorySnapshot } from '../../contract/memory-view';
import { readMemorySeed } from '../../contract/memory-seed';
import { fail, ok, type Result } from '../../contract/result';
import type { ChatIdentity } from '../../contract/run-input';
import { openChatIdentity } from '../sillytavern/chat-identity';
import { stContext } from '../sillytavern/st-context';
import { getEngine } from '../worker/worker-client';
import { memoryCarriers } from './memory-carriers';

/** The open chat's memory, and the chat it was read from. */
export interface OpenChatMemory extends MemorySnapshot {
    identity: ChatIdentity;
}

/**
 * Reads the open chat's memory as a run at its tip would (engine/run/memory-base.ts, in the worker, with this
 * browser's cache for messages written before memory travelled). The message that gave it is the newest of the
 * shown branch whose owner is that run: an edit goes there, so memoryBase resolves the edit on every device.
 */
export async function openChatMemory(): Promise<Result<OpenChatMemory>> {
    const identity = openChatIdentity();
    if (!identity) return fail('host.no_chat', 'Open a chat first.');
    const context = stContext();
    const carriers = memoryCarriers(context.chat);
    const seed = readMemorySeed(context.chatMetadata);
    const engine = await getEngine();
    const resolved = await engine.resolveMemory(carriers, seed);
    if (!resolved.ok) return resolved;
    const { files, runId } = resolved.value;
    let home: MemoryHome = seed ? { kind: 'seed' } : { kind: 'none' };
    if (runId !== null) {
        const index = carriers.map((carrier) => carrier.runId).lastIndexOf(runId);
        if (index >= 0) home = { kind: 'message', messageId: index };
    }
    return ok({ identity, files, home, seed });
}
