import type { JournalEvent } from '../contract/records';
import type { RunObserver } from '../contract/run-observer';
import { appendLive, endLive, startLive } from './timeline/run-store';
import { clearModelDeltas, settleModelDeltas, showModelDelta } from './timeline/streaming-turn';

/**
 * Feeds the timeline from the run's pushed events (no polling). Events arriving within one frame are
 * applied together, so a burst renders once per frame; each event costs the same however long the run is.
 */
export function createLiveFeed(onChange: () => void): RunObserver {
    let pending: JournalEvent[] = [];
    let frame = 0;
    const flush = () => {
        frame = 0;
        const events = pending;
        pending = [];
        appendLive(events);
    };
    return {
        onRunStart(runId, generationType) {
            if (frame) cancelAnimationFrame(frame);
            frame = 0;
            pending = [];
            clearModelDeltas();
            startLive(runId, generationType, Date.now());
            onChange();
        },
        onEvents(events) {
            settleModelDeltas(events);
            pending.push(...events);
            if (!frame) frame = requestAnimationFrame(flush);
        },
        onModelDelta(delta) {
            showModelDelta(delta);
        },
        onRunEnd(outcome) {
            clearModelDeltas();
            if (frame) cancelAnimationFrame(frame);
            flush();
            endLive(outcome);
            onChange();
        },
    };
}
