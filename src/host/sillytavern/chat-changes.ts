import { stContext } from './st-context';

/** SillyTavern's events after which the open chat's messages may differ: drawn, changed, removed, swapped. */
const MESSAGE_EVENTS = ['CHARACTER_MESSAGE_RENDERED', 'USER_MESSAGE_RENDERED', 'MESSAGE_UPDATED', 'MESSAGE_SWIPED', 'MESSAGE_DELETED', 'CHAT_CHANGED', 'MORE_MESSAGES_LOADED', 'MESSAGE_EDITED'] as const;

/** Calls `listener` (at most once a microtask) whenever the open chat's messages may have changed. */
export function onChatMessagesChanged(listener: () => void): void {
    const { eventSource, eventTypes } = stContext();
    let queued = false;
    const notify = () => {
        if (queued) return;
        queued = true;
        queueMicrotask(() => {
            queued = false;
            listener();
        });
    };
    for (const name of MESSAGE_EVENTS) {
        const type = eventTypes[name];
        if (type) eventSource.on(type, notify);
    }
}
