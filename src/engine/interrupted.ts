import type { RunState } from '../contract/records';
import type { RunStorage } from '../store/run-storage';
import { Journal } from './journal';

const ENDED: ReadonlySet<RunState> = new Set(['completed', 'failed', 'cancelled', 'interrupted']);

/**
 * A run still marked as going when the engine opens was cut off by a page reload or a closed tab (a run
 * lives in this page's worker). It becomes `interrupted`, journaled, so the timeline never shows it as
 * running forever; like a failed run it never commits again and never promotes persist/.
 */
export async function markInterruptedRuns(
    storage: RunStorage,
    isAlive: (runId: string) => boolean = () => false,
    now: () => number = Date.now,
): Promise<number> {
    const runs = await storage.listAllRuns();
    let count = 0;
    for (const run of runs) {
        if (ENDED.has(run.state) || isAlive(run.runId)) continue;
        // One run that cannot be marked (storage full, a bad record) must not keep the engine from opening:
        // history and delete stay reachable, and the next start tries again.
        try {
            const events = await storage.listEvents(run.runId);
            const journal = new Journal(run.runId, storage, () => undefined, now, (events.at(-1)?.seq ?? -1) + 1);
            await storage.putRun({ ...run, state: 'interrupted', error: { code: 'run.interrupted', message: 'The page was reloaded or closed while this run was working.' }, updatedAt: now() });
            await journal.append('run-fail', { code: 'run.interrupted', message: 'The page was reloaded or closed while this run was working.', detail: null });
            await journal.append('run-state', { from: run.state, to: 'interrupted' });
            count += 1;
        } catch {
            // Left as stored.
        }
    }
    return count;
}

/** The Web Lock a run holds while it works, so another tab's engine can tell a live run from a cut-off one. */
export function runLockName(runId: string): string {
    return `tavern-agent-run:${runId}`;
}

/** Run ids whose lock some tab holds right now (none where Web Locks are unavailable). */
export async function liveRunIds(): Promise<Set<string>> {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    if (!locks) return new Set();
    const { held = [] } = await locks.query();
    const prefix = runLockName('');
    return new Set(held.flatMap((lock) => (lock.name?.startsWith(prefix) ? [lock.name.slice(prefix.length)] : [])));
}

/** Runs `work` while holding the run's lock (or plainly, where Web Locks are unavailable). */
export function withRunLock<T>(runId: string, work: () => Promise<T>): Promise<T> {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    return locks ? (locks.request(runLockName(runId), work) as Promise<T>) : work();
}
