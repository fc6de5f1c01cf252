import type { JournalEvent } from '../contract/events';
import type { RunObserver } from '../contract/run-observer';
import { appendLive, endLive, startLive } from './timeline/run-store';
import { clearModelDeltas, settleModelDeltas, showModelDelta } from './timeline/streaming-turn';

/**
 * Feeds the timeline from the run's pushed events (no polling). The first batch after a quiet frame is
 * applied (and rendered) in the task it arrives in, so it is painted in the very next frame with its render
 * already done; batches arriving after it, before that frame, are applied together at the frame. A burst
 * therefore renders at most twice per frame; each event costs the same however long the run is. Several
 * runs may feed it at once (a keeper after a reply beside the next turn's run): each event goes to its run.
 */
export function createLiveFeed(onChange: () => void): RunObserver {
    let pending: JournalEvent[] = [];
    let frame = 0;
    const flush = () => {
        const events = pending;
        pending = [];
        appendLive(events);
    };
    // At each frame: apply what waited for it, and keep coalescing until a frame passes with nothing new.
    const onFrame = () => {
        frame = 0;
        if (pending.length === 0) return;
        flush();
        frame = requestAnimationFrame(onFrame);
    };
    return {
        onRunStart(runId, generationType) {
            // Another run's events still waiting (a keeper beside this run) are theirs: applied, not dropped.
            if (frame) cancelAnimationFrame(frame);
            frame = 0;
            flush();
            clearModelDeltas(runId);
            // The host's status first: whether this is the chat's own run decides if it takes the view.
            onChange();
            startLive(runId, generationType, Date.now());
        },
        onEvents(events) {
            settleModelDeltas(events);
            pending.push(...events);
            if (frame) return;
            flush();
            frame = requestAnimationFrame(onFrame);
        },
        onModelDelta(delta) {
            showModelDelta(delta);
        },
        onRunEnd(outcome) {
            clearModelDeltas(outcome.runId);
            if (frame) cancelAnimationFrame(frame);
            frame = 0;
            flush();
            endLive(outcome);
            onChange();
        },
    };
}
