import type { GenerationType } from '../../contract/run-input';
import { markedRunId } from '../sillytavern/message-marker';
import { stContext, type ChatMessage } from '../sillytavern/st-context';

/**
 * A turn (issue 34): the runs that answer one message of the chat (the user's, as a rule). Its director's
 * brief is stored on that message, and its runs share a `turnId` the timeline groups them by.
 */
export interface Turn {
    /** The message the reply answers (the last one before it), or null in an empty chat. */
    anchor: ChatMessage | null;
    turnId: string | null;
    /**
     * The generation goes on after SillyTavern's own tool calls (its function calling, when the user has it
     * on): the same turn as the generation that called them, whose message is the user's before them.
     */
    toolCallsGoOn?: boolean;
}

/** The turn of a message about to be generated: a swipe's reply is the last message, not part of its turn's past. */
export function currentTurn(type: GenerationType): Turn {
    const chat = stContext().chat;
    const end = type === 'swipe' ? chat.length - 1 : chat.length;
    if (type === 'normal' && isToolInvocation(chat[end - 1])) {
        let user = end - 1;
        while (user >= 0 && !chat[user]!.is_user) user -= 1;
        return { ...turnBefore(chat, user + 1), toolCallsGoOn: true };
    }
    return turnBefore(chat, end);
}

/** SillyTavern's record of the tool calls its own generation made (tool-calling.js), saved as a message. */
function isToolInvocation(message: ChatMessage | undefined): boolean {
    return Array.isArray(message?.extra?.tool_invocations);
}

/** The turn a reply at `index` answers. */
export function turnBefore(chat: readonly ChatMessage[], index: number): Turn {
    const anchor = index > 0 ? (chat[index - 1] ?? null) : null;
    return { anchor, turnId: anchor ? turnIdOf(anchor, index - 1) : null };
}

/**
 * Stable for as long as the message stands where it is: its place and when it was sent (two messages sent
 * in the same place, after a deletion, differ by their time).
 */
function turnIdOf(message: ChatMessage, index: number): string {
    const sent = message.send_date === undefined || message.send_date === null ? '' : String(message.send_date);
    return `turn-${index}-${sent}`.slice(0, 200);
}

/**
 * The reply of a turn in the open chat, for the timeline's turns (a director, "SillyTavern reply" with its
 * message, keepers): the message after the turn's own, when it is a reply. `runId` is the run that wrote it,
 * null for SillyTavern's own. Null when the turn is not in the open chat or has no reply yet.
 */
export function turnReply(turnId: string): { index: number; runId: string | null } | null {
    const chat = stContext().chat;
    const at = chat.findIndex((message, index) => turnIdOf(message, index) === turnId);
    const reply = at >= 0 ? chat[at + 1] : undefined;
    if (!reply || reply.is_user || reply.is_system) return null;
    return { index: at + 1, runId: markedRunId(reply) };
}
