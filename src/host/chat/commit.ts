import type { ChatIdentity, GenerationType } from '../../contract/run-input';
import { fail, ok, type Result } from '../../contract/result';
import type { CommitRequest } from '../../contract/wire';
import { openChatIdentity, sameChat, stillAt } from '../sillytavern/chat-identity';
import { markCommittedText, markedRunId, writeMarker } from '../sillytavern/message-marker';
import { toasts } from '../sillytavern/toasts';
import { MEMORY_MAX_BYTES, memoryBytes, type MemoryPayload } from '../../contract/memory';
import { t } from '../../i18n/t';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { loadReplyPipeline, type ReplyPipeline } from './reply-pipeline';
import type { StateWrite } from '../../contract/state';
import { applyStateWrites, stripBlock, withMvuBlock } from '../state/write-state';

export interface CommitTarget {
    runId: string;
    identity: ChatIdentity;
    generationType: GenerationType;
    /** Where the run's message stood at its last commit (reported to the engine; the object below decides). */
    messageId: number | null;
    /**
     * The message this run owns once it has committed, by identity: positions move (a chat switch during
     * saveReply, a deletion above it), the object does not. Absent for callers that only know a position.
     */
    message?: ChatMessage | null;
    /** The message's text right after the run's last commit: anything else there now is the user's edit. */
    committedText?: string | null;
    /** Set when the run was stopped: nothing may be written afterwards. */
    closed: boolean;
    /**
     * A fix run's target until its first commit: `message` still carries the revised run's marker
     * (`previousRunId`) and, maybe, its memory. The first commit moves the marker to the fix run and carries
     * that memory along (so a fix that never finishes leaves persist/ as the chat had it).
     */
    fixing?: { previousRunId: string; memory?: MemoryPayload } | null;
    /** The MVU update block the run's last commit appended (issue 36): a later one replaces it. */
    stateBlock?: string | null;
}

/** Keeps the current swipe's stored text in step with the message, as SillyTavern's own edits do. */
function syncSwipe(message: ChatMessage): void {
    if (message.swipes && message.swipe_id !== undefined) message.swipes[message.swipe_id] = message.mes;
}

/**
 * Where the run's message is in the chat open now, or null: found by identity (so another chat's message
 * at the same position never matches), and still carrying this run's marker (not deleted, not swiped away).
 */
export function locateRunMessage(target: CommitTarget, runId: string): number | null {
    const chat = stContext().chat;
    const index = target.message ? chat.indexOf(target.message) : (target.messageId ?? -1);
    if (index < 0 || index >= chat.length) return null;
    const marker = markedRunId(chat[index]);
    return marker === runId || (target.fixing && marker === target.fixing.previousRunId) ? index : null;
}

const CHANGED_WHILE_WRITING = 'Another chat was opened, or the message moved, while the reply was being written; the rest was not written.';

/**
 * A message whose text changed, shown as SillyTavern's own edit does: MESSAGE_EDITED (its listeners may still
 * change the text before it is drawn), re-render, MESSAGE_UPDATED. Stops when the listeners left the message
 * behind (another chat opened, the message moved): nothing more is drawn.
 */
async function showEdit(message: ChatMessage, index: number): Promise<Result<null>> {
    const context = stContext();
    syncSwipe(message);
    const events = context.eventTypes;
    if (events.MESSAGE_EDITED) await context.eventSource.emit(events.MESSAGE_EDITED, index);
    if (!stillAt(message, index)) return fail('host.chat_changed', CHANGED_WHILE_WRITING);
    context.updateMessageBlock(index, message);
    if (events.MESSAGE_UPDATED) await context.eventSource.emit(events.MESSAGE_UPDATED, index);
    if (!stillAt(message, index)) return fail('host.chat_changed', CHANGED_WHILE_WRITING);
    syncSwipe(message);
    return ok(null);
}

/** A commit's staged state into its message, every scope; host.chat_changed when the message left meanwhile. */
async function writeState(message: ChatMessage, index: number, writes: readonly StateWrite[] | undefined): Promise<Result<null>> {
    if (!writes?.length || (await applyStateWrites(message, index, writes))) return ok(null);
    return fail('host.chat_changed', CHANGED_WHILE_WRITING);
}

/** The chat open now is the run's own, or why not. */
function checkSameChat(target: CommitTarget, closedMessage: string, otherMessage: string): Result<null> {
    const identity = openChatIdentity();
    if (!identity) return fail('host.chat_changed', closedMessage);
    return sameChat(identity, target.identity) ? ok(null) : fail('host.chat_changed', otherMessage);
}

/**
 * Writes a finished run's memory into the message it committed (SPEC §4: persist/ travels with the chat),
 * then saves the chat. Only into the run's own message of the run's own chat; over the bound nothing is
 * written and the user is told, the memory staying in this browser.
 */
export async function attachMemoryToChat(target: CommitTarget, runId: string, memory: MemoryPayload): Promise<Result<{ stored: boolean; bytes: number }>> {
    const bytes = memoryBytes(memory);
    if (bytes > MEMORY_MAX_BYTES) {
        toasts.warning(t`The agent's memory (persist/) is too large to travel with the chat (over 256 KB). It is kept in this browser only.`);
        return ok({ stored: false, bytes });
    }
    if (target.closed) return fail('host.commit_failed', 'The run was stopped; nothing more is written to the chat.');
    if (target.messageId === null && !target.message) return fail('host.commit_failed', 'The run has no message to carry its memory.');
    const same = checkSameChat(target, 'The chat was closed before the agent could save its memory in it.', 'Another chat is open: the memory was not written into it.');
    if (!same.ok) return same;
    const context = stContext();
    const index = locateRunMessage(target, runId);
    if (index === null) return fail('host.commit_failed', 'The message this run wrote was deleted or replaced; its memory was not written.');
    try {
        writeMarker(context.chat[index]!, { runId, memory });
        await context.saveChat();
        return ok({ stored: true, bytes });
    } catch (error) {
        return fail('host.commit_failed', 'SillyTavern could not save the memory.', error instanceof Error ? error.message : String(error));
    }
}

/**
 * Writes a run's text into its chat through SillyTavern's reply pipeline (issue 15.1): the text gets the
 * clean-up ST gives a generated reply (the user's AI-output regex scripts among it); the first commit
 * creates the reply with saveReply (a new swipe for swipe runs), which stores the reasoning and emits
 * MESSAGE_RECEIVED and CHARACTER_MESSAGE_RENDERED once; later ones replace or append to that same message
 * as ST's own edit does (MESSAGE_EDITED, re-render, MESSAGE_UPDATED). A later commit over text the user
 * edited since the run's last commit is refused with their text (`workspace.commit_conflict`), once.
 */
export async function commitToChat(target: CommitTarget, request: CommitRequest): Promise<Result<{ messageId: number }>> {
    if (target.closed) return fail('host.commit_failed', 'The run was stopped; nothing more is written to the chat.');
    const pipeline = await loadReplyPipeline();
    const same = checkSameChat(
        target,
        'The chat was closed while the agent was working; its reply was not written.',
        'Another chat was opened while the agent was working; its reply was not written into it.',
    );
    if (!same.ok) return same;
    const reasoning = request.reasoning ? pipeline.reasoning(request.reasoning) : '';
    try {
        if (target.messageId === null && !target.message) return await commitFirst(target, request, pipeline.cleanUp(request.text), reasoning);
        return await commitAgain(target, request, pipeline, reasoning);
    } catch (error) {
        return fail('host.commit_failed', 'SillyTavern could not save the reply.', error instanceof Error ? error.message : String(error));
    }
}

const EMPTY_AFTER_CLEAN_UP = "SillyTavern's clean-up of the reply (the user's regex scripts and trimming settings) left nothing of it; nothing was written.";

async function commitFirst(target: CommitTarget, request: CommitRequest, text: string, reasoning: string): Promise<Result<{ messageId: number }>> {
    if (!text.trim()) return fail('workspace.empty_artifact', EMPTY_AFTER_CLEAN_UP);
    const context = stContext();
    const chat = context.chat;
    // MVU's update block goes in with the reply, so MVU's own MESSAGE_RECEIVED pass applies it.
    const withState = withMvuBlock(text, request.state, null);
    const saving = context.saveReply({ type: target.generationType === 'swipe' ? 'swipe' : 'normal', getMessage: withState.text, reasoning });
    // saveReply pushes the new message (or the new swipe) before its first await: that object is the run's
    // message from here on. Marked now, so MESSAGE_RECEIVED listeners and any save already see the marker.
    const message = chat[chat.length - 1]!;
    writeMarker(message, { runId: request.runId });
    target.message = message;
    await saving;
    const same = checkSameChat(target, 'The chat was closed while the reply was being saved.', 'Another chat was opened while the reply was being saved.');
    const index = stContext().chat.indexOf(message);
    if (!same.ok || index < 0) {
        target.message = null;
        return same.ok ? fail('host.chat_changed', 'The chat changed while the reply was being saved.') : same;
    }
    syncSwipe(message);
    target.messageId = index;
    target.stateBlock = withState.block;
    const stated = await writeState(message, index, request.state);
    if (!stated.ok) return stated;
    target.committedText = message.mes;
    markCommittedText(message);
    await context.saveChat();
    return ok({ messageId: index });
}

async function commitAgain(target: CommitTarget, request: CommitRequest, pipeline: ReplyPipeline, reasoning: string): Promise<Result<{ messageId: number }>> {
    const context = stContext();
    const index = locateRunMessage(target, request.runId);
    if (index === null) return fail('host.commit_failed', 'The message this run wrote was deleted or replaced; the new text was not written.');
    const message = context.chat[index]!;
    target.message ??= message;
    if (typeof target.committedText === 'string' && message.mes !== target.committedText) {
        // The user's edit wins; acknowledged once, so the agent's next commit (its merge) may replace it.
        target.committedText = message.mes;
        return fail('workspace.commit_conflict', 'The user edited this reply in the chat after your last commit.', message.mes);
    }
    const addition = pipeline.cleanUp(request.text);
    // The block an earlier commit appended is the run's own: it is replaced, never kept under appended text.
    const current = target.stateBlock ? stripBlock(message.mes, target.stateBlock) : message.mes;
    const next = request.mode === 'append' ? joinAppended(current, addition) : pipeline.trim(addition);
    if (!next.trim()) return fail('workspace.empty_artifact', EMPTY_AFTER_CLEAN_UP);
    const withState = withMvuBlock(next, request.state, null);
    message.mes = withState.text;
    target.stateBlock = withState.block;
    if (reasoning) (message.extra ??= {}).reasoning = reasoning;
    if (target.fixing) {
        // The fixed reply is now this run's: its marker (and the memory it carried, until this run attaches its own).
        writeMarker(message, { runId: request.runId, ...(target.fixing.memory ? { memory: target.fixing.memory } : {}) });
        target.fixing = null;
    }
    const shown = await showEdit(message, index);
    if (!shown.ok) return shown;
    target.messageId = index;
    const stated = await writeState(message, index, request.state);
    if (!stated.ok) return stated;
    target.committedText = message.mes;
    markCommittedText(message);
    await context.saveChat();
    return ok({ messageId: index });
}

/**
 * State staged after the run's last commit (issue 36), written when the run finishes: into its own message
 * (found by marker), with a new MVU block in place of the one its last commit appended.
 */
export async function writeRunState(target: CommitTarget, runId: string, writes: StateWrite[]): Promise<Result<{ messageId: number }>> {
    if (target.closed) return fail('host.commit_failed', 'The run was stopped; nothing more is written to the chat.');
    const same = checkSameChat(target, 'The chat was closed before the state changes were written.', 'Another chat is open: the state changes were not written into it.');
    if (!same.ok) return same;
    const index = locateRunMessage(target, runId);
    if (index === null) return fail('host.commit_failed', 'The message this run wrote was deleted or replaced; its state changes were not written.');
    try {
        const message = stContext().chat[index]!;
        const block = await rewriteState(message, index, writes, target.stateBlock ?? null);
        if (!block.ok) return block;
        target.stateBlock = block.value;
        target.committedText = message.mes;
        markCommittedText(message);
        await stContext().saveChat();
        return ok({ messageId: index });
    } catch (error) {
        return fail('host.commit_failed', 'SillyTavern could not save the state changes.', error instanceof Error ? error.message : String(error));
    }
}

/**
 * Writes state into a message already in the chat: its MVU block (the `previous` one replaced) as SillyTavern's
 * own edit does (MESSAGE_EDITED, re-render, MESSAGE_UPDATED), then every scope. Returns the block now there, or
 * host.chat_changed when the message left the open chat while the events' listeners ran (nothing more written).
 */
export async function rewriteState(message: ChatMessage, index: number, writes: readonly StateWrite[], previous: string | null): Promise<Result<string | null>> {
    const withState = withMvuBlock(message.mes, writes, previous);
    if (withState.text !== message.mes) {
        message.mes = withState.text;
        const shown = await showEdit(message, index);
        if (!shown.ok) return shown;
    }
    const stated = await writeState(message, index, writes);
    return stated.ok ? ok(withState.block) : stated;
}

/** `append` continues the message as a new paragraph. */
function joinAppended(existing: string, addition: string): string {
    if (!existing) return addition;
    if (!addition) return existing;
    return `${existing.replace(/\s+$/, '')}\n\n${addition.replace(/^\s+/, '')}`;
}
