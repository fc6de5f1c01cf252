import { MEMORY_MAX_BYTES, memoryBytes, type MemoryPayload } from '../../contract/memory';
import { fail, ok, type Result } from '../../contract/result';
import type { ChatIdentity } from '../../contract/run-input';
import { t } from '../../i18n/t';
import { isOpenChat, openChatIdentity } from '../sillytavern/chat-identity';
import { writeKeeperMemory } from '../sillytavern/message-marker';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { toasts } from '../sillytavern/toasts';
import type { StateWrite } from '../../contract/state';
import { rewriteState } from './commit';

/**
 * The reply a keeper works after (issue 34): that message of that chat, on the swipe it showed when it landed.
 * The memory the keeper finishes with goes there, or nowhere.
 */
export interface BoundReply {
    message: ChatMessage;
    /** Where it stood when it landed (positions move: the message itself is looked up first). */
    index: number;
    swipeId: number;
    sendDate: string | undefined;
    identity: ChatIdentity;
}

/** Binds the open chat's message at `index`; null when there is none or no chat is open. */
export function bindReply(index: number): BoundReply | null {
    const identity = openChatIdentity();
    const message = stContext().chat[index];
    if (!identity || !message) return null;
    return { message, index, swipeId: swipeOf(message), sendDate: message.send_date, identity };
}

/**
 * Where the bound reply is in the open chat now, or null when it is gone: another chat is open, the message
 * was deleted, or it shows another swipe. A chat loaded again holds new message objects: then the message at
 * the same place, sent at the same time (a swipe has its own time), is the same reply.
 */
export function locateBoundReply(bound: BoundReply): number | null {
    if (!isOpenChat(bound.identity)) return null;
    const chat = stContext().chat;
    let index = chat.indexOf(bound.message);
    if (index < 0) {
        const there = chat[bound.index];
        if (!there || there.is_user || bound.sendDate === undefined || there.send_date !== bound.sendDate) return null;
        index = bound.index;
    }
    return swipeOf(chat[index]!) === bound.swipeId ? index : null;
}

/** The swipe a message shows: a reply lands without swipes (MESSAGE_RECEIVED comes before SillyTavern adds them), as its swipe 0. */
function swipeOf(message: ChatMessage): number {
    return message.swipe_id ?? 0;
}

/**
 * A keeper's finished memory into the reply it follows, then one chat save. Only there: when that reply is
 * gone (deleted, swiped away, another chat open) the memory is dropped and nothing is written elsewhere;
 * over the bound it stays in this browser and the user is told.
 */
export async function attachKeeperMemory(bound: BoundReply, runId: string, memory: MemoryPayload): Promise<Result<{ stored: boolean; bytes: number }>> {
    const bytes = memoryBytes(memory);
    if (bytes > MEMORY_MAX_BYTES) {
        toasts.warning(t`The agent's memory (persist/) is too large to travel with the chat (over 256 KB). It is kept in this browser only.`);
        return ok({ stored: false, bytes });
    }
    const index = locateBoundReply(bound);
    if (index === null) return fail('pipeline.reply_gone', 'The reply this keeper worked after was deleted or swiped away, or another chat is open: its memory was dropped.');
    const context = stContext();
    try {
        writeKeeperMemory(context.chat[index]!, runId, memory);
        await context.saveChat();
        return ok({ stored: true, bytes });
    } catch (error) {
        return fail('host.commit_failed', 'SillyTavern could not save the memory.', error instanceof Error ? error.message : String(error));
    }
}

/**
 * A keeper's staged state (issue 36) into the reply it follows, then one chat save; dropped when that reply is
 * gone, as its memory is.
 */
export async function writeKeeperState(bound: BoundReply, writes: StateWrite[]): Promise<Result<{ messageId: number }>> {
    const index = locateBoundReply(bound);
    if (index === null) return fail('pipeline.reply_gone', 'The reply this keeper worked after was deleted or swiped away, or another chat is open: its state changes were dropped.');
    const context = stContext();
    try {
        const written = await rewriteState(context.chat[index]!, index, writes, null);
        if (!written.ok) return written;
        await context.saveChat();
        return ok({ messageId: index });
    } catch (error) {
        return fail('host.commit_failed', 'SillyTavern could not save the state changes.', error instanceof Error ? error.message : String(error));
    }
}
