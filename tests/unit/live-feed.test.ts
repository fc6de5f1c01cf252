import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { JournalEvent } from '../../src/contract/events';
import { createLiveFeed } from '../../src/ui/live-feed';
import { provideServices, type PanelServices } from '../../src/ui/services';
import { goingRuns, liveProgress, viewedRun, viewRevision } from '../../src/ui/timeline/run-store';
import { chatStatus } from '../../src/ui/state';

// The run's end refreshes the history: no chat open, no stored runs.
provideServices({ chat: { open: () => null }, engine: async () => ({ listRuns: async () => ({ ok: true, value: [] }), getRun: async () => ({ ok: false, error: { code: 'run.not_found', message: '' } }) }) } as unknown as PanelServices);

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

/** The host's run of the chat, as src/index.ts mirrors it into chatStatus when the feed says something changed. */
let hostRun: string | null = null;
const refreshChatStatus = () => (chatStatus.value = { ...chatStatus.value, run: hostRun ? { runId: hostRun, state: 'running' } : null });

const note = (seq: number, runId = 'r1'): JournalEvent => ({ v: 1, runId, seq, at: 1000 + seq, type: 'run-finish', payload: { reason: `step ${seq}` } });
const shownEvents = () => viewedRun.value?.model.summary.events ?? -1;

test('the first batch after a quiet frame shows at once; batches before the next frame wait for it, together', () => {
    const frames = fakeFrames();
    const feed = createLiveFeed(refreshChatStatus);
    hostRun = 'r1';
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
    hostRun = null;
    feed.onRunEnd({ runId: 'r1', state: 'completed', messageId: null, error: null } as Parameters<typeof feed.onRunEnd>[0]);
    assert.equal(shownEvents(), 6, 'the run end applies what still waited');
    assert.deepEqual(
        viewedRun.value?.model.rows.map((row) => row.key),
        ['e0', 'e1', 'e2', 'e3', 'e4', 'e5'],
        'every event once, in order',
    );
});

const end = (runId: string) => ({ runId, state: 'completed', messageId: null, error: null }) as Parameters<ReturnType<typeof createLiveFeed>['onRunEnd']>[0];
const rowsOf = (runId: string) => (viewedRun.value?.model.runId === runId ? viewedRun.value.model.rows.map((row) => row.key) : null);

test("a keeper running beside the chat's run (issue 34) gets its own events, never takes the view from it, and ends on its own", () => {
    const frames = fakeFrames();
    const feed = createLiveFeed(refreshChatStatus);
    hostRun = 'reply';
    feed.onRunStart('reply', 'normal');
    feed.onEvents([note(0, 'reply')]);
    frames.frame();
    frames.frame();

    // The keeper is not the host's run of the chat: it runs in the background.
    feed.onRunStart('keeper', 'normal');
    assert.equal(viewedRun.value?.model.runId, 'reply', 'the chat\'s run stays in view');
    assert.deepEqual([...goingRuns.value].sort(), ['keeper', 'reply']);

    feed.onEvents([note(1, 'reply'), note(0, 'keeper'), note(2, 'reply'), note(1, 'keeper')]);
    frames.frame();
    assert.deepEqual(rowsOf('reply'), ['e0', 'e1', 'e2'], "the keeper's events are not the chat run's");
    assert.equal(liveProgress.value?.runId, 'reply', 'the Send badge follows the chat\'s run only');

    feed.onRunEnd(end('keeper'));
    assert.deepEqual([...goingRuns.value], ['reply']);
    assert.equal(liveProgress.value?.runId, 'reply', "a keeper's end leaves the chat run's progress be");
    assert.equal(viewedRun.value?.model.runId, 'reply');

    hostRun = null;
    feed.onRunEnd(end('reply'));
    assert.equal(goingRuns.value.size, 0);

    // Nothing going in view: a keeper after the next reply is shown as it starts.
    feed.onRunStart('keeper-2', 'normal');
    assert.equal(viewedRun.value?.model.runId, 'keeper-2');
    hostRun = 'next';
    feed.onRunStart('next', 'normal');
    assert.equal(viewedRun.value?.model.runId, 'next', "the next turn's run takes the view from a keeper");
    feed.onEvents([note(0, 'keeper-2'), note(0, 'next')]);
    frames.frame();
    assert.deepEqual(rowsOf('next'), ['e0']);
    hostRun = null;
    feed.onRunEnd(end('next'));
    feed.onRunEnd(end('keeper-2'));
    assert.equal(goingRuns.value.size, 0);
});
