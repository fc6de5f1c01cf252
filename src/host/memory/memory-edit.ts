import { MEMORY_MAX_BYTES, memoryBytes } from '../../contract/memory';
import { applyMemoryChange, type MemoryChange } from '../../contract/memory-change';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { activeRun } from '../run/active-run';
import { backgroundRuns } from '../run/background-runs';
import { memoryBuildWorking } from './memory-build';
import { isOpenChat } from '../sillytavern/chat-identity';
import { markedMemory, markedMemoryRunId, replaceMarkedMemory } from '../sillytavern/message-marker';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { getEngine } from '../worker/worker-client';
import { openChatMemory } from './open-chat-memory';
import type { MemoryHome } from '../../contract/memory-view';
import { writeMemorySeed } from './seed-store';

/** What became of a user's change: where the memory went, and the run that journals it (null if the journal failed). */
export interface MemoryEditOutcome {
    home: MemoryHome;
    journalRunId: string | null;
}

/**
 * A user's change to the open chat's memory (the Memory view, issue 37 §1), travelling with the chat like any
 * memory change: the new memory, in full, replaces the memory of the message that gave it (the newest of the
 * shown branch), or the seed when only the seed holds memory. Then it is journaled as a run of its own, which
 * History lists. Refused while an agent works in this tab, a memory build included (its memory or seed would
 * overwrite the edit when it ends),
 * and when the chat or that message changed while the memory was read; a refusal changes nothing.
 */
export async function editOpenChatMemory(change: MemoryChange): Promise<Result<MemoryEditOutcome>> {
    if (activeRun() || backgroundRuns().length || memoryBuildWorking()) return fail('run.running', t`An agent is working: change the memory once it has ended.`);
    const current = await openChatMemory();
    if (!current.ok) return current;
    const { identity, files, home, homeMessage, seed } = current.value;
    if (home.kind === 'none') return fail('memory.no_memory', t`This chat has no memory to change.`);
    const next = applyMemoryChange(files, change);
    if (!next.ok) return next;
    const bytes = memoryBytes({ v: 1, files: next.value });
    if (bytes > MEMORY_MAX_BYTES) return fail('memory.too_large', `${t`The memory would be over the size that travels with a chat. Nothing was changed.`} (${bytes} / ${MEMORY_MAX_BYTES} ${t`bytes`})`);
    if (!isOpenChat(identity)) return fail('memory.chat_changed', t`Another chat is open now: the memory was not changed.`);
    if (home.kind === 'message') {
        const written = await writeIntoMessage(home.messageId, homeMessage, next.value);
        if (!written.ok) return written;
    } else if (seed) {
        // The seed keeps where it came from and when; only its files change.
        const written = await writeMemorySeed(identity, { ...seed, files: next.value });
        if (!written.ok) return written;
    }
    const engine = await getEngine();
    const journaled = await engine.journalMemoryEdit({ chatKey: identity.integrity, chatId: identity.chatId, change, before: files, after: next.value, into: home.kind === 'seed' ? { kind: 'seed' } : home, bytes });
    return ok({ home, journalRunId: journaled.ok ? journaled.value.runId : null });
}

/** The new memory into the message that gave the old one, if it still does, then one chat save. */
async function writeIntoMessage(messageId: number, read: ChatMessage | null, after: Record<string, string>): Promise<Result<null>> {
    const context = stContext();
    const message = context.chat[messageId];
    // The memory was read a moment ago: the message at that place must still be the one read (a message deleted
    // or added before it moves another one there, maybe one with a memory of its own) and still name it.
    const owner = message && message === read ? markedMemoryRunId(message) : null;
    if (!message || owner === null) return fail('memory.chat_changed', t`The message holding this memory was deleted or swiped away: the memory was not changed.`);
    const original = markedMemory(message);
    if (!replaceMarkedMemory(message, { v: 1, files: after })) return fail('memory.chat_changed', t`The message holding this memory no longer names it: the memory was not changed.`);
    try {
        await context.saveChat();
        return ok(null);
    } catch (error) {
        // Put the message's memory back as it was, so the page's copy of the chat matches the saved one (a message
        // whose memory came from this browser's cache keeps the new one: the next save stores it).
        if (original) replaceMarkedMemory(message, original);
        return fail('host.commit_failed', t`SillyTavern could not save the chat.`, error instanceof Error ? error.message : String(error));
    }
}
