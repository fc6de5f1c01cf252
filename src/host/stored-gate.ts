import type { JournalEvent } from '../contract/records';
import type { JournalUpdate } from '../contract/wire';

/**
 * The page's hold on a run's unstored tail. The worker sends each event the moment it is appended (the
 * timeline shows it at once), but scripts (TavernAgent.subscribe) and the run's state get only stored
 * events, each once and in order: this returns, per update, the events its write confirmed.
 */
export function createStoredGate(): (update: JournalUpdate) => JournalEvent[] {
    let unstored: JournalEvent[] = [];
    return (update) => {
        const cut = update.retractFrom;
        if (cut !== undefined) unstored = unstored.filter((event) => event.seq < cut);
        unstored.push(...update.events);
        const through = update.storedThrough;
        if (through === undefined || unstored.length === 0) return [];
        const split = unstored.findIndex((event) => event.seq > through);
        const stored = split < 0 ? unstored : unstored.slice(0, split);
        unstored = split < 0 ? [] : unstored.slice(split);
        return stored;
    };
}
