import type { RunObserver } from '../../contract/run-observer';

/** The panel's live feed, which a run started from a command, a button or the API reports to as well. */
let defaultObserver: RunObserver | null = null;

/** Set once, when the generate takeover is created (pipeline/turn-takeover.ts). */
export function setDefaultRunObserver(observer: RunObserver): void {
    defaultObserver = observer;
}

/** The panel's live feed (set once the takeover is created): commands and buttons report their runs to it. */
export function defaultRunObserver(): RunObserver | null {
    return defaultObserver;
}
