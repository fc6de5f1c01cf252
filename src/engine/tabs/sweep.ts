import { isEndedState, type RunRecord } from '../../contract/records';
import type { RunStorage } from '../../store/run-storage';
import { Journal } from '../journal/journal';
import { leaseHeld } from './leases';
import { webLocks } from './protocol';
import { liveRunIds } from './run-locks';
import { IMPORTED_CHAT_KEY } from '../../contract/archive';

const INTERRUPTED_MESSAGE = 'The page was reloaded or closed while this run was working.';

/**
 * A run still marked as going when the engine opens was cut off by a page reload or a closed tab (a run
 * lives in this page's worker). It becomes `interrupted`, journaled, so the timeline never shows it as
 * running forever; like a failed run it never commits again and never promotes persist/.
 */
export async function markInterruptedRuns(
    storage: RunStorage,
    isAlive: (runId: string) => boolean = () => false,
    now: () => number = Date.now,
    /** The page saw the worker running it die: its lease is stale whatever it says. */
    ignoreLeases = false,
): Promise<number> {
    const runs = await storage.listAllRuns();
    let count = 0;
    // Cut off as read a moment ago, and still so: a tab may have renewed the lease since the list was read.
    const cutOff = (run: RunRecord | undefined): run is RunRecord =>
        // An imported copy is never a run of this browser, whatever state it claims (issue 39 §5).
        run !== undefined && run.chatKey !== IMPORTED_CHAT_KEY && !isEndedState(run.state) && !isAlive(run.runId) && (ignoreLeases || !leaseHeld(run, now()));
    for (const listed of runs) {
        if (!cutOff(listed)) continue;
        try {
            const events = await storage.listEvents(listed.runId);
            const journal = new Journal(listed.runId, storage, () => undefined, now, (events.at(-1)?.seq ?? -1) + 1);
            // Checked and marked in one transaction; its lease goes, so the tab that held it writes nothing more.
            const from = await storage.updateRun(listed.runId, (run) => {
                if (!cutOff(run)) return { value: null };
                const { lease: _lease, ...rest } = run;
                return { value: run.state, put: [{ ...rest, state: 'interrupted', error: { code: 'run.interrupted', message: INTERRUPTED_MESSAGE }, updatedAt: now() }] };
            });
            if (from === null) continue;
            await journal.append('run-fail', { code: 'run.interrupted', message: INTERRUPTED_MESSAGE, detail: null });
            await journal.append('run-state', { from, to: 'interrupted' });
            count += 1;
        } catch {
            // Another tab marked it at the same moment (its events took these numbers): it is interrupted either way.
        }
    }
    return count;
}

/** A run that is not over, and that no tab is working on (no lock held, no fresh lease). */
export function isCutOff(run: RunRecord, lockedIds: ReadonlySet<string>, now: number): boolean {
    return !isEndedState(run.state) && !lockedIds.has(run.runId) && !leaseHeld(run, now);
}

/**
 * The engine's sweep (tabs/protocol.ts §5): marks runs no tab works on any more as interrupted (a reload, a
 * closed tab, a dead worker), one sweep at a time, or two would journal the same run's interruption.
 */
export function createSweeper(storageOf: () => RunStorage | null, workingHere: (runId: string) => boolean): () => Promise<void> {
    let sweeping: Promise<void> | null = null;
    return () => {
        sweeping ??= (async () => {
            const storage = storageOf();
            if (!storage) return;
            const alive = await liveRunIds();
            // Where Web Locks exist their locks are the truth: a lease left by a reloaded page is not.
            await markInterruptedRuns(storage, (runId) => alive.has(runId) || workingHere(runId), Date.now, webLocks() !== null);
        })().finally(() => (sweeping = null));
        return sweeping;
    };
}
