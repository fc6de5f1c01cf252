import { liveChannelName, type LiveMessage } from '../../contract/live';
import type { JournalEvent } from '../../contract/events';
import type { RunOutcome } from '../../contract/run-input';

export interface LiveChannel {
    publish(chatKey: string, events: JournalEvent[]): void;
    ended(chatKey: string, outcome: RunOutcome): void;
    close(): void;
}

/** The engine's side of the live view other tabs get; silent where BroadcastChannel is missing. */
export function createLiveChannel(userHandle: string): LiveChannel {
    const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(liveChannelName(userHandle)) : null;
    const post = (message: LiveMessage) => {
        try {
            channel?.postMessage(message);
        } catch {
            // A viewer missing an update re-reads the run from storage; the run never waits on it.
        }
    };
    return {
        publish: (chatKey, events) => post({ kind: 'events', chatKey, events }),
        ended: (chatKey, outcome) => post({ kind: 'end', chatKey, outcome }),
        close: () => channel?.close(),
    };
}
