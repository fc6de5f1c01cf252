// Long runs (issue 38): the plan the agent keeps, cost, more rounds on demand, compaction.
// Run: node --import tsx --test tests/unit/long-runs.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelRequest } from '../../src/contract/model';
import { planNote } from '../../src/contract/plan';
import { BUILT_IN_PROFILES, WRITER_PROFILE } from '../../src/contract/profile';
import { exportProfiles, parseProfile } from '../../src/contract/profile-migrations';
import { addUsage, costOf } from '../../src/contract/usage';
import { payloadsOf, rawCall, runHarness, toolTurn } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';
import { planContinue } from '../../src/engine/run/resume-plan';
import { resumeAgent } from '../../src/engine/run/run-lifecycle';
import { ALL_TOOLS } from '../../src/tools/registry';
import { compactable } from '../../src/engine/loop/compact-conversation';

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

describe('Continue with more rounds', () => {
    const budgeted = { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 2 } };

    it('a run whose wrap-up turn committed goes on as the same run, from its journal, and commits again', async () => {
        const h = runHarness({
            script: [
                toolTurn(rawCall('w1', 'workspace_write_file', { path: 'output/main.md', content: 'Part one.' })),
                toolTurn(rawCall('l1', 'workspace_list_files', {})),
                toolTurn(rawCall('c1', 'workspace_commit', {})),
            ],
        });
        const input = sampleRunInput({ runId: 'budgeted', profile: budgeted });
        const first = await h.run(input);
        assert.equal(first.state, 'completed');
        assert.equal(h.commits.length, 1);
        const refused = await planContinue(h.storage, 'budgeted', 201);
        assert.equal(refused.ok ? null : refused.error.code, 'run.not_continuable');
        const plan = await planContinue(h.storage, 'budgeted', 5);
        assert.ok(plan.ok, plan.ok ? '' : plan.error.message);
        const sent: ModelRequest[] = [];
        const turns = [
            toolTurn(rawCall('w2', 'workspace_write_file', { path: 'output/main.md', content: 'Part one. Part two.' })),
            toolTurn(rawCall('c2', 'workspace_commit', {}), rawCall('f2', 'workspace_finish', {})),
        ];
        const host = { ...baseHost(h), requestModel: async (request: ModelRequest) => (sent.push(structuredClone(request)), turns.shift()!) };
        const outcome = await resumeAgent(plan.value, { storage: h.storage, host, tools: ALL_TOOLS, sink: () => undefined, signal: new AbortController().signal });
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        assert.equal(sent.length, 2);
        assert.match(String(sent[0]!.messages.at(-1)!.content), /gave this run 5 more model turns/);
        assert.ok(sent[0]!.tools.some((tool) => tool.function.name === 'workspace_write_file'), 'every tool is offered again');
        assert.equal(sent[0]!.round, 4, 'the same run: its rounds go on');
        const journal = await h.journal('budgeted');
        assert.deepEqual(journal.map((e) => e.seq), journal.map((_, i) => i));
        assert.deepEqual(payloadsOf(journal, 'run-continue').map((p) => [p.from, p.rounds]), [['completed', 5]]);
        assert.equal(payloadsOf(journal, 'commit').length, 2);
        const again = await planContinue(h.storage, 'budgeted');
        assert.equal(again.ok ? null : again.error.code, 'run.not_continuable', 'it finished this time: nothing to continue');
    });

    it('a run that failed with run.budget_exhausted continues with its profile budget by default', async () => {
        const h = runHarness({
            script: [
                toolTurn(rawCall('l1', 'workspace_list_files', {})),
                toolTurn(rawCall('l2', 'workspace_list_files', {})),
                toolTurn(rawCall('l3', 'workspace_finish', {})),
            ],
        });
        const first = await h.run(sampleRunInput({ runId: 'exhausted', profile: budgeted }));
        assert.equal(first.error?.code, 'run.budget_exhausted');
        const plan = await planContinue(h.storage, 'exhausted');
        assert.ok(plan.ok);
        assert.equal(plan.value.continueRounds, 2);
    });
});

function baseHost(h: ReturnType<typeof runHarness>) {
    return {
        async commit() {
            h.commits.push({ runId: 'x', path: 'output/main.md', text: '', mode: 'replace', reason: null });
            return { ok: true as const, value: { messageId: 5 } };
        },
        onEvents() {},
    };
}

describe('compaction', () => {
    /** 20 KB of lines that differ, so a result cut or mixed up shows. */
    const BIG = Array.from({ length: 400 }, (_, i) => `Line ${String(i).padStart(3, '0')} of the long notes: ${'abcdefghij'.repeat(4)}`).join('\n');
    const profile = { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 40 }, compaction: { threshold: 0.5, keepRecentRounds: 4 } };

    function longRun() {
        const script = [toolTurn(rawCall('w', 'workspace_write_file', { path: 'scratch/big.md', content: BIG }))];
        for (let round = 2; round <= 29; round += 1) script.push(toolTurn(rawCall(`r${round}`, 'workspace_read_file', { path: 'scratch/big.md' })));
        script.push(toolTurn(rawCall('m', 'workspace_write_file', { path: 'output/main.md', content: 'Read it all.' }), rawCall('c', 'workspace_commit', {}), rawCall('f', 'workspace_finish', {})));
        return runHarness({ script });
    }

    it('a 30-round run with 20 KB results: old results become stubs, recent ones stay whole, the prefix stays the same, and a stub reads back', async () => {
        const h = longRun();
        const outcome = await h.run(sampleRunInput({ runId: 'long', profile, contextSize: 60_000 }));
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        assert.equal(h.requests.length, 30);
        const journal = await h.journal('long');
        const compactions = payloadsOf(journal, 'conversation-compact');
        assert.ok(compactions.length >= 2, `compacted ${compactions.length} times`);
        const isStub = (content: string | null) => (content ?? '').startsWith('[Tavern Agent] The result of');
        const last = h.requests.at(-1)!;
        const results = last.messages.filter((m) => m.role === 'tool');
        const whole = results.filter((m) => !isStub(m.content));
        assert.ok(results.filter((m) => isStub(m.content)).length >= 20, 'the old results are stubs');
        assert.ok(whole.length >= 4 && whole.slice(-4).every((m) => (m.content ?? '').length > 20_000), 'the last four rounds stay whole');
        // Every later request starts with the same messages up to its first stub (what the provider caches).
        const firstStub = (messages: typeof last.messages) => messages.findIndex((m) => m.role === 'tool' && isStub(m.content));
        const compactedFrom = h.requests.findIndex((request) => firstStub(request.messages) >= 0);
        const prefix = JSON.stringify(h.requests[compactedFrom]!.messages.slice(0, firstStub(h.requests[compactedFrom]!.messages)));
        for (const request of h.requests.slice(compactedFrom)) {
            assert.equal(JSON.stringify(request.messages.slice(0, firstStub(h.requests[compactedFrom]!.messages))), prefix);
        }
        // A stub names a visible copy that holds the result the model read.
        const stub = results.find((m) => isStub(m.content))!;
        const path = /"path": "([^"]+)"/.exec(stub.content!)![1]!;
        const original = h.requests[compactedFrom - 1]!.messages.find((m) => m.role === 'tool' && m.tool_call_id === stub.tool_call_id && !isStub(m.content));
        assert.equal((await h.files('long')).get(path), original?.content);
        // What each request sent is kept as content-addressed parts: repeated ones stored once.
        const requested = payloadsOf(journal, 'model-request');
        const named = requested.flatMap((p) => [...p.request!.parts, p.request!.tools]);
        const stored = [...(await h.files('long')).keys()].filter((file) => file.startsWith('request-parts/'));
        assert.deepEqual(new Set(stored), new Set(named.map((hash) => `request-parts/${hash}.json`)));
        assert.ok(stored.length < named.length / 5, `${stored.length} parts stored for ${named.length} named`);
        const lastParts = requested.at(-1)!.request!.parts;
        const files = await h.files('long');
        assert.deepEqual(lastParts.map((hash) => (JSON.parse(files.get(`request-parts/${hash}.json`)!) as { message: unknown }).message), last.messages);
        // The tokens sent drop by more than half against no compaction at all.
        const sent = h.requests.reduce((sum, request) => sum + JSON.stringify(request.messages).length, 0);
        const plain = longRun();
        await plain.run(sampleRunInput({ runId: 'long-plain', profile }));
        const plainSent = plain.requests.reduce((sum, request) => sum + JSON.stringify(request.messages).length, 0);
        assert.ok(sent < plainSent * 0.4, `${sent} vs ${plainSent}`);
    });

    it('never stubs a result the model has not answered, and keeps nothing when told to keep no rounds', () => {
        const conversation = [
            { role: 'system' as const, content: 's' },
            { role: 'assistant' as const, content: null },
            { role: 'tool' as const, content: 'a', tool_call_id: '1' },
            { role: 'assistant' as const, content: null },
            { role: 'tool' as const, content: 'b', tool_call_id: '2' },
        ];
        const results = new Map([[2, { callId: 'call-1', name: 'x' }], [4, { callId: 'call-2', name: 'x' }]]);
        assert.deepEqual(compactable({ conversation, results }, 0), [2]);
        assert.deepEqual(compactable({ conversation, results }, 1), [2]);
        assert.deepEqual(compactable({ conversation, results }, 2), []);
    });
});

describe('pricing and compaction in profiles', () => {
    it('are null and the defaults in the built-ins, filled in for profiles stored before them, and always exported', () => {
        for (const profile of BUILT_IN_PROFILES) {
            assert.equal(profile.pricing, null, profile.id);
            assert.deepEqual(profile.compaction, { threshold: 0.6, keepRecentRounds: 4 }, profile.id);
        }
        const { pricing: _pricing, compaction: _compaction, ...old } = WRITER_PROFILE;
        const parsed = parseProfile({ ...old, id: 'old-writer' });
        assert.ok(parsed.ok);
        const exported = JSON.parse(exportProfiles([parsed.profile])) as { profiles: Array<Record<string, unknown>> };
        assert.equal(exported.profiles[0]!.pricing, null);
        assert.deepEqual(exported.profiles[0]!.compaction, { threshold: 0.6, keepRecentRounds: 4 });
        const priced = parseProfile({ ...WRITER_PROFILE, id: 'priced', pricing: { input: 3, output: null } });
        assert.ok(priced.ok && priced.profile.pricing?.input === 3 && priced.profile.pricing.output === null);
        assert.equal(parseProfile({ ...WRITER_PROFILE, id: 'bad', pricing: { input: -1, output: 2 } }).ok, false);
        assert.equal(parseProfile({ ...WRITER_PROFILE, id: 'bad2', compaction: { threshold: 2, keepRecentRounds: 4 } }).ok, false);
    });

    it('cost is usage × price per million, and a run total has a cost once any turn was priced', () => {
        assert.equal(costOf({ input: 1200, output: 300 }, { input: 3, output: 15 }), (1200 * 3 + 300 * 15) / 1e6);
        assert.equal(costOf({ input: 1200, output: 300 }, null), undefined);
        assert.equal(costOf({ input: 1200, output: 300 }, { input: null, output: null }), undefined);
        assert.deepEqual(addUsage(addUsage({ input: 0, output: 0 }, { input: 10, output: 1 }, undefined), { input: 5, output: 5 }, 0.5), { input: 15, output: 6, cost: 0.5 });
    });
});
