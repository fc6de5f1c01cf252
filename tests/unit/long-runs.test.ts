// Long runs (issue 38): the plan the agent keeps, cost, more rounds on demand, compaction.
// Run: node --import tsx --test tests/unit/long-runs.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelRequest } from '../../src/contract/model';
import { planNote } from '../../src/contract/plan';
import { WRITER_PROFILE } from '../../src/contract/profile';
import { payloadsOf, rawCall, runHarness, toolTurn } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

const FIRST = [
    { id: '1', text: 'Read the chat', status: 'doing' },
    { id: '2', text: 'Draft the reply', status: 'pending' },
] as const;
const SECOND = [
    { id: '1', text: 'Read the chat', status: 'done' },
    { id: '2', text: 'Draft the reply', status: 'doing' },
    { id: '3', text: 'Commit', status: 'pending' },
] as const;

const lastMessage = (request: { messages: ModelRequest['messages'] } | undefined) => request?.messages.at(-1)?.content ?? null;

describe('plan.update', () => {
    it('replaces the plan, stores it in plan/plan.json, and the model reads the current plan at the start of each turn', async () => {
        const h = runHarness({
            script: [
                toolTurn(rawCall('p1', 'plan_update', { items: FIRST })),
                toolTurn(rawCall('p2', 'plan_update', { items: SECOND })),
                toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Done.' }), rawCall('c', 'workspace_commit', {})),
                toolTurn(rawCall('f', 'workspace_finish', {})),
            ],
        });
        const outcome = await h.run(sampleRunInput({ runId: 'planned', profile: WRITER_PROFILE }));
        assert.equal(outcome.state, 'completed');
        assert.ok(h.requests[0]!.tools.some((tool) => tool.function.name === 'plan_update'), 'the writer is offered plan_update');
        assert.notEqual(h.requests[0]!.messages.at(-1)!.content, planNote([...FIRST]), 'no plan before the first update');
        assert.equal(lastMessage(h.requests[1]), planNote([...FIRST]));
        assert.equal(lastMessage(h.requests[2]), planNote([...SECOND]));
        assert.equal(lastMessage(h.requests[3]), planNote([...SECOND]));
        // The note is never part of the conversation: each request holds it once, at its end.
        assert.equal(h.requests[3]!.messages.filter((m) => typeof m.content === 'string' && m.content.startsWith('[Tavern Agent] Your current plan')).length, 1);
        const files = await h.files('planned');
        assert.deepEqual(JSON.parse(files.get('plan/plan.json')!), { items: SECOND });
        const journal = await h.journal('planned');
        assert.deepEqual(payloadsOf(journal, 'plan-update').map((p) => p.items.length), [2, 3]);
    });

    it('refuses more than 30 items and repeated ids as invalid arguments', async () => {
        const many = Array.from({ length: 31 }, (_, i) => ({ id: String(i), text: `step ${i}`, status: 'pending' }));
        const h = runHarness({
            script: [
                toolTurn(rawCall('p1', 'plan_update', { items: many }), rawCall('p2', 'plan_update', { items: [FIRST[0], FIRST[0]] })),
                toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Done.' }), rawCall('c', 'workspace_commit', {}), rawCall('f', 'workspace_finish', {})),
            ],
        });
        await h.run(sampleRunInput({ runId: 'plan-limits', profile: WRITER_PROFILE }));
        const fails = payloadsOf(await h.journal('plan-limits'), 'tool-call-fail');
        assert.deepEqual(fails.map((p) => p.code), ['tool.invalid_arguments', 'tool.invalid_arguments']);
        assert.equal(payloadsOf(await h.journal('plan-limits'), 'plan-update').length, 0);
    });
});
