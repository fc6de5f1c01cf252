import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JournalEvent } from '../../src/contract/events';
import { createLiveFeed } from '../../src/ui/live-feed';
import { provideServices, type PanelServices } from '../../src/ui/services';
import { viewedRun, viewRevision } from '../../src/ui/timeline/run-store';

// The run's end refreshes the history: no chat open, no stored runs.
provideServices({ chat: { open: () => null }, engine: async () => ({ listRuns: async () => ({ ok: true, value: [] }) }) } as unknown as PanelServices);

/** A hand-driven requestAnimationFrame: `frame()` runs the callbacks of one frame. */
function fakeFrames() {
    let callbacks = new Map<number, FrameRequestCallback>();
    let next = 1;
    const g = globalThis as unknown as { requestAnimationFrame: unknown; cancelAnimationFrame: unknown };
    g.requestAnimationFrame = (callback: FrameRequestCallback) => {
        callbacks.set(next, callback);
        return next++;
    };
    g.cancelAnimationFrame = (id: number) => callbacks.delete(id);
    return {
        frame() {
            const due = callbacks;
            callbacks = new Map();
            for (const callback of due.values()) callback(0);
        },
    };
}

const note = (seq: number): JournalEvent => ({ v: 1, runId: 'r1', seq, at: 1000 + seq, type: 'run-finish', payload: { reason: `step ${seq}` } });
const shownEvents = () => viewedRun.value?.model.summary.events ?? -1;

test('the first batch after a quiet frame shows at once; batches before the next frame wait for it, together', () => {
    const frames = fakeFrames();
    const feed = createLiveFeed(() => undefined);
    feed.onRunStart('r1', 'normal');
    assert.equal(shownEvents(), 0);

    const before = viewRevision.value;
    feed.onEvents([note(0)]);
    assert.equal(shownEvents(), 1, 'applied in the task it arrived in, no frame waited for');
    assert.equal(viewRevision.value, before + 1);

    feed.onEvents([note(1)]);
    feed.onEvents([note(2), note(3)]);
    assert.equal(shownEvents(), 1, 'later batches wait for the frame');
    frames.frame();
    assert.equal(shownEvents(), 4, 'and are applied together at it');
    assert.equal(viewRevision.value, before + 2, 'one render for both');

    frames.frame(); // a frame with nothing new: the feed is quiet again
    feed.onEvents([note(4)]);
    assert.equal(shownEvents(), 5, 'after a quiet frame a batch shows at once again');

    feed.onEvents([note(5)]);
    feed.onRunEnd({ runId: 'r1', state: 'completed', messageId: null, error: null } as Parameters<typeof feed.onRunEnd>[0]);
    assert.equal(shownEvents(), 6, 'the run end applies what still waited');
    assert.deepEqual(
        viewedRun.value?.model.rows.map((row) => row.key),
        ['e0', 'e1', 'e2', 'e3', 'e4', 'e5'],
        'every event once, in order',
    );
});
