import type { ReplyPlace } from '../../contract/reply-place';
import { markedRunId } from '../sillytavern/message-marker';
import { stContext, type ChatMessage } from '../sillytavern/st-context';

/** Where a run's reply is in the open chat now, read fresh (see contract/reply-place.ts). */

type WithSwipeInfo = ChatMessage & { swipe_info?: Array<{ extra?: Record<string, unknown> } | undefined> };

export function replyPlace(runId: string, messageId: number | null): ReplyPlace {
    const chat = stContext().chat as WithSwipeInfo[];
    // By marker first: the index a run recorded moves when earlier messages are deleted.
    const shown = chat.findIndex((message) => markedRunId(message) === runId);
    if (shown >= 0) return { state: 'shown', index: shown };
    for (let index = 0; index < chat.length; index += 1) {
        const swipe = chat[index]!.swipe_info?.findIndex((info) => markedRunId(info) === runId) ?? -1;
        if (swipe >= 0) return { state: 'swiped', index, swipe };
    }
    const message = messageId === null ? undefined : chat[messageId];
    if (message && !message.is_user && !message.is_system) return { state: 'replaced', index: messageId!, byRunId: markedRunId(message) };
    return { state: 'gone' };
}
