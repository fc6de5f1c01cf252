// Resume (issue 13 §1): the reliability scenario's reference run, what a resume refuses, and one writer per
// chat. The cut at every event boundary is resume-sweep.test.ts.
// Run: node --import tsx --test tests/unit/resume.test.ts
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { planResume } from '../../src/engine/run/resume-plan';
import { suitesPerStorageKind } from '../fixtures/storage-kinds';
import { referenceRun, RELIABILITY_RUN_ID, SCRIPTED_TOOL_CALLS } from '../fixtures/reliability';

const { describe, newStorage } = suitesPerStorageKind();


describe('resume', () => {
    it('the reference run (no cut) completes with one reply', async () => {
        const ref = await referenceRun(newStorage());
        assert.equal(ref.outcome.state, 'completed', JSON.stringify(ref.outcome.error));
        assert.ok(SCRIPTED_TOOL_CALLS >= 30);
        assert.equal(ref.chat.length, 2);
        assert.equal(ref.chat[1]!.mes, ref.main);
        assert.match(ref.main ?? '', /^Once upon a time w1 w2 .* w12\.$/);
    });

    it('refuses a run that is not interrupted, and one whose inputs are gone', async () => {
        const storage = newStorage();
        await referenceRun(storage);
        const completed = await planResume(storage, RELIABILITY_RUN_ID);
        assert.equal(!completed.ok && completed.error.code, 'run.not_interrupted');
        const run = (await storage.getRun(RELIABILITY_RUN_ID))!;
        await storage.putRun({ ...run, state: 'interrupted' });
        await storage.putFile({ v: 1, runId: RELIABILITY_RUN_ID, path: 'input/run.json', content: '{', version: 0, updatedAt: 0 });
        const gone = await planResume(storage, RELIABILITY_RUN_ID);
        assert.equal(!gone.ok && gone.error.code, 'run.inputs_missing');
        const missing = await planResume(storage, 'no-such-run');
        assert.equal(!missing.ok && missing.error.code, 'run.not_found');
    });
});

describe('one writer per chat', () => {
    it('a run whose lease is fresh (a tab without Web Locks is working on it) is never marked interrupted; a stale one is', async () => {
        const { markInterruptedRuns } = await import('../../src/engine/tabs/sweep');
        const { LEASE_TTL_MS } = await import('../../src/engine/tabs/protocol');
        const storage = newStorage();
        await referenceRun(storage);
        const run = (await storage.getRun(RELIABILITY_RUN_ID))!;
        const events = (await storage.listEvents(RELIABILITY_RUN_ID)).length;
        const now = 1_000_000;
        await storage.putRun({ ...run, state: 'running', lease: { owner: 'engine-other-tab', until: now + LEASE_TTL_MS } });
        assert.equal(await markInterruptedRuns(storage, () => false, () => now), 0);
        assert.equal((await storage.getRun(RELIABILITY_RUN_ID))!.state, 'running');
        assert.equal((await storage.listEvents(RELIABILITY_RUN_ID)).length, events, "no event takes the live run's journal numbers");
        // The lease ran out: that tab is gone.
        assert.equal(await markInterruptedRuns(storage, () => false, () => now + LEASE_TTL_MS + 1), 1);
        const cut = (await storage.getRun(RELIABILITY_RUN_ID))!;
        assert.equal(cut.state, 'interrupted');
        assert.equal(cut.lease, undefined);
    });

    it('a run keeps its lease fresh while it works', async () => {
        const { runAgent } = await import('../../src/engine/run/run-lifecycle');
        const { reliabilityInput } = await import('../fixtures/reliability');
        const storage = newStorage();
        const input = reliabilityInput();
        let working: { owner: string; token?: string; until: number } | undefined;
        const outcome = await runAgent(input, {
            storage,
            host: {
                requestModel: async () => {
                    working = (await storage.getRun(input.runId))?.lease;
                    return { ok: false, status: 500, message: 'no model', aborted: false };
                },
                commit: async () => ({ ok: false, error: { code: 'host.commit_failed', message: 'x', detail: null } }) as never,
                onEvents() {},
            },
            tools: [],
            sink: () => undefined,
            signal: new AbortController().signal,
            lease: { owner: 'engine-this-tab', exclusive: true },
            now: () => 5_000,
        });
        assert.equal(outcome.state, 'failed');
        assert.equal(working?.owner, 'engine-this-tab', 'the record carries the lease while the run works');
        assert.ok(working.token && working.until > 5_000);
        assert.equal((await storage.getRun(input.runId))!.lease?.until, 5_000, 'the lease ends with the run');
    });
});
