import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../../src/contract/records';
import { provideServices, type PanelServices } from '../../src/ui/services';
import { openRun, show, viewedRun, viewError } from '../../src/ui/timeline/run-store';

/** A worker whose stored runs answer only when the test releases them, each on its own. */
function heldRuns() {
    const gates = new Map<string, () => void>();
    const waiting = new Map<string, Promise<void>>();
    const gate = (runId: string) => {
        let open = () => undefined as void;
        waiting.set(runId, new Promise<void>((resolve) => (open = resolve)));
        gates.set(runId, open);
    };
    const record = (runId: string): RunRecord => ({ v: 1, runId, chatKey: `chat-of-${runId}`, chatId: 'c', profileId: 'writer', generationType: 'normal', state: 'completed', messageId: null, error: null, createdAt: 1, updatedAt: 2 });
    const engine = {
        async getRun(runId: string) {
            await waiting.get(runId);
            return runId.startsWith('missing') ? { ok: false, error: { code: 'run.not_found', message: `no run ${runId}` } } : { ok: true, value: record(runId) };
        },
        async readEvents() {
            return { ok: true, value: [] };
        },
    };
    provideServices({ engine: async () => engine, chat: { open: () => null } } as unknown as PanelServices);
    return { gate, release: (runId: string) => gates.get(runId)?.() };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test('a run clicked first but loaded last does not replace the run clicked after it', async () => {
    const runs = heldRuns();
    runs.gate('slow');
    runs.gate('quick');
    const first = openRun('slow');
    const second = openRun('quick');
    runs.release('quick');
    await second;
    assert.equal(viewedRun.value?.model.runId, 'quick');
    runs.release('slow');
    await first;
    assert.equal(viewedRun.value?.model.runId, 'quick', 'the older load is dropped');
});

test('a load that lands after something else was shown (a live run, another chat) is dropped, its error too', async () => {
    const runs = heldRuns();
    runs.gate('from-chat-a');
    runs.gate('missing-a');
    const loading = openRun('from-chat-a');
    const failing = openRun('missing-a');
    show(null); // the new chat has no run: the view is emptied after both were asked
    runs.release('from-chat-a');
    runs.release('missing-a');
    await Promise.all([loading, failing]);
    await settle();
    assert.equal(viewedRun.value, null, "chat A's run does not appear in chat B");
    assert.equal(viewError.value, null, "nor chat A's error");
});

test('the one load asked shows its run, or its error', async () => {
    const runs = heldRuns();
    runs.gate('only');
    const loading = openRun('only');
    runs.release('only');
    await loading;
    assert.equal(viewedRun.value?.model.runId, 'only');
    assert.equal(viewedRun.value?.source, 'stored');
    runs.gate('missing-b');
    const failing = openRun('missing-b');
    runs.release('missing-b');
    await failing;
    assert.match(viewError.value ?? '', /no run missing-b/);
});
