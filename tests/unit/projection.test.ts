// The conversation is a projection of the journal (issue 33 §2): folding a run's stored journal through the
// one reducer rebuilds, for every agent and at every one of its model requests, exactly the conversation the
// model was sent live; and each agent's budget and tokens as its own events report them. The scenarios
// between them journal every event kind, which the last test checks.
// Run: node --import tsx --test tests/unit/projection.test.ts
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { EVENT_TYPES, type EventType } from '../../src/contract/events';
import type { ModelReply, ModelRequest, WireMessage } from '../../src/contract/model';
import { BUILT_IN_PROFILES, RESEARCHER_PROFILE, WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import type { RunInput } from '../../src/contract/run-input';
import { GuidanceQueue } from '../../src/engine/agents/guidance-queue';
import { recordLoreDecision } from '../../src/engine/archive/lore-decisions';
import { listCheckpoints, restoreCheckpoint } from '../../src/engine/archive/run-archive';
import { rebuildRun } from '../../src/engine/run/resume-run';
import { requestTail } from '../../src/engine/loop/request-tail';
import { planContinue } from '../../src/engine/run/resume-plan';
import { resumeAgent } from '../../src/engine/run/run-lifecycle';
import { RunSession } from '../../src/engine/run/run-session';
import { loadStoredInput } from '../../src/engine/run/stored-input';
import { createMemoryRunStorage, type RunStorage } from '../../src/store/run-storage';
import { ALL_TOOLS } from '../../src/tools/registry';
import { cutAndResume, DELEGATING, RELIABILITY_RUN_ID } from '../fixtures/reliability';
import { rawCall, rawResponse, replyOf, runHarness, toolTurn, type RecordedRequest } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';
import { EMPTY_STATE } from '../../src/contract/state';

/** Every event type some scenario journaled. */
const seen = new Set<EventType>();

/**
 * Folds the stored run into agents built again by the factory, and checks the rebuilt conversation of each
 * agent at each model request against what the model was sent (the last request of each id: a request cut
 * off and sent again after a resume is the same request).
 */
async function assertRebuildsLive(storage: RunStorage, runId: string, sent: ReadonlyArray<Pick<RecordedRequest, 'requestId' | 'messages'>>, profiles: readonly Profile[] = BUILT_IN_PROFILES): Promise<void> {
    const record = await storage.getRun(runId);
    const stored = await loadStoredInput(storage, runId);
    assert.ok(record && stored, 'the run and its inputs are stored');
    const events = await storage.listEvents(runId);
    for (const event of events) seen.add(event.type);
    const host = { requestModel: async (): Promise<ModelReply> => ({ ok: false, status: null, message: 'not here', aborted: false }), commit: async () => ({ ok: false as const, error: { code: 'host.commit_failed' as const, message: 'not here' } }), onEvents() {} };
    const deps = { storage, host, tools: ALL_TOOLS, sink: () => undefined, signal: new AbortController().signal, profiles };
    const session = new RunSession(stored.input, deps, { record, nextSeq: events.length });
    const rebuilt = new Map<string, WireMessage[]>();
    const checked: string[] = [];
    await rebuildRun(session, { record, input: stored.input, events }, (event, agents) => {
        const agentKey = event.payload.taskId ?? 'root';
        const track = agents.get(agentKey)?.track;
        assert.ok(track, `an agent for ${agentKey}`);
        // The request carries the agent's plan after its conversation (request-tail.ts), from the same track.
        if (event.type === 'model-request') rebuilt.set(`${agentKey}:${event.payload.round}`, structuredClone(track.conversation.concat(requestTail(track))));
        if (event.type === 'task-end') {
            // What the live sub-agent reported of itself, from its own track.
            const { rounds, calls, tokensIn, tokensOut } = event.payload;
            assert.deepEqual({ rounds: track.budget.rounds, calls: track.budget.calls, tokensIn: track.loop.tokensIn, tokensOut: track.loop.tokensOut }, { rounds, calls, tokensIn, tokensOut }, `${agentKey}'s budget and tokens`);
            checked.push(`${agentKey} budget`);
        }
        if (event.type === 'budget-wrap-up') {
            assert.deepEqual({ rounds: track.budget.rounds, calls: track.budget.calls }, { rounds: event.payload.rounds, calls: event.payload.calls }, `${agentKey}'s budget at its wrap-up`);
        }
    });
    const lastSent = new Map(sent.map((request) => [request.requestId, request.messages]));
    for (const [requestId, messages] of lastSent) {
        const conversation = rebuilt.get(requestId);
        if (!conversation) continue; // sent, but cut off before its event was written: not in the journal
        assert.deepEqual(conversation, messages, `the conversation of ${requestId}`);
        checked.push(requestId);
    }
    assert.ok(checked.length >= 2, `checked: ${checked.join(', ')}`);
}

const LORE = { books: [{ name: 'Eldoria', source: 'character' as const }], chatBook: null, entries: [{ book: 'Eldoria', uid: 2, title: 'Bridge', keys: ['bridge'], content: 'A stone bridge.', activated: false }] };

describe('the conversation is a projection of the journal', () => {
    it('one agent: a retry, tool errors, plain text and its reminder, guidance, a lore proposal, a truncated turn, commit, finish and a call after it', async () => {
        const guidance = new GuidanceQueue();
        const script: Array<ModelReply | ((request: ModelRequest) => ModelReply | Promise<ModelReply>)> = [
            { ok: false, status: 503, message: 'busy', aborted: false },
            toolTurn(rawCall('r1', 'workspace_read_file', { path: 'output/none.md' }), rawCall('r2', 'no_such_tool', {}), rawCall('r3', 'workspace_write_file', { path: 'output/main.md', content: 'Draft' }), rawCall('r4', 'workspace_write_file', { path: 'persist/notes.md', content: 'A glade.' }), rawCall('r6', 'plan_update', { items: [{ id: '1', text: 'Write it', status: 'doing' }] }), rawCall('r5', 'script_run', { code: 'return (await tools.chat_search({ query: "glade" })).length > 0;' }), rawCall('r7', 'state_set', { scope: 'chat', path: '/hp', value: 7 })),
            async () => {
                await guidance.add('Keep it short.');
                return replyOf(rawResponse('I will write it now.'));
            },
            toolTurn(rawCall('p1', 'workspace_apply_patch', { path: 'output/main.md', old_string: 'Draft', new_string: 'The glade.' }), rawCall('p2', 'worldinfo_propose', { title: 'Glade', content: 'A quiet glade.' }), rawCall('p3', 'workspace_write_file', '{"path": ')),
            replyOf(rawResponse(null, [rawCall('t1', 'workspace_write_file', { path: 'output/main.md', content: 'cut' })], 'length')),
            toolTurn(rawCall('f1', 'workspace_commit', {}), rawCall('f2', 'workspace_finish', { reason: 'done' }), rawCall('f3', 'workspace_read_file', { path: 'output/main.md' })),
        ];
        const h = runHarness({ script, guidance, attachMemory: async () => ({ ok: true, value: { stored: true, bytes: 10 } }) });
        const input = sampleRunInput({ runId: 'solo', lore: LORE, state: { ...EMPTY_STATE, chat: { values: { hp: '10' } } } });
        const outcome = await h.run(input);
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        // What the reducer put in front of the model (live and rebuilt alike, checked below).
        const last = JSON.stringify(h.requests.at(-1)?.messages);
        for (const shown of ['Keep it short.', 'reminder 1/2', 'model.response_truncated', 'workspace.file_not_found', 'tool.not_allowed', 'Program result:\\ntrue', 'Your current plan', '/hp: \\"10\\" → 7']) assert.ok(last.includes(shown), shown);
        // After the run: a checkpoint restored from the timeline, the proposal decided in the panel.
        const [first] = await listCheckpoints(h.storage, 'solo');
        assert.ok(first);
        assert.ok((await restoreCheckpoint(h.storage, 'solo', first.seq, false)).ok);
        const proposal = (await h.journal('solo')).find((event) => event.type === 'lore-propose');
        assert.ok(proposal?.type === 'lore-propose');
        assert.ok((await recordLoreDecision(h.storage, 'solo', { proposalId: proposal.payload.proposalId, decision: 'discarded', text: null, edited: false, written: null })).ok);
        await assertRebuildsLive(h.storage, 'solo', h.requests);
    });

    it('sub-agents: two tasks at once, one awaited and one put into a turn, a task and the root out of budget', async () => {
        const researcher: Profile = { ...RESEARCHER_PROFILE, tools: { ...RESEARCHER_PROFILE.tools, maxRounds: 2 } };
        const writer: Profile = { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 4 } };
        const profiles = [writer, researcher, ...BUILT_IN_PROFILES.filter((p) => p.id !== 'writer' && p.id !== 'researcher')];
        const turns: Record<string, ModelReply[]> = {
            root: [
                toolTurn(rawCall('d1', 'agent_delegate', { agentId: 'researcher', task: { objective: 'Find the bridge.', context: { where: 'north' } } }), rawCall('d2', 'agent_delegate', { agentId: 'editor', task: { objective: 'Tone?', title: 'Tone' } })),
                toolTurn(rawCall('a1', 'agent_await', { taskIds: ['task-2'], mode: 'allCompleted' })),
                toolTurn(rawCall('w1', 'workspace_write_file', { path: 'output/main.md', content: 'A bridge.' })),
                toolTurn(rawCall('a2', 'agent_await', { mode: 'allCompleted' })),
                toolTurn(rawCall('c1', 'workspace_commit', {})),
            ],
            'task-1': [toolTurn(rawCall('s1', 'chat_search', { query: 'glade' })), toolTurn(rawCall('s2', 'chat_search', { query: 'bridge' })), toolTurn(rawCall('s3', 'task_return', { summary: 'North bridge.' }))],
            'task-2': [toolTurn(rawCall('e1', 'task_return', { summary: 'Calm.' }))],
        };
        const h = runHarness({
            script: [],
            router: (request) => {
                const [agent = 'root', round = '1'] = request.requestId.split(':');
                return turns[agent]?.[Number(round) - 1] ?? replyOf(rawResponse('Nothing left.'));
            },
        });
        const input: RunInput = sampleRunInput({ runId: 'tasks', profile: writer, agentProfiles: profiles });
        const outcome = await h.run(input, writer);
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        await assertRebuildsLive(h.storage, 'tasks', h.requests, profiles);
    });

    it('a run stopped, and a run failed', async () => {
        const controller = new AbortController();
        const stopped = runHarness({
            controller,
            script: [
                () => {
                    controller.abort('Stopped by the user.');
                    return { ok: false, status: null, message: 'Cancelled.', aborted: true };
                },
            ],
        });
        assert.equal((await stopped.run(sampleRunInput({ runId: 'stopped' }))).state, 'cancelled');
        for (const event of await stopped.journal('stopped')) seen.add(event.type);
        const failed = runHarness({ script: [{ ok: false, status: 400, message: 'bad request', aborted: false }] });
        assert.equal((await failed.run(sampleRunInput({ runId: 'failed', retry: { maxRetries: 0, baseDelayMs: 0 } }))).state, 'failed');
        for (const event of await failed.journal('failed')) seen.add(event.type);
    });

    it('a compacted run (issue 38 §3): stubs come back in the same places', async () => {
        const big = 'A line of notes that goes on for a while.\n'.repeat(200);
        const script = [toolTurn(rawCall('w', 'workspace_write_file', { path: 'scratch/big.md', content: big }))];
        for (let round = 0; round < 8; round += 1) script.push(toolTurn(rawCall(`r${round}`, 'workspace_read_file', { path: 'scratch/big.md' })));
        script.push(toolTurn(rawCall('m', 'workspace_write_file', { path: 'output/main.md', content: 'Done.' }), rawCall('c', 'workspace_commit', {}), rawCall('f', 'workspace_finish', {})));
        const h = runHarness({ script });
        const profile: Profile = { ...WRITER_PROFILE, compaction: { threshold: 0.5, keepRecentRounds: 2 } };
        assert.equal((await h.run(sampleRunInput({ runId: 'compacted', profile, contextSize: 16_000 }), profile)).state, 'completed');
        assert.ok((await h.journal('compacted')).some((event) => event.type === 'conversation-compact'));
        await assertRebuildsLive(h.storage, 'compacted', h.requests);
    });

    it('a continued run (issue 38 §5): the requests after its Continue are what the journal rebuilds', async () => {
        const writer: Profile = { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 2 } };
        const h = runHarness({
            script: [
                toolTurn(rawCall('w1', 'workspace_write_file', { path: 'output/main.md', content: 'One.' }), rawCall('p1', 'plan_update', { items: [{ id: '1', text: 'Two', status: 'pending' }] })),
                toolTurn(rawCall('l1', 'workspace_list_files', {})),
                toolTurn(rawCall('c1', 'workspace_commit', {})),
            ],
        });
        const input = sampleRunInput({ runId: 'continued', profile: writer });
        assert.equal((await h.run(input, writer)).state, 'completed');
        const plan = await planContinue(h.storage, 'continued', 3);
        assert.ok(plan.ok);
        const turns = [toolTurn(rawCall('w2', 'workspace_write_file', { path: 'output/main.md', content: 'One. Two.' })), toolTurn(rawCall('c2', 'workspace_commit', {}), rawCall('f2', 'workspace_finish', {}))];
        const sent: ModelRequest[] = [];
        const host = { requestModel: async (request: ModelRequest) => (sent.push(structuredClone(request)), turns.shift()!), commit: async () => ({ ok: true as const, value: { messageId: 5 } }), onEvents() {} };
        const outcome = await resumeAgent(plan.value, { storage: h.storage, host, tools: ALL_TOOLS, sink: () => undefined, signal: new AbortController().signal });
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        await assertRebuildsLive(h.storage, 'continued', [...h.requests, ...sent.map((request) => ({ requestId: request.requestId, messages: request.messages }))]);
    });

    it('a resumed run: what its agents were sent after the cut is what the journal rebuilds', async () => {
        const storage = createMemoryRunStorage();
        const sent: ModelRequest[] = [];
        const result = await cutAndResume(storage, 19, DELEGATING, (request) => sent.push(request));
        assert.equal(result.ending, 'completed', String(result.code));
        await assertRebuildsLive(storage, RELIABILITY_RUN_ID, sent.map((request) => ({ requestId: request.requestId, messages: request.messages })));
    });

    after(() => {
        // Every kind of event the journal has was folded by some scenario above.
        assert.deepEqual(EVENT_TYPES.filter((type) => !seen.has(type)), []);
    });
});
