import type { BackgroundRunInfo } from '../../contract/background-run';
import type { RunOutcome } from '../../contract/run-input';
import type { RunObserver } from '../../contract/run-observer';
import { getEngine } from '../worker/worker-client';
import { driveIn, type RunToDrive } from './drive-run';

/**
 * The runs this tab drives in the background (issue 34: keepers after a reply). Beside the one active run,
 * never in its place: the user's next Send starts at once. They hold no generating state, SillyTavern's Stop
 * leaves them alone, and the panel stops each by its id. Their events go to the observers the panel adds
 * (never the live feed of the active run, which shows one run) and, as every run's, to API subscribers.
 */
const running = new Map<string, { info: BackgroundRunInfo; controller: AbortController; run: RunToDrive }>();
const listeners = new Set<() => void>();
const observers = new Set<RunObserver>();

function changed(): void {
    for (const listener of [...listeners]) listener();
}

/** The background runs going on in this tab, oldest first. */
export function backgroundRuns(): BackgroundRunInfo[] {
    return [...running.values()].map(({ info }) => ({ ...info }));
}

/** Called when a background run starts, changes state or ends. Returns the unsubscribe function. */
export function onBackgroundRunsChange(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
}

/** Adds an observer of every background run's start, events, model deltas and end. Returns its removal. */
export function observeBackgroundRuns(observer: RunObserver): () => void {
    observers.add(observer);
    return () => observers.delete(observer);
}

/** Every observer, each shielded from the others' failures. */
const fanOut: RunObserver = {
    onRunStart: (runId, type) => each((observer) => observer.onRunStart(runId, type)),
    onEvents: (events) => each((observer) => observer.onEvents(events)),
    onRunEnd: (outcome) => each((observer) => observer.onRunEnd(outcome)),
    onModelDelta: (delta) => each((observer) => observer.onModelDelta?.(delta)),
};

function each(call: (observer: RunObserver) => void): void {
    for (const observer of [...observers]) {
        try {
            call(observer);
        } catch {
            // A panel view failing must not stop the run, nor the other views.
        }
    }
}

/** Stops a background run: its model call is aborted, and it writes nothing afterwards. False when it is not one. */
export async function stopBackgroundRun(runId: string, reason: string): Promise<boolean> {
    const entry = running.get(runId);
    if (!entry) return false;
    entry.run.target.closed = true;
    entry.controller.abort(reason);
    await (await getEngine()).cancelRun(runId, reason);
    return true;
}

/** Drives a run in the background, through the same launch path as every run. The outcome never rejects. */
export function driveBackgroundRun(run: RunToDrive, info: Omit<BackgroundRunInfo, 'state' | 'startedAt'>): Promise<RunOutcome> {
    const controller = new AbortController();
    const entry = { info: { ...info, state: run.state, startedAt: Date.now() }, controller, run };
    running.set(run.runId, entry);
    changed();
    return driveIn(run, controller, fanOut, {
        stoppedBySillyTavern: false,
        onState(to) {
            entry.info.state = to;
            changed();
        },
        release() {
            running.delete(run.runId);
            changed();
        },
    });
}
