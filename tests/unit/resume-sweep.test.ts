// Resume (issues 13 and 33): a run cut off at every event boundary, then resumed from its journal, ends with
// exactly one reply in the chat holding the whole text; confirmed tool calls and commits never run twice, and
// a finished sub-agent's model is never asked again. Whole runs, hundreds of them on two storages: npm test
// runs it, the edit loop (npm run check) leaves it out.
// Run: node --import tsx --test tests/unit/resume-sweep.test.ts
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { suitesPerStorageKind } from '../fixtures/storage-kinds';
import { cutAndResume, DELEGATING, referenceRun, SOLO } from '../fixtures/reliability';
import { payloadsOf } from '../fixtures/run-harness';

const { describe, newStorage } = suitesPerStorageKind();

describe('resume after a cut at every event boundary', () => {
    for (const scenario of [SOLO, DELEGATING]) {
        it(`${scenario.name}: cut off at every event boundary and resumed: 0 duplicated replies, 0 lost, every run completed or cleanly refused`, async () => {
            const ref = await referenceRun(newStorage(), undefined, scenario);
            assert.equal(ref.outcome.state, 'completed', JSON.stringify(ref.outcome.error));
            const total = ref.events.length;
            const refusedCodes = new Set<string>();
            for (let limit = 0; limit < total; limit += 1) {
                const result = await cutAndResume(newStorage(), limit, scenario);
                const where = `cut after ${limit} of ${total} events`;
                if (result.ending === 'refused') {
                    // Only before the run's inputs were stored: nothing was ever committed then.
                    assert.equal(result.replies, 0, where);
                    refusedCodes.add(String(result.code));
                    continue;
                }
                assert.equal(result.ending, 'completed', `${where}: ${result.code}`);
                assert.equal(result.replies, 1, `${where}: duplicated or lost reply`);
                assert.equal(result.replyText, ref.chat[1]!.mes, `${where}: the reply's text`);
                assert.equal(result.main, ref.main, `${where}: output/main.md`);
                // Each of the model's tool calls (the root's and its sub-agents') has exactly one journaled
                // result: none replayed, none dropped.
                const starts = new Map(payloadsOf(result.events, 'tool-call-start').map((p) => [p.callId, p.providerCallId]));
                const answered = [...payloadsOf(result.events, 'tool-call-complete'), ...payloadsOf(result.events, 'tool-call-fail')].map((p) => starts.get(p.callId));
                assert.equal(answered.length, new Set(answered).size, `${where}: a tool call answered twice`);
                assert.equal(answered.length, scenario.toolCalls, `${where}: tool calls answered`);
                // One model response per agent and round (a finished sub-agent's model is not asked again),
                // one start and one end per task, and the journal stays gapless.
                const rounds = payloadsOf(result.events, 'model-response').map((p) => `${p.taskId ?? 'root'}:${p.round}`);
                assert.equal(rounds.length, new Set(rounds).size, `${where}: a round answered twice`);
                const tasks = payloadsOf(result.events, 'task-end').map((p) => p.taskId);
                assert.equal(tasks.length, new Set(tasks).size, `${where}: a task ended twice`);
                assert.equal(tasks.length, payloadsOf(result.events, 'task-start').length, `${where}: every task ended`);
                assert.deepEqual(result.events.map((e) => e.seq), result.events.map((_, i) => i), `${where}: journal numbering`);
                assert.ok(result.events.some((e) => e.type === 'run-resume'), where);
            }
            // Cut before its record or inputs were stored: there is no run to resume, and nothing was written.
            assert.deepEqual([...refusedCodes].filter((code) => code !== 'run.inputs_missing' && code !== 'run.not_found'), []);
        });
    }
});
