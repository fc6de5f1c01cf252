import { stContext } from '../sillytavern/st-context';
import { restampSwipeState } from '../sillytavern/message-marker';
import { replayChatVariables } from './chat-variables';
import { spliceSwipeTable } from './message-variables';

/**
 * Keeps the chat variables Tavern Agent manages on the active branch (issue 36): SillyTavern emits no
 * variable event and never rolls variables back, so after each change of the path (a swipe, a deletion, a
 * chat opened, a reply received) our own variables are replayed along it. A chat with none managed costs a
 * metadata lookup. After a swipe is deleted, the swipes' state and Tavern Helper's tables are renumbered with
 * SillyTavern's swipes (Tavern Helper does not splice its own).
 */
export function watchState(): void {
    const { eventSource, eventTypes } = stContext();
    const replay = () => {
        void replayChatVariables().catch((error: unknown) => console.warn('[Tavern Agent] replaying chat variables failed', error));
    };
    for (const name of ['MESSAGE_DELETED', 'MESSAGE_SWIPED', 'CHAT_CHANGED', 'MESSAGE_RECEIVED'] as const) {
        const event = eventTypes[name];
        if (event) eventSource.on(event, replay);
    }
    const swipeDeleted = eventTypes.MESSAGE_SWIPE_DELETED;
    if (swipeDeleted) {
        eventSource.on(swipeDeleted, (data: { messageId?: unknown; swipeId?: unknown }) => {
            const message = typeof data?.messageId === 'number' ? stContext().chat[data.messageId] : undefined;
            if (message) {
                if (typeof data.swipeId === 'number') spliceSwipeTable(message, data.swipeId);
                restampSwipeState(message);
            }
            replay();
        });
    }
    replay();
}
