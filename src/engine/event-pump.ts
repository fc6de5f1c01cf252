import type { JournalEvent } from '../contract/records';
import type { JournalUpdate } from '../contract/wire';
import type { JournalSink } from './journal';

/**
 * Forwards a journal to the main thread in order, one message per burst: what happened in the same task
 * (events appended, writes committed, a retraction) travels together, so a fast run costs one postMessage
 * per burst instead of one per event. Events cross once, when appended. A commit adds only its number, and
 * one that comes alone waits a task for the next events to ride with (a run's rounds each commit while the
 * model is asked, so most do): the page's run controller takes a run's end as the end of its writes.
 * `onStored` gets each burst's newly stored events at once, for viewers that show only what is stored
 * (other tabs).
 */
export function createEventPump(deliver: (update: JournalUpdate) => void, onStored: (events: JournalEvent[]) => void = () => undefined): JournalSink {
    let update: JournalUpdate | null = null;
    /** Whether `update` holds something the page must see now (events or a retraction), not only a number. */
    let urgent = false;
    let stored: JournalEvent[] = [];
    let microtask = false;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const guard = (send: () => void) => {
        try {
            send();
        } catch {
            // The panel is a viewer: a failed delivery must never stop the run; it can replay from storage.
        }
    };
    const sendUpdate = () => {
        if (timer !== null) {
            clearTimeout(timer);
            timer = null;
        }
        const next = update;
        update = null;
        urgent = false;
        if (next) guard(() => deliver(next));
    };
    const flush = () => {
        microtask = false;
        const committed = stored;
        stored = [];
        if (committed.length) guard(() => onStored(committed));
        if (urgent) sendUpdate();
        else if (update && timer === null) timer = setTimeout(sendUpdate, 0);
    };
    const pending = (now: boolean): JournalUpdate => {
        if (!microtask) {
            microtask = true;
            queueMicrotask(flush);
        }
        if (now) urgent = true;
        update ??= { events: [] };
        return update;
    };
    return {
        appended(event) {
            pending(true).events.push(event);
        },
        stored(event) {
            pending(false).storedThrough = event.seq;
            stored.push(event);
        },
        retracted(fromSeq) {
            // A retraction applies before its update's events: what is already waiting goes first, alone.
            if (update && (update.events.length > 0 || update.retractFrom !== undefined)) sendUpdate();
            stored = stored.filter((event) => event.seq < fromSeq);
            pending(true).retractFrom = fromSeq;
        },
    };
}
