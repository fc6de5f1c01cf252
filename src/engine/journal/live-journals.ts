import type { Journal } from './journal';

/**
 * The journals of the runs going on in this worker, by run id. An event added from outside the run (a lore
 * decision made in the panel while the run works) must go through the run's own journal, or two writers
 * would hand out the same sequence numbers.
 */
const live = new Map<string, Journal>();

export function registerLiveJournal(journal: Journal): void {
    live.set(journal.runId, journal);
}

export function unregisterLiveJournal(journal: Journal): void {
    if (live.get(journal.runId) === journal) live.delete(journal.runId);
}

export function liveJournal(runId: string): Journal | undefined {
    return live.get(runId);
}
