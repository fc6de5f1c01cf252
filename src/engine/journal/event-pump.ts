import type { JournalEvent } from '../../contract/events';

/**
 * Forwards journal events to the main thread in order, one message per burst: events appended in the same
 * task travel together, so a fast run costs one postMessage per burst instead of one per event.
 */
export function createEventPump(deliver: (events: JournalEvent[]) => void): (event: JournalEvent) => void {
    let pending: JournalEvent[] = [];
    let scheduled = false;
    return (event) => {
        pending.push(event);
        if (scheduled) return;
        scheduled = true;
        queueMicrotask(() => {
            const batch = pending;
            pending = [];
            scheduled = false;
            try {
                deliver(batch);
            } catch {
                // The panel is a viewer: a failed delivery must never stop the run; it can replay from storage.
            }
        });
    };
}
