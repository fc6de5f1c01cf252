// One run lifecycle (issue 33 §3–§5): a resumed run is the same run — its guidance, script, lore and
// extension tools, its registration as live — and every sub-agent works with its own profile's input.
// Run: node --import tsx --test tests/unit/run-lifecycle.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ExtToolSpec } from '../../src/contract/ext-tools';
import type { ModelReply, ModelRequest } from '../../src/contract/model';
import { BUILT_IN_PROFILES, RESEARCHER_PROFILE, type Profile } from '../../src/contract/profile';
import type { RunInput } from '../../src/contract/run-input';
import type { RunSkill, SkillFile } from '../../src/contract/skills';
import { skillPool } from '../../src/contract/skills-resolve';
import type { HostBridge } from '../../src/contract/wire';
import { GuidanceQueue } from '../../src/engine/agents/guidance-queue';
import { liveJournal } from '../../src/engine/journal/live-journals';
import { createEventPump } from '../../src/engine/journal/event-pump';
import { planResume } from '../../src/engine/run/resume-plan';
import { resumeAgent, runAgent } from '../../src/engine/run/run-lifecycle';
import { markInterruptedRuns } from '../../src/engine/tabs/sweep';
import { createMemoryRunStorage, type RunStorage } from '../../src/store/run-storage';
import { extToolDefinitions } from '../../src/tools/ext';
import { ALL_TOOLS } from '../../src/tools/registry';
import { rawCall, rawResponse, replyOf, toolTurn } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

type Turn = (request: ModelRequest) => ModelReply | Promise<ModelReply>;

const finishing: Turn[] = [
    () => toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'The reply.' }), rawCall('c', 'workspace_commit', {})),
    () => toolTurn(rawCall('f', 'workspace_finish', {})),
];

/** A host whose model answers each agent's n-th request with its n-th turn; `hangAt` never answers (the page dies). */
function scriptedHost(turns: Record<string, Turn[]>, opts: { hangAt?: string; sent?: ModelRequest[] } = {}): { host: HostBridge; hung: Promise<void> } {
    let onHang = () => undefined as void;
    const hung = new Promise<void>((resolve) => (onHang = resolve));
    const host: HostBridge = {
        async requestModel(request) {
            opts.sent?.push(structuredClone(request));
            if (request.requestId === opts.hangAt) {
                onHang();
                return new Promise<never>(() => undefined);
            }
            const [agent = 'root', round = '1'] = request.requestId.split(':');
            const turn = turns[agent]?.[Number(round) - 1];
            return turn ? turn(request) : replyOf(rawResponse('Nothing left.'));
        },
        async commit() {
            return { ok: true, value: { messageId: 3 } };
        },
        onEvents() {},
        async callExtTool(request) {
            return { ok: true, text: `weather for ${JSON.stringify(request.args)}` };
        },
    };
    return { host, hung };
}

/** Storage whose writes stop for good once frozen (the page is gone); reads still work. */
function freezable(base: RunStorage): { storage: RunStorage; freeze(): void; quiet(): Promise<void> } {
    let frozen = false;
    let inFlight = 0;
    let started = 0;
    const hang = <T>(write: () => Promise<T>): Promise<T> => {
        if (frozen) return new Promise<T>(() => undefined);
        inFlight += 1;
        started += 1;
        return write().finally(() => void (inFlight -= 1));
    };
    /** Resolves once no write is in flight and none began for 20 ms: a fixed wait was too short on a loaded CI machine. */
    const quiet = async () => {
        for (let seen = -1; inFlight > 0 || seen !== started; ) {
            seen = started;
            await new Promise((resolve) => setTimeout(resolve, 20));
        }
    };
    const storage: RunStorage = {
        ...base,
        putRun: (run) => hang(() => base.putRun(run)),
        putFile: (file) => hang(() => base.putFile(file)),
        putFiles: (files) => hang(() => base.putFiles(files)),
        putPersistState: (state) => hang(() => base.putPersistState(state)),
        appendEvents: (writes) => hang(() => base.appendEvents(writes)),
        appendEvent: (event, attachments) => hang(() => base.appendEvent(event, attachments)),
    };
    return { storage, freeze: () => void (frozen = true), quiet };
}

/** A round before the cut: a resumed run never asks it again. */
const before: Turn = (request) => assert.fail(`${request.requestId} was asked again after the resume`);

/**
 * The page dies while `hangAt` is in flight: once the events before it have landed, storage stops for good
 * and the page's signal fires (its worker is gone: nothing of the run waits on, no timer keeps running).
 */
async function runUntilCut(storage: RunStorage, input: RunInput, turns: Record<string, Turn[]>, hangAt: string, guidance = new GuidanceQueue()): Promise<void> {
    const dying = freezable(storage);
    const first = scriptedHost(turns, { hangAt });
    const page = new AbortController();
    void runAgent(input, deps(dying.storage, first.host, input, { signal: page.signal, guidance }));
    await first.hung;
    await dying.quiet(); // the events before the request land
    dying.freeze();
    page.abort('The page was reloaded.');
    assert.equal(await markInterruptedRuns(storage, () => false), 1, 'the next page finds the run cut off');
}

function deps(storage: RunStorage, host: HostBridge, input: RunInput, extra: { guidance?: GuidanceQueue; signal?: AbortSignal } = {}) {
    const tools = [...ALL_TOOLS, ...extToolDefinitions(input.extTools ?? [], (name, args, _signal, ask) => host.callExtTool!({ runId: input.runId, name, args, ask }))];
    return {
        storage,
        host,
        tools,
        sink: createEventPump(() => undefined),
        signal: extra.signal ?? new AbortController().signal,
        profiles: input.agentProfiles ?? BUILT_IN_PROFILES,
        skillFiles: LONG_SKILL.read,
        ...(extra.guidance ? { guidance: extra.guidance } : {}),
    };
}

/** One skill with a long reference file, readable by every run of these tests. */
const LONG_SKILL = (() => {
    const hash = 'b'.repeat(64);
    const files: Record<string, string> = { 'SKILL.md': '---\nname: atlas\ndescription: Maps.\n---\nSee references/roads.md.', 'references/roads.md': 'stone way\n'.repeat(400) };
    const skill: RunSkill = { name: 'atlas', description: 'Maps.', scope: 'global', hash, files: Object.entries(files).map(([path, body]) => ({ path, bytes: body.length })) };
    const read = async (wanted: string, path: string): Promise<SkillFile | undefined> => (wanted === hash && path in files ? { path, encoding: 'utf8', content: files[path]!, bytes: files[path]!.length } : undefined);
    return { skill, read };
})();

/**
 * Runs `input` until the model request `hangAt` (the page is reloaded while it waits), marks the run
 * interrupted as the next page does, and resumes it with `turns`; returns what the resumed run sent.
 */
async function cutAndResume(input: RunInput, first: Record<string, Turn[]>, hangAt: string, after: Record<string, Turn[]>, guidance = new GuidanceQueue()) {
    const storage = createMemoryRunStorage();
    await runUntilCut(storage, input, first, hangAt);
    const plan = await planResume(storage, input.runId);
    assert.ok(plan.ok, plan.ok ? '' : plan.error.message);
    const sent: ModelRequest[] = [];
    const second = scriptedHost(after, { sent });
    const outcome = await resumeAgent(plan.value, deps(storage, second.host, input, { guidance }));
    return { storage, sent, outcome, events: await storage.listEvents(input.runId) };
}

const text = (request: ModelRequest | undefined) => JSON.stringify(request?.messages ?? []);

describe('a resumed run is the same run', () => {
    it('keeps the guidance the model saw before the cut, and takes new guidance while it works', async () => {
        const early = new GuidanceQueue();
        const input = sampleRunInput({ runId: 'guided' });
        const storage = createMemoryRunStorage();
        const owl = async () => {
            await early.add('Mention the owl.');
            return toolTurn(rawCall('r', 'workspace_list_files', {}));
        };
        await runUntilCut(storage, input, { root: [owl] }, 'root:2', early);
        const plan = await planResume(storage, 'guided');
        assert.ok(plan.ok);
        const guidance = new GuidanceQueue();
        const sent: ModelRequest[] = [];
        const second = scriptedHost(
            {
                root: [
                    before,
                    async () => {
                        assert.ok((await guidance.add('Keep it short.')).ok, '/agent guide reaches a resumed run');
                        return finishing[0]!(undefined as never);
                    },
                    () => finishing[1]!(undefined as never),
                ],
            },
            { sent },
        );
        const outcome = await resumeAgent(plan.value, deps(storage, second.host, input, { guidance }));
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        assert.match(text(sent[0]), /Mention the owl\./, 'the note the model saw before the cut is in the request sent again');
        assert.match(text(sent.at(-1)), /Keep it short\./, 'guidance sent during the resumed run reaches the model');
        assert.equal(liveJournal('guided'), undefined, "the resumed run's journal is not live after it ends");
    });

    it('a scripted run keeps its prompt; its lore and extension tools still work', async () => {
        const weather: ExtToolSpec = { name: 'GetWeather', displayName: 'Weather', description: 'The weather.', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
        const lore = { books: [{ name: 'Eldoria', source: 'character' as const }], chatBook: null, entries: [{ book: 'Eldoria', uid: 2, title: 'Bridge', keys: ['bridge'], content: 'A stone bridge.', activated: false }] };
        const profile: Profile = { ...BUILT_IN_PROFILES[0]!, tools: { ...BUILT_IN_PROFILES[0]!.tools, allow: [...BUILT_IN_PROFILES[0]!.tools.allow, 'ext.*'] } };
        const input = sampleRunInput({ runId: 'scripted', profile, script: { prompt: 'Summarize the bridge lore.', background: false }, lore, extTools: [weather] });
        const { sent, outcome } = await cutAndResume(input, { root: [() => toolTurn(rawCall('r', 'workspace_list_files', {}))] }, 'root:2', {
            root: [before, () => toolTurn(rawCall('s', 'worldinfo_search', { query: 'bridge' }), rawCall('e', 'ext_GetWeather', { city: 'Oslo' })), ...finishing],
        });
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        assert.match(text(sent[0]), /Summarize the bridge lore\./, 'the script prompt is still the last thing the model reads');
        assert.ok(sent[0]!.tools.some((tool) => tool.function.name === 'ext_GetWeather'), 'extension tools are offered after the resume');
        const results = text(sent[1]);
        assert.match(results, /worldinfo:Eldoria#2/, 'the lore tools read the frozen lorebooks');
        assert.match(results, /weather for \{\\"city\\":\\"Oslo\\"\}/);
    });

    it('a run that delegated resumes: a finished task keeps its result, a cut-off one goes on from its own journal', async () => {
        const input = sampleRunInput({ runId: 'delegated', agentProfiles: [...BUILT_IN_PROFILES] });
        // The cut must find the parent already waiting in round 2: the second child's cut request waits for it,
        // where the two agents' order was left to the scheduler (and a loaded machine reversed it).
        let parentWaits = () => undefined as void;
        const parentWaiting = new Promise<void>((resolve) => (parentWaits = resolve));
        const delegate = () =>
            toolTurn(
                rawCall('d1', 'agent_delegate', { agentId: 'editor', task: { objective: 'Tone?' } }),
                rawCall('d2', 'agent_delegate', { agentId: 'researcher', task: { objective: 'Dig.' } }),
                rawCall('a', 'agent_await', { taskIds: ['task-1'], mode: 'allCompleted' }),
            );
        const { sent, outcome, events } = await cutAndResume(
            input,
            {
                root: [
                    delegate,
                    () => {
                        parentWaits();
                        return toolTurn(rawCall('a2', 'agent_await', { mode: 'allCompleted' }));
                    },
                ],
                'task-1': [() => toolTurn(rawCall('e', 'task_return', { summary: 'Calm.' }))],
                'task-2': [
                    async () => {
                        await parentWaiting;
                        return toolTurn(rawCall('s', 'chat_search', { query: 'glade' }));
                    },
                ],
            },
            'task-2:2',
            {
                // Round 2's await was cut off while it waited: it runs again, and waits for the resumed child.
                root: [before, before, ...finishing],
                'task-1': [before],
                'task-2': [before, () => toolTurn(rawCall('r', 'task_return', { summary: 'Found the glade.' }))],
            },
        );
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        const askedAfter = sent.map((request) => request.requestId);
        assert.ok(!askedAfter.some((id) => id.startsWith('task-1:')), `the finished child's model is not asked again: ${askedAfter.join(', ')}`);
        assert.ok(askedAfter.includes('task-2:2'), 'the cut-off child sends its cut request again');
        assert.match(text(sent.find((request) => request.requestId === 'task-2:2')), /glade/, 'with its own conversation so far');
        assert.equal(events.filter((event) => event.type === 'task-start').length, 2, 'no task started twice');
        assert.equal(events.filter((event) => event.type === 'commit').length, 1);
        const awaited = text(sent.find((request) => request.requestId === 'root:3'));

        assert.match(awaited, /Found the glade\./, 'the parent gets the resumed child\'s result');
    });
});

describe('the skill read budget is the run\'s (issue 39 §10)', () => {
    // The writer may read 1,500 characters of skills in a run, 1,000 in one call; the researcher alone could read far more.
    const writer: Profile = { ...BUILT_IN_PROFILES[0]!, skills: { ...BUILT_IN_PROFILES[0]!.skills, maxReadCharsPerCall: 1000, maxReadCharsPerRun: 1500 } };
    const readRoads = (id: string) => rawCall(id, 'skill_read', { name: 'atlas', path: 'references/roads.md', max_chars: 1000 });
    const lastTool = (request: ModelRequest | undefined) => request?.messages.filter((m) => m.role === 'tool').at(-1)?.content ?? '';

    it('a sub-agent reads from what its parent left of it, and the parent then finds it spent', async () => {
        const input = sampleRunInput({ runId: 'budget-children', profile: writer, skills: [LONG_SKILL.skill], agentProfiles: [writer, RESEARCHER_PROFILE] });
        const sent: ModelRequest[] = [];
        const { host } = scriptedHost(
            {
                root: [
                    () => toolTurn(readRoads('r1')),
                    () => toolTurn(rawCall('d', 'agent_delegate', { agentId: 'researcher', task: { objective: 'Read the roads.' } }), rawCall('a', 'agent_await', { mode: 'allCompleted' })),
                    () => toolTurn(readRoads('r2')),
                    ...finishing,
                ],
                'task-1': [() => toolTurn(readRoads('c1')), () => toolTurn(readRoads('c2')), () => toolTurn(rawCall('t', 'task_return', { summary: 'Read.' }))],
            },
            { sent },
        );
        const storage = createMemoryRunStorage();
        const outcome = await runAgent(input, deps(storage, host, input));
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        const asked = (id: string) => lastTool(sent.find((request) => request.requestId === id));
        assert.match(asked('root:2'), /Skill read budget: 500 of 1500 characters left this run/);
        assert.match(asked('task-1:2'), /stopped at the skill read budget/, 'the child got only the 500 characters left');
        assert.match(asked('task-1:2'), /Skill read budget: 0 of 1500 characters left this run/);
        assert.match(asked('task-1:3'), /^ERROR skill\.read_budget_exhausted: This run has used its skill read budget: 1500 of 1500/);
        assert.match(asked('root:4'), /^ERROR skill\.read_budget_exhausted/, 'the parent finds the run\'s budget spent by its child');
        const charged = (await storage.listEvents('budget-children')).flatMap((event) => (event.type === 'tool-call-complete' && event.payload.skillChars ? [event.payload.skillChars] : []));
        assert.deepEqual(charged, [1000, 500], 'the journal keeps what each read handed over');
    });

    it('a resumed run goes on with what was left before the cut', async () => {
        const input = sampleRunInput({ runId: 'budget-resume', profile: writer, skills: [LONG_SKILL.skill], agentProfiles: [writer] });
        const { sent, outcome } = await cutAndResume(input, { root: [() => toolTurn(readRoads('r1'))] }, 'root:2', { root: [before, () => toolTurn(readRoads('r2')), () => toolTurn(readRoads('r3')), ...finishing] });
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        const asked = (id: string) => lastTool(sent.find((request) => request.requestId === id));
        assert.match(asked('root:2'), /Skill read budget: 500 of 1500 characters left this run/, 'the read before the cut counts');
        assert.match(asked('root:3'), /Skill read budget: 0 of 1500 characters left this run/, 'after the resume, only the 500 left are read');
        assert.match(asked('root:4'), /^ERROR skill\.read_budget_exhausted/);
    });
});

describe('every sub-agent gets its own profile\'s input', () => {
    const skill = (name: string, scope: RunSkill['scope']): RunSkill => ({ name, description: `${name} skill`, scope, hash: name.padEnd(64, '0').replace(/[^0-9a-f]/g, 'a'), files: [{ path: 'SKILL.md', bytes: 10 }] });

    it('skills resolved for its profile (its profile scope in, its deny out), its own read budgets and hidden-message setting', async () => {
        const researcher: Profile = {
            ...RESEARCHER_PROFILE,
            skills: { ...RESEARCHER_PROFILE.skills, deny: ['secret-style'], maxReadCharsPerCall: 1234 },
            context: { ...RESEARCHER_PROFILE.context, includeHiddenMessages: true },
        };
        const index = [skill('secret-style', 'global'), skill('map-lore', { profile: 'researcher' }), skill('writer-notes', { profile: 'writer' })];
        const pool = { presetName: null, characterAvatar: null, skills: skillPool(index, { presetName: null, characterAvatar: null }) };
        const writerSkills = index.filter((s) => s.name !== 'map-lore');
        const prefix = [...sampleRunInput().prefix, { index: 2, role: 'system' as const, name: 'Narrator', text: 'A hidden note about the owl.', hidden: true, agentRunId: null }];
        const input = sampleRunInput({ runId: 'skills', prefix, skills: writerSkills, skillPool: pool, agentProfiles: [BUILT_IN_PROFILES[0]!, researcher] });
        const storage = createMemoryRunStorage();
        const sent: ModelRequest[] = [];
        const { host } = scriptedHost(
            {
                root: [() => toolTurn(rawCall('d', 'agent_delegate', { agentId: 'researcher', task: { objective: 'Look.' } }), rawCall('a', 'agent_await', { mode: 'allCompleted' })), ...finishing],
                'task-1': [
                    () => toolTurn(rawCall('l', 'skill_list', {}), rawCall('r', 'skill_read', { name: 'secret-style' }), rawCall('s', 'chat_search', { query: 'owl' })),
                    () => toolTurn(rawCall('t', 'task_return', { summary: 'Done.' })),
                ],
            },
            { sent },
        );
        const outcome = await runAgent(input, deps(storage, host, input));
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        const child = text(sent.find((request) => request.requestId === 'task-1:2'));
        assert.match(child, /map-lore/, 'a skill of the researcher\'s own profile scope is listed for it');
        assert.doesNotMatch(child, /writer-notes/, 'the writer\'s profile skills are not');
        assert.match(child, /skill\.not_visible/, 'a skill its profile denies cannot be read, though the writer sees it');
        assert.match(child, /hidden note about the owl/i, 'its own setting shows hidden messages to its chat search');
        const resolved = (await storage.listEvents('skills')).filter((event) => event.type === 'skills-resolve').map((event) => event.payload.skills.map((s) => s.name));
        assert.deepEqual(resolved, [['secret-style', 'writer-notes'], ['map-lore']], 'each agent journals its own skill set');
    });
});
