// Sub-agents in the engine (SPEC §1–§3, issue 12): delegation rules, children running concurrently with
// their own tools and budgets, results through agent.await or injected, failures and cancels that never
// fail the parent. Run: node --import tsx --test tests/unit/subagents.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ModelReply, ModelRequest } from '../../src/contract/model';
import { BUILT_IN_PROFILES, EDITOR_PROFILE, GAME_MASTER_PROFILE, RESEARCHER_PROFILE, WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import type { JournalEvent } from '../../src/contract/events';
import { sampleRunInput } from '../fixtures/run-input';
import { payloadsOf, rawCall, toolTurn, runHarness } from '../fixtures/run-harness';

const toolNames = (request: ModelRequest) => request.tools.map((t) => t.function.name);
const isChild = (request: ModelRequest, name: string) => (request.messages[0]?.content ?? '').startsWith(`You are ${name}, a sub-agent`);
const lastToolText = (request: ModelRequest) => request.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';
const finishParent = () => toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'The reply.' }), rawCall('c', 'workspace_commit'), rawCall('f', 'workspace_finish'));
const returning = (summary: string) => toolTurn(rawCall('r', 'task_return', { summary, findings: [`${summary} found`] }));

/** A model whose turns are picked per agent: each agent's n-th request gets its n-th turn. */
function perAgent(turns: Record<string, Array<(request: ModelRequest) => ModelReply | Promise<ModelReply>>>) {
    const seen: Record<string, number> = {};
    /** Children's model requests in flight now, and at most. */
    const live = { now: 0, max: 0 };
    return {
        live,
        async router(request: ModelRequest): Promise<ModelReply> {
            const who = ['Researcher', 'Editor'].find((name) => isChild(request, name)) ?? 'root';
            const n = (seen[who] = (seen[who] ?? 0) + 1) - 1;
            const turn = turns[who]?.[n];
            assert.ok(turn, `no turn ${n} for ${who}`);
            if (who === 'root') return turn(request);
            live.now += 1;
            live.max = Math.max(live.max, live.now);
            try {
                return await turn(request);
            } finally {
                live.now -= 1;
            }
        },
    };
}

const later = <T>(value: T, ms = 20) => new Promise<T>((resolve) => setTimeout(() => resolve(value), ms));

describe('delegation', () => {
    it('runs the researcher and the editor concurrently, with their own tools, and returns both results', async () => {
        let childRequests: ModelRequest[] = [];
        let awaited = '';
        const model = perAgent({
            root: [
                () => toolTurn(
                    rawCall('d1', 'agent_delegate', { agentId: 'researcher', task: { objective: 'Find every mention of the dragon.' } }),
                    rawCall('d2', 'agent_delegate', { agentId: 'editor', task: { objective: 'Review the tone.' } }),
                ),
                () => toolTurn(rawCall('a', 'agent_await', { mode: 'allCompleted' })),
                (request) => {
                    awaited = lastToolText(request);
                    return finishParent();
                },
            ],
            Researcher: [(request) => ((childRequests = [...childRequests, request]), later(returning('Dragon lore')))],
            Editor: [(request) => ((childRequests = [...childRequests, request]), later(returning('Tone notes')))],
        });
        const h = runHarness({ script: [], router: model.router, profiles: BUILT_IN_PROFILES });
        const outcome = await h.run(sampleRunInput({ runId: 'two' }));
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        assert.equal(h.commits.length, 1);
        assert.equal(model.live.max, 2, 'both children were in flight at once');
        for (const request of childRequests) {
            const names = toolNames(request);
            assert.ok(names.includes('task_return'));
            assert.ok(!names.some((n) => n === 'workspace_commit' || n === 'workspace_finish' || n.startsWith('agent_')), names.join(','));
        }
        assert.match(awaited, /^2 of 2 tasks finished\./);
        assert.match(awaited, /Dragon lore/);
        assert.match(awaited, /Tone notes/);
        const files = await h.files('two');
        assert.match(files.get('summaries/researcher-result.md') ?? '', /Dragon lore found/);
        assert.match(files.get('summaries/editor-result.md') ?? '', /Tone notes/);
        const ends = payloadsOf(await h.journal('two'), 'task-end');
        assert.deepEqual(ends.map((e) => e.status).sort(), ['completed', 'completed']);
    });

    it('fails a child that never returns, and the parent still commits', async () => {
        const model = perAgent({
            root: [
                () => toolTurn(rawCall('d', 'agent_delegate', { agentId: 'researcher', task: { objective: 'Dig.' } })),
                () => toolTurn(rawCall('a', 'agent_await', {})),
                finishParent,
            ],
            Researcher: [() => toolTurn(rawCall('l', 'workspace_list_files')), () => toolTurn(rawCall('l2', 'workspace_list_files'))],
        });
        const researcher = BUILT_IN_PROFILES.find((p) => p.id === 'researcher')!;
        const tight = { ...researcher, tools: { ...researcher.tools, maxRounds: 1 } };
        const h = runHarness({ script: [], router: model.router, profiles: [WRITER_PROFILE, tight] });
        const outcome = await h.run(sampleRunInput({ runId: 'no-return' }));
        assert.equal(outcome.state, 'completed');
        assert.equal(h.commits.length, 1);
        const [end] = payloadsOf(await h.journal('no-return'), 'task-end');
        assert.equal(end!.status, 'failed');
        assert.match(end!.reason ?? '', /without calling task_return/);
    });

    it('names the candidates when a delegation is denied, and refuses foreign task ids', async () => {
        const texts: string[] = [];
        const model = perAgent({
            root: [
                () => toolTurn(rawCall('d', 'agent_delegate', { agentId: 'editor', task: { objective: 'Review.' } }), rawCall('a', 'agent_await', { taskIds: ['task-99'] })),
                (request) => {
                    texts.push(...request.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? ''));
                    return finishParent();
                },
            ],
        });
        const h = runHarness({ script: [], router: model.router, profiles: BUILT_IN_PROFILES });
        await h.run(sampleRunInput({ runId: 'denied', profile: GAME_MASTER_PROFILE }));
        assert.match(texts[0]!, /^ERROR agent\.delegation_denied: .*"editor" accepts tasks only from writer/);
        assert.match(texts[0]!, /Agents you may delegate to: researcher \(Researcher\)\./);
        assert.match(texts[1]!, /^ERROR agent\.task_not_found: No task task-99/);
    });

    it('refuses task_return outside a task', async () => {
        const model = perAgent({ root: [() => toolTurn(rawCall('r', 'task_return', { summary: 'x' })), finishParent] });
        const h = runHarness({ script: [], router: model.router, profiles: BUILT_IN_PROFILES });
        await h.run(sampleRunInput({ runId: 'outside' }));
        const [fail] = payloadsOf(await h.journal('outside'), 'tool-call-fail');
        assert.equal(fail!.code, 'agent.return_outside_task');
    });

    it('puts a finished result the parent never awaited into its next turn, once', async () => {
        let released!: () => void;
        const gate = new Promise<void>((resolve) => (released = resolve));
        const seen: string[] = [];
        const model = perAgent({
            root: [
                () => toolTurn(rawCall('d', 'agent_delegate', { agentId: 'researcher', task: { objective: 'Dig.' } })),
                async () => {
                    await gate;
                    return toolTurn(rawCall('l', 'workspace_list_files'));
                },
                (request) => {
                    seen.push(request.messages.at(-1)!.content ?? '');
                    return toolTurn(rawCall('l2', 'workspace_list_files'));
                },
                (request) => {
                    seen.push(request.messages.at(-1)!.content ?? '');
                    return finishParent();
                },
            ],
            Researcher: [
                async () => {
                    const turn = returning('Found it');
                    setTimeout(released, 5);
                    return turn;
                },
            ],
        });
        const h = runHarness({ script: [], router: model.router, profiles: BUILT_IN_PROFILES });
        await h.run(sampleRunInput({ runId: 'inject' }));
        assert.match(seen[0]!, /^\[Tavern Agent\] Sub-agent results you have not awaited yet:/);
        assert.match(seen[0]!, /Found it/);
        assert.doesNotMatch(seen[1]!, /Sub-agent results/, 'injected once');
        // The note the model read is journaled with the ids: a resumed run puts the same note back.
        assert.deepEqual(payloadsOf(await h.journal('inject'), 'task-inject'), [{ taskIds: ['task-1'], message: seen[0] }]);
    });

    it('cancels every child on Stop, with no reply', async () => {
        const h0: { abort?: () => void } = {};
        const model = perAgent({
            root: [
                () => toolTurn(
                    rawCall('d1', 'agent_delegate', { agentId: 'researcher', task: { objective: 'A.' } }),
                    rawCall('d2', 'agent_delegate', { agentId: 'editor', task: { objective: 'B.' } }),
                ),
                () => toolTurn(rawCall('a', 'agent_await', { mode: 'allCompleted' })),
            ],
            Researcher: [() => new Promise<ModelReply>(() => setTimeout(() => h0.abort!(), 10))],
            Editor: [() => new Promise<ModelReply>(() => undefined)],
        });
        const h = runHarness({ script: [], router: model.router, profiles: BUILT_IN_PROFILES });
        h0.abort = () => h.controller.abort('Stopped by the user.');
        const outcome = await h.run(sampleRunInput({ runId: 'stop' }));
        assert.equal(outcome.state, 'cancelled');
        assert.equal(h.commits.length, 0);
        const ends = payloadsOf(await h.journal('stop'), 'task-end');
        assert.deepEqual(ends.map((e) => e.status), ['cancelled', 'cancelled']);
    });

    it('cancels unfinished children when the parent finishes', async () => {
        const model = perAgent({
            root: [() => toolTurn(rawCall('d', 'agent_delegate', { agentId: 'researcher', task: { objective: 'Slow.' } })), finishParent],
            Researcher: [() => new Promise<ModelReply>(() => undefined)],
        });
        const h = runHarness({ script: [], router: model.router, profiles: BUILT_IN_PROFILES });
        const outcome = await h.run(sampleRunInput({ runId: 'finish-cancels' }));
        assert.equal(outcome.state, 'completed');
        const journal: JournalEvent[] = await h.journal('finish-cancels');
        const [end] = payloadsOf(journal, 'task-end');
        assert.equal(end!.status, 'cancelled');
        assert.ok(journal.findIndex((e) => e.type === 'task-end') < journal.findIndex((e) => e.type === 'run-finish'));
        // Every event of the child's steps is stamped for nesting under the delegate call.
        const childEvents = journal.filter((e) => e.payload.taskId === 'task-1');
        assert.ok(childEvents.some((e) => e.type === 'model-request'));
        assert.ok(childEvents.every((e) => e.payload.parentCallId === 'call-0001'));
    });

    it('limits delegations per run and at once, from the caller\'s profile', async () => {
        const texts: string[] = [];
        const writer: Profile = { ...WRITER_PROFILE, delegation: { ...WRITER_PROFILE.delegation, maxConcurrent: 1, maxDelegationsPerRun: 2 } };
        const model = perAgent({
            root: [
                () => toolTurn(
                    rawCall('d1', 'agent_delegate', { agentId: 'researcher', task: { objective: 'A.' } }),
                    rawCall('d2', 'agent_delegate', { agentId: 'researcher', task: { objective: 'B.' } }),
                ),
                (request) => {
                    texts.push(...request.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? ''));
                    return finishParent();
                },
            ],
            Researcher: [() => new Promise<ModelReply>(() => undefined)],
        });
        const h = runHarness({ script: [], router: model.router, profiles: BUILT_IN_PROFILES });
        await h.run(sampleRunInput({ runId: 'limits', profile: writer }));
        assert.match(texts[0]!, /^Task task-1 started/);
        assert.match(texts[1]!, /^ERROR agent\.delegation_limit: At most 1 tasks may run at once/);
    });
});

describe('agents whose model is not configured (issue 39 §10)', () => {
    const onConnection = (profile: Profile, profileId: string, profileName: string): Profile => ({ ...profile, model: { mode: 'connection-profile', profileId, profileName } });
    const researcherGone = onConnection(RESEARCHER_PROFILE, 'conn-gone', 'Deleted Claude');
    const editorHorde = onConnection(EDITOR_PROFILE, 'conn-horde', 'Kobold Horde');
    const connections = [
        { id: 'conn-horde', name: 'Kobold Horde', api: 'koboldhorde', model: '', protocol: 'none' as const },
        { id: 'conn-ok', name: 'Local', api: 'openai', model: 'gpt', protocol: 'tool-calls' as const },
    ];

    /** What the root agent read back after calling agent_list and then delegating to `agentId`. */
    async function listThenDelegate(agents: readonly Profile[], agentId: string, runId: string, withConnections = true): Promise<[string, string]> {
        const texts: string[] = [];
        const model = perAgent({
            root: [
                () => toolTurn(rawCall('l', 'agent_list', {}), rawCall('d', 'agent_delegate', { agentId, task: { objective: 'Dig.' } })),
                (request) => {
                    texts.push(...request.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? ''));
                    return finishParent();
                },
            ],
            Researcher: [() => returning('Found')],
            Editor: [() => returning('Edited')],
        });
        const h = runHarness({ script: [], router: model.router, profiles: [WRITER_PROFILE, ...agents], ...(withConnections ? { connections } : {}) });
        const outcome = await h.run(sampleRunInput({ runId }));
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        return [texts[0]!, texts[1]!];
    }

    it('neither lists nor delegates to an agent whose connection profile is gone, and says why', async () => {
        const [listed, delegated] = await listThenDelegate([researcherGone, EDITOR_PROFILE], 'researcher', 'model-gone');
        assert.match(listed, /- editor \(Editor\)/);
        assert.doesNotMatch(listed, /researcher/);
        assert.match(delegated, /^ERROR agent\.delegation_denied: Delegation to "researcher" is not allowed: the model of "researcher" is not configured: its connection profile "Deleted Claude" no longer exists\./);
        assert.match(delegated, /Agents you may delegate to: editor \(Editor\)\./);
    });

    it('refuses an agent on an API Agent Mode cannot drive', async () => {
        const [listed, delegated] = await listThenDelegate([RESEARCHER_PROFILE, editorHorde], 'editor', 'model-none');
        assert.doesNotMatch(listed, /editor/);
        assert.match(listed, /- researcher \(Researcher\)/);
        assert.match(delegated, /^ERROR agent\.delegation_denied: .*"Kobold Horde" uses an API Agent Mode cannot drive \(koboldhorde\)/);
    });

    it('lists and delegates to an agent on a connection profile that exists', async () => {
        const [listed, delegated] = await listThenDelegate([onConnection(RESEARCHER_PROFILE, 'conn-ok', 'Local')], 'researcher', 'model-ok');
        assert.match(listed, /- researcher \(Researcher\)/);
        assert.match(delegated, /^Task task-1 started/);
    });

    it('counts every model as configured when the page named no connections (a run of an older page)', async () => {
        const [listed, delegated] = await listThenDelegate([researcherGone], 'researcher', 'model-unknown', false);
        assert.match(listed, /- researcher \(Researcher\)/);
        assert.match(delegated, /^Task task-1 started/);
    });
});

