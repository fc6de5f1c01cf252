import type { ChatIdentity, GenerationType } from '../contract/run-input';
import { fail, ok, type Result } from '../contract/result';
import type { CommitRequest } from '../contract/wire';
import { currentIdentity, sameChat } from './snapshot';
import { MEMORY_MAX_BYTES, memoryBytes, type MemoryPayload } from '../contract/memory';
import { t } from '../i18n/t';
import { stContext, type ChatMessage } from './st-context';

/** The marker a committed message carries in `extra`, so memory and history can find their run. */
export const MESSAGE_MARKER_KEY = 'tavern_agent';

export interface CommitTarget {
    runId: string;
    identity: ChatIdentity;
    generationType: GenerationType;
    /** The message this run owns once it has committed. */
    messageId: number | null;
    /** Set when the run was stopped: nothing may be written afterwards. */
    closed: boolean;
}

function markerOf(message: ChatMessage | undefined): string | null {
    const marker = message?.extra?.[MESSAGE_MARKER_KEY];
    return marker && typeof marker === 'object' ? String((marker as { runId?: unknown }).runId ?? '') : null;
}

function mark(message: ChatMessage, marker: { runId: string; memory?: MemoryPayload }): void {
    message.extra = { ...(message.extra ?? {}), [MESSAGE_MARKER_KEY]: marker };
    // SillyTavern restores `extra` from swipe_info when the user swipes back and forth: each swipe keeps its own.
    const swipeInfo = (message as { swipe_info?: Array<{ extra?: Record<string, unknown> }> }).swipe_info;
    const info = message.swipe_id !== undefined ? swipeInfo?.[message.swipe_id] : undefined;
    if (info) info.extra = { ...(info.extra ?? {}), [MESSAGE_MARKER_KEY]: marker };
}

/**
 * Writes a finished run's memory into the message it committed (SPEC §4: persist/ travels with the chat),
 * then saves the chat. Only into the run's own message of the run's own chat; over the bound nothing is
 * written and the user is told, the memory staying in this browser.
 */
export async function attachMemoryToChat(target: CommitTarget, runId: string, memory: MemoryPayload): Promise<Result<{ stored: boolean; bytes: number }>> {
    const bytes = memoryBytes(memory);
    if (bytes > MEMORY_MAX_BYTES) {
        globalThis.toastr?.warning(t`The agent's memory (persist/) is too large to travel with the chat (over 256 KB). It is kept in this browser only.`);
        return ok({ stored: false, bytes });
    }
    if (target.closed) return fail('host.commit_failed', 'The run was stopped; nothing more is written to the chat.');
    if (target.messageId === null) return fail('host.commit_failed', 'The run has no message to carry its memory.');
    let identity: ChatIdentity;
    try {
        identity = currentIdentity();
    } catch {
        return fail('host.chat_changed', 'The chat was closed before the agent could save its memory in it.');
    }
    if (!sameChat(identity, target.identity)) return fail('host.chat_changed', 'Another chat is open: the memory was not written into it.');
    const context = stContext();
    const message = context.chat[target.messageId];
    if (!message || markerOf(message) !== runId) return fail('host.commit_failed', 'The message this run wrote was deleted or replaced; its memory was not written.');
    try {
        mark(message, { runId, memory });
        await context.saveChat();
        return ok({ stored: true, bytes });
    } catch (error) {
        return fail('host.commit_failed', 'SillyTavern could not save the memory.', error instanceof Error ? error.message : String(error));
    }
}

/**
 * Writes a run's text into its chat: the first commit creates the reply through SillyTavern's saveReply
 * (a new swipe for swipe runs), later ones replace or append to that same message. The chat identity is
 * checked first, every time; then the chat is saved once.
 */
export async function commitToChat(target: CommitTarget, request: CommitRequest): Promise<Result<{ messageId: number }>> {
    if (target.closed) return fail('host.commit_failed', 'The run was stopped; nothing more is written to the chat.');
    let identity: ChatIdentity;
    try {
        identity = currentIdentity();
    } catch {
        return fail('host.chat_changed', 'The chat was closed while the agent was working; its reply was not written.');
    }
    if (!sameChat(identity, target.identity)) {
        return fail('host.chat_changed', 'Another chat was opened while the agent was working; its reply was not written into it.');
    }
    const context = stContext();
    try {
        if (target.messageId === null) {
            await context.saveReply({ type: target.generationType === 'swipe' ? 'swipe' : 'normal', getMessage: request.text });
            const messageId = context.chat.length - 1;
            const message = context.chat[messageId]!;
            if (message.swipes && message.swipe_id !== undefined) message.swipes[message.swipe_id] = message.mes;
            mark(message, { runId: request.runId });
            target.messageId = messageId;
        } else {
            const message = context.chat[target.messageId];
            if (!message || markerOf(message) !== request.runId) {
                return fail('host.commit_failed', 'The message this run wrote was deleted or replaced; the new text was not written.');
            }
            message.mes = request.mode === 'append' ? joinAppended(message.mes, request.text) : request.text;
            if (message.swipes && message.swipe_id !== undefined) message.swipes[message.swipe_id] = message.mes;
            context.updateMessageBlock(target.messageId, message);
        }
        await context.saveChat();
        return ok({ messageId: target.messageId });
    } catch (error) {
        return fail('host.commit_failed', 'SillyTavern could not save the reply.', error instanceof Error ? error.message : String(error));
    }
}

/** `append` continues the message as a new paragraph. */
function joinAppended(existing: string, addition: string): string {
    if (!existing) return addition;
    if (!addition) return existing;
    return `${existing.replace(/\s+$/, '')}\n\n${addition.replace(/^\s+/, '')}`;
}
