import type { RunRecord, RunState } from '../../contract/records';
import type { RunStorage } from '../../store/run-storage';
import { Journal } from '../journal/journal';

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
    /** The page saw the worker running it die: its lease is stale whatever it says. */
    ignoreLeases = false,
): Promise<number> {
    const runs = await storage.listAllRuns();
    let count = 0;
    for (const run of runs) {
        if (ENDED.has(run.state) || isAlive(run.runId) || (!ignoreLeases && leaseHeld(run, now()))) continue;
        try {
            const events = await storage.listEvents(run.runId);
            const journal = new Journal(run.runId, storage, () => undefined, now, (events.at(-1)?.seq ?? -1) + 1);
            const { lease: _lease, ...rest } = run;
            await storage.putRun({ ...rest, state: 'interrupted', error: { code: 'run.interrupted', message: 'The page was reloaded or closed while this run was working.' }, updatedAt: now() });
            await journal.append('run-fail', { code: 'run.interrupted', message: 'The page was reloaded or closed while this run was working.', detail: null });
            await journal.append('run-state', { from: run.state, to: 'interrupted' });
            count += 1;
        } catch {
            // Another tab marked it at the same moment (its events took these numbers): it is interrupted either way.
        }
    }
    return count;
}

/** How long a run's lease lasts without renewal, and how often the working tab renews it. */
export const LEASE_TTL_MS = 15_000;
export const LEASE_RENEW_MS = 5_000;

/** A run whose lease some tab renewed recently is alive there, Web Locks or not. */
export function leaseHeld(run: RunRecord, now: number): boolean {
    return run.lease !== undefined && run.lease.until > now;
}

/** A run that is not over, and that no tab is working on (no lock held, no fresh lease). */
export function isCutOff(run: RunRecord, lockedIds: ReadonlySet<string>, now: number): boolean {
    return !ENDED.has(run.state) && !lockedIds.has(run.runId) && !leaseHeld(run, now);
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

/** The Web Lock a tab holds while it runs an agent on a chat: one writer per chat. */
export function chatLockName(chatKey: string): string {
    return `tavern-agent-chat:${chatKey}`;
}

/**
 * Runs `work` as the chat's only writer, or returns `busy()` at once when another tab (or this one) is
 * writing there. With Web Locks the chat's lock decides; without them (plain HTTP), a run of the chat that
 * is not over and whose lease is fresh does.
 */
export async function withChatWriter<T>(
    chatKey: string,
    othersAlive: () => Promise<boolean>,
    work: () => Promise<T>,
    busy: () => T,
): Promise<T> {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    if (locks) {
        return (await locks.request(chatLockName(chatKey), { ifAvailable: true }, async (lock) => (lock ? work() : busy()))) as T;
    }
    if (await othersAlive()) return busy();
    return work();
}
