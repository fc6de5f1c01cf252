import type { JournalEvent } from '../contract/records';
import type { RunObserver } from '../host/run-controller';
import { liveRun } from './state';

/**
 * Feeds the panel from the run's pushed events. Events arriving within one frame are applied together, so
 * a burst re-renders once per frame, not once per event.
 */
export function createLiveFeed(onChange: () => void): RunObserver {
    let pending: JournalEvent[] = [];
    let frame = 0;
    const flush = () => {
        frame = 0;
        const run = liveRun.value;
        if (!run || pending.length === 0) return;
        const events = pending.filter((event) => event.runId === run.runId);
        pending = [];
        const lastState = [...events].reverse().find((event) => event.type === 'run-state');
        liveRun.value = {
            ...run,
            events: run.events.concat(events),
            state: lastState ? String((lastState.payload as { to: string }).to) : run.state,
        };
    };
    return {
        onRunStart(runId, generationType) {
            pending = [];
            liveRun.value = { runId, generationType, state: 'preparing', startedAt: Date.now(), events: [], error: null };
            onChange();
        },
        onEvents(events) {
            pending.push(...events);
            if (!frame) frame = requestAnimationFrame(flush);
        },
        onRunEnd(outcome) {
            if (frame) cancelAnimationFrame(frame);
            flush();
            const run = liveRun.value;
            if (run && run.runId === outcome.runId) liveRun.value = { ...run, state: outcome.state, error: outcome.error };
            onChange();
        },
    };
}
