import type { JournalEvent } from '../../contract/events';

type Listener = (events: JournalEvent[]) => void;

const listeners = new Map<string, Set<Listener>>();

/**
 * The page's fan-out of a run's live journal events (as the worker pushes them, in order), for the public
 * API's subscribers. The panel keeps its own feed; this one only serves scripts.
 */
export function onRunEvents(runId: string, listener: Listener): () => void {
    let set = listeners.get(runId);
    if (!set) listeners.set(runId, (set = new Set()));
    set.add(listener);
    return () => {
        set.delete(listener);
        if (set.size === 0 && listeners.get(runId) === set) listeners.delete(runId);
    };
}

export function publishRunEvents(events: readonly JournalEvent[]): void {
    const byRun = new Map<string, JournalEvent[]>();
    for (const event of events) {
        const list = byRun.get(event.runId) ?? [];
        list.push(event);
        byRun.set(event.runId, list);
    }
    for (const [runId, list] of byRun) {
        for (const listener of [...(listeners.get(runId) ?? [])]) {
            try {
                listener(list);
            } catch {
                // A script's listener must never break the run or the other listeners.
            }
        }
    }
}
