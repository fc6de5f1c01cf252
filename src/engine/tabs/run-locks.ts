import { runLockName, webLocks } from './protocol';

/** Run ids whose lock some tab holds right now (none where Web Locks are unavailable). */
export async function liveRunIds(): Promise<Set<string>> {
    const locks = webLocks();
    if (!locks) return new Set();
    const { held = [] } = await locks.query();
    const prefix = runLockName('');
    return new Set(held.flatMap((lock) => (lock.name?.startsWith(prefix) ? [lock.name.slice(prefix.length)] : [])));
}

/** Runs `work` while holding the run's lock (or plainly, where Web Locks are unavailable). */
export function withRunLock<T>(runId: string, work: () => Promise<T>): Promise<T> {
    const locks = webLocks();
    return locks ? (locks.request(runLockName(runId), work) as Promise<T>) : work();
}
