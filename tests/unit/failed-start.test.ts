// A run that fails before it starts is kept as a failed run of its chat (issue 39 §10): its record and journal,
// as the timeline and History read them, written by the engine for the page. Also the page's connection list
// at prepare is checked like any input. Run: node --import tsx --test tests/unit/failed-start.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FailedStart } from '../../src/contract/failed-start';
import { newEngineState } from '../../src/engine/api/engine-state';
import { createRunsApi } from '../../src/engine/api/runs-api';
import { createMemoryRunStorage } from '../../src/store/run-storage';
import { TimelineModel } from '../../src/ui/timeline/timeline-model';

function engine() {
    const state = newEngineState();
    state.storage = createMemoryRunStorage();
    return { state, runs: createRunsApi(state, async () => undefined) };
}

const failed: FailedStart = {
    runId: 'early',
    chatId: 'Seraphina - 2025-1-1',
    chatKey: 'integrity-1',
    profileId: 'writer',
    generationType: 'normal',
    foreground: true,
    error: { code: 'profile.connection_missing', message: 'The connection profile "Gone" used by the agent profile "Writer" no longer exists.' },
};

describe('a run that failed before it started', () => {
    it('is kept as a failed run of its chat: a record with its reason, and a journal the timeline reads', async () => {
        const { runs } = engine();
        const kept = await runs.recordFailedStart(failed);
        assert.ok(kept.ok);
        assert.deepEqual(kept.value.map((event) => event.type), ['run-create', 'run-fail', 'run-state']);
        const listed = await runs.listRuns('integrity-1');
        assert.ok(listed.ok);
        assert.equal(listed.value.length, 1);
        const [record] = listed.value;
        assert.equal(record!.state, 'failed');
        assert.deepEqual(record!.error, failed.error);
        assert.equal(record!.profileId, 'writer');
        assert.equal(record!.chatId, failed.chatId);

        const events = await runs.readEvents('early', 0);
        assert.ok(events.ok);
        const model = new TimelineModel('early');
        model.apply(events.value);
        assert.equal(model.summary.state, 'failed');
        assert.deepEqual(model.summary.error, failed.error, 'the timeline shows why');
    });

    it('never touches a run that has a record already (it got further, and keeps its own end)', async () => {
        const { runs } = engine();
        assert.ok((await runs.recordFailedStart(failed)).ok);
        const again = await runs.recordFailedStart({ ...failed, error: { code: 'run.internal_error', message: 'Later.' } });
        assert.ok(again.ok);
        assert.deepEqual(again.value, []);
        const events = await runs.readEvents('early', 0);
        assert.ok(events.ok && events.value.length === 3);
        const record = await runs.getRun('early');
        assert.ok(record.ok && record.value.error?.code === 'profile.connection_missing');
    });

    it('is not kept while this engine works on the run', async () => {
        const { state, runs } = engine();
        state.running.set('early', { controller: new AbortController(), guidance: undefined as never });
        const kept = await runs.recordFailedStart(failed);
        assert.ok(kept.ok && kept.value.length === 0);
        assert.ok(!(await runs.getRun('early')).ok);
    });

    it('refuses a description that is not one (bounded, typed)', async () => {
        const { runs } = engine();
        for (const bad of [{ ...failed, runId: '' }, { ...failed, generationType: 'quiet' }, { ...failed, error: { code: 'x', message: 'y'.repeat(5000) } }, { runId: 'r' }]) {
            const refused = await runs.recordFailedStart(bad as FailedStart);
            assert.equal(!refused.ok && refused.error.code, 'run.invalid_input', JSON.stringify(bad).slice(0, 80));
        }
        assert.deepEqual((await runs.listRuns('integrity-1')).ok && (await runs.listRuns('integrity-1')), { ok: true, value: [] });
    });
});

describe('the connection profiles the page names at prepare', () => {
    it('are checked: a list that is not one refuses the run', async () => {
        const { runs } = engine();
        const refused = await runs.prepareRun('r1', 'writer', {}, [{ id: 1 }] as never);
        assert.equal(!refused.ok && refused.error.code, 'run.invalid_input');
        const fine = await runs.prepareRun('r2', 'writer', {}, [{ id: 'c', name: 'C', api: 'openai', model: 'm', protocol: 'tool-calls' }]);
        assert.ok(fine.ok);
    });
});
