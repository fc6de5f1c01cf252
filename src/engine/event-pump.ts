import type { JournalEvent } from '../contract/records';
import type { JournalUpdate } from '../contract/wire';
import type { JournalSink } from './journal';

/**
 * Forwards a journal to the main thread in order, one message per burst: what happened in the same task
 * (events appended, writes committed, a retraction) travels together, so a fast run costs one postMessage
 * per burst instead of one per event. Events cross once, when appended; a commit adds only its number.
 * `onStored` gets each burst's newly stored events, for viewers that show only what is stored (other tabs).
 */
export function createEventPump(deliver: (update: JournalUpdate) => void, onStored: (events: JournalEvent[]) => void = () => undefined): JournalSink {
    let update: JournalUpdate | null = null;
    let stored: JournalEvent[] = [];
    const send = () => {
        const next = update;
        const committed = stored;
        update = null;
        stored = [];
        try {
            if (next) deliver(next);
            if (committed.length) onStored(committed);
        } catch {
            // The panel is a viewer: a failed delivery must never stop the run; it can replay from storage.
        }
    };
    const pending = (): JournalUpdate => {
        if (update === null && stored.length === 0) queueMicrotask(send);
        update ??= { events: [] };
        return update;
    };
    return {
        appended(event) {
            pending().events.push(event);
        },
        stored(event) {
            pending().storedThrough = event.seq;
            stored.push(event);
        },
        retracted(fromSeq) {
            // A retraction applies before its update's events: what is already waiting goes first, alone.
            if (update && (update.events.length > 0 || update.retractFrom !== undefined)) send();
            stored = stored.filter((event) => event.seq < fromSeq);
            pending().retractFrom = fromSeq;
        },
    };
}
