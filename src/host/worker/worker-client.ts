import { wrap, type Remote } from 'comlink';
import type { EngineApi } from '../../contract/wire';
import { t } from '../../i18n/t';
import { currentUserHandle } from '../sillytavern/st-context';
import { distFile } from './dist-files';
import { requestPersistentStorage, retentionSettings } from '../settings/storage-settings';

let engine: Promise<Remote<EngineApi>> | null = null;

/** How often the page checks that the worker answers, and how long an answer may take before it counts as dead. */
const HEARTBEAT_MS = 5_000;
const HEARTBEAT_DEADLINE_MS = 30_000;

/** Resolves with why, when the worker serving the page now dies; replaced by a fresh one for the next worker. */
let crash = newCrashSignal();
const crashListeners = new Set<(reason: string) => void>();

function newCrashSignal(): { promise: Promise<string>; resolve: (reason: string) => void } {
    let resolve: (reason: string) => void = () => undefined;
    const promise = new Promise<string>((done) => (resolve = done));
    return { promise, resolve };
}

/**
 * The worker (and with it zod's parsers, idb and the engine) loads on first need: the first run or the
 * first time the panel opens, never at page load. The database opened is the current user's.
 */
export function getEngine(): Promise<Remote<EngineApi>> {
    engine ??= startEngine().catch((error: unknown) => {
        engine = null;
        throw error;
    });
    return engine;
}

/** Whether the worker has been started (status checks never start it just to look). */
export function engineStarted(): boolean {
    return engine !== null;
}

/** Resolves (with the reason) if the current worker dies: a run racing it learns it will never end. */
export function engineCrashed(): Promise<string> {
    return crash.promise;
}

/** Told each time the worker dies (an uncaught error in it, or it stopped answering). */
export function onEngineCrash(listener: (reason: string) => void): () => void {
    crashListeners.add(listener);
    return () => crashListeners.delete(listener);
}

async function startEngine(): Promise<Remote<EngineApi>> {
    const worker = new Worker(distFile('worker.js'), { type: 'module', name: 'tavern-agent' });
    const remote = wrap<EngineApi>(worker);
    const signal = crash;
    let dead = false;
    let heartbeat: ReturnType<typeof setInterval> | null = null;
    const die = (reason: string) => {
        if (dead) return;
        dead = true;
        if (heartbeat) clearInterval(heartbeat);
        // Terminating releases its Web Locks, so its run shows as cut off; the next call starts a new worker.
        worker.terminate();
        engine = null;
        crash = newCrashSignal();
        signal.resolve(reason);
        for (const listener of crashListeners) listener(reason);
    };
    worker.addEventListener('error', (event) => die(`${t`The agent's worker failed:`} ${event.message || t`unknown error`}`));
    // A worker that cannot load (its file missing, a syntax error) never answers `open`: its error event
    // ends the wait with the reason instead, so the caller fails with it rather than hanging.
    const failed = signal.promise.then((reason) => Promise.reject(new Error(reason)));
    const opened = await Promise.race([remote.open(await currentUserHandle()), failed]);
    if (!opened.ok) {
        dead = true;
        worker.terminate();
        throw new Error(`${opened.error.message} (${opened.error.code}: ${opened.error.detail ?? ''})`);
    }
    let waitingSince: number | null = null;
    heartbeat = setInterval(() => {
        if (waitingSince !== null) {
            if (Date.now() - waitingSince > HEARTBEAT_DEADLINE_MS) die(t`The agent's worker stopped answering.`);
            return;
        }
        waitingSince = Date.now();
        remote.health().then(
            () => (waitingSince = null),
            () => undefined,
        );
    }, HEARTBEAT_MS);
    void remote.setRetention(retentionSettings());
    void requestPersistentStorage();
    return remote;
}
