// The demo model (scripts/demo-model.ts) playing each scenario against the real engine: real instructions,
// real tools (dice, lore, workspace, state, the demo skill's script in the sandbox), real delegation. What
// a newcomer sees in `npm start` rests on this; the e2e test (tests/e2e/demo.test.ts) plays some of it in
// SillyTavern. Run: node --import tsx --test tests/unit/demo-runs.test.ts
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { ModelRequest, ModelReply } from '../../src/contract/model';
import { BUILT_IN_PROFILES, DIRECTOR_PROFILE, LORE_KEEPER_PROFILE, MEMORY_KEEPER_PROFILE, STATE_KEEPER_PROFILE, type Profile } from '../../src/contract/profile';
import type { RunInput } from '../../src/contract/run-input';
import type { RunSkill, SkillFile } from '../../src/contract/skills';
import { EMPTY_STATE } from '../../src/contract/state';
import { demoResponder } from '../../scripts/demo-model';
import { DEMO_PROFILE } from '../../scripts/demo-setup';
import { SCENARIOS, type ScenarioId } from '../../scripts/demo/scenarios';
import { openai } from '../harness/mock-model/openai';
import { payloadsOf, replyOf, runHarness } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

const example = (id: ScenarioId): string => SCENARIOS.find((scenario) => scenario.id === id)!.example;

/** The engine's model requests answered by the demo model, as the mock server would answer SillyTavern. */
function demoModel(): (request: ModelRequest) => ModelReply {
    let seq = 0;
    return (request) => {
        seq += 1;
        const body = { messages: request.messages, tools: request.tools };
        const turn = demoResponder({ seq, at: 0, method: 'POST', path: '/v1/chat/completions', headers: {}, body, dialect: 'openai', kind: 'generate' })!;
        return replyOf(openai.completion(turn, { seq, model: 'mock-model', usage: { input: 10, output: 5 } }));
    };
}

const ELDORIA = {
    books: [{ name: 'Eldoria', source: 'character' as const }],
    chatBook: null,
    entries: [
        { book: 'Eldoria', uid: 1, title: 'shadowfang', keys: ['shadowfang', 'beast'], content: 'Shadowfangs are beasts of the dark woods.', activated: false },
        { book: 'Eldoria', uid: 2, title: 'glade', keys: ['glade'], content: "Seraphina's glade is a safe haven.", activated: true },
    ],
};

/** A run of the demo in Seraphina's chat, the user having just said `said`. */
function input(said: string, overrides: Partial<RunInput> = {}): RunInput {
    const greeting = 'You wake in a quiet forest glade. The Shadowfangs howl far away.';
    return sampleRunInput({
        prefix: [
            { index: 0, role: 'assistant', name: 'Seraphina', text: greeting, hidden: false, agentRunId: null },
            { index: 1, role: 'user', name: 'Tester', text: said, hidden: false, agentRunId: null },
        ],
        prompt: [
            { role: 'system', content: "Write Seraphina's next reply in a fictional chat between Seraphina and Tester." },
            { role: 'assistant', content: greeting },
            { role: 'user', content: said },
        ],
        lore: ELDORIA,
        worldInfo: { captured: true, entries: [{ book: 'Eldoria', uid: 2, title: 'glade', keys: ['glade'], content: "Seraphina's glade is a safe haven.", constant: false }] },
        state: { ...EMPTY_STATE, chat: { values: {} } },
        profile: DEMO_PROFILE,
        ...overrides,
    });
}

async function play(runInput: RunInput, opts: { profiles?: readonly Profile[]; skillFiles?: Parameters<typeof runHarness>[0]['skillFiles'] } = {}) {
    const h = runHarness({ script: [], router: demoModel(), profiles: opts.profiles ?? [...BUILT_IN_PROFILES, DEMO_PROFILE], ...(opts.skillFiles ? { skillFiles: opts.skillFiles } : {}) });
    const outcome = await h.run(runInput);
    assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
    const events = await h.journal(runInput.runId);
    const called = payloadsOf(events, 'tool-call-start').map((call) => call.name);
    const failed = payloadsOf(events, 'tool-call-fail');
    return { h, events, called, failed, committed: h.commits.at(-1)?.text ?? '' };
}

test('a message with no trigger word: a plain agent turn that plans, drafts, reads, revises and commits, without quoting the user', async () => {
    const { called, failed, committed } = await play(input('The weather is lovely today.'));
    assert.deepEqual(called, ['plan_update', 'workspace_write_file', 'workspace_read_file', 'workspace_apply_patch', 'workspace_commit', 'workspace_finish']);
    assert.deepEqual(failed, []);
    assert.match(committed, /^\*Seraphina smiles/);
    assert.doesNotMatch(committed, /weather is lovely/, "she never says the user's words as her own");
    assert.match(committed, /\(Demo: try "delegate"/);
});

test('delegate: the researcher searches the chat and the lore and returns; the reply carries its report', async () => {
    const { h, called, failed, committed } = await play(input(example('delegate')));
    assert.deepEqual(failed, []);
    assert.deepEqual(called.filter((name) => name.startsWith('agent_')), ['agent_delegate', 'agent_await']);
    const researcher = h.requests.filter((request) => request.requestId !== 'root' && !request.requestId.startsWith('root'));
    assert.ok(researcher.length >= 3, 'the researcher made its own requests');
    assert.match(committed, /Found 2 chat message\(s\) and 1 lore entry about Shadowfangs\./);
    assert.equal((await h.files('run-test-1')).get('scratch/findings.md'), '# Shadowfangs\n\n- 2 chat message(s) mention it.\n- 1 lore entry mentions it.');
});

test('lore: it searches the lore, proposes the Moonwell (nothing written yet), and says so', async () => {
    const { events, called, failed, committed } = await play(input(example('lore')));
    assert.deepEqual(failed, []);
    assert.deepEqual(called.slice(0, 2), ['worldinfo_search', 'worldinfo_propose']);
    const [proposal] = payloadsOf(events, 'lore-propose');
    assert.equal(proposal?.after.title, 'The Moonwell');
    assert.deepEqual(proposal?.after.keys, ['Moonwell', 'well']);
    assert.match(committed, /This is the Moonwell/);
});

test('roll: a d20 decides the outcome, and the reply tells the number the dice tool rolled', async () => {
    for (let i = 0; i < 6; i++) {
        const { h, events, called, committed } = await play(input(example('roll')));
        assert.equal(called[0], 'dice_roll');
        const result = payloadsOf(events, 'tool-call-complete')[0]!;
        const text = (await h.files('run-test-1')).get(result.resultPath!) ?? JSON.stringify(result);
        const rolled = Number(/Rolled 1d20: (\d+)/.exec(text)?.[1]);
        assert.ok(rolled >= 1 && rolled <= 20, text);
        assert.match(committed, new RegExp(`rolled ${rolled} on 1d20`));
        assert.match(committed, rolled >= 10 ? /A fine climb!/ : /Careful!/);
    }
});

test('script: the demo skill\'s omen script runs in the sandbox, notes the reading, and the reply says the omen', async () => {
    const folder = path.resolve(import.meta.dirname, '../../scripts/demo-extension/skill/glade-oracle');
    const texts: Record<string, string> = { 'SKILL.md': fs.readFileSync(path.join(folder, 'SKILL.md'), 'utf8'), 'scripts/omen.js': fs.readFileSync(path.join(folder, 'scripts/omen.js'), 'utf8') };
    const hash = 'd'.repeat(64);
    const skill: RunSkill = { name: 'glade-oracle', description: 'Reads the omens of the glade.', scope: 'global', hash, files: Object.entries(texts).map(([file, text]) => ({ path: file, bytes: text.length })) };
    const skillFiles = async (wanted: string, file: string): Promise<SkillFile | undefined> => (wanted === hash && texts[file] !== undefined ? { path: file, encoding: 'utf8', content: texts[file]!, bytes: texts[file]!.length } : undefined);
    const { h, called, failed, committed } = await play(input(example('script'), { skills: [skill] }), { skillFiles });
    assert.deepEqual(failed, []);
    assert.equal(called[0], 'skill_run_script');
    assert.match(committed, /The forest says: [a-z][^.]*; [a-z]/);
    assert.match((await h.files('run-test-1')).get('scratch/omens.md') ?? '', /^# Omens\n\n- glade: /);
});

test('state: a first "trust" is set to 1, a later one raised by a patch; the commit carries the change', async () => {
    const first = await play(input(example('state')));
    assert.deepEqual(first.called.slice(0, 2), ['state_get', 'state_set']);
    assert.deepEqual(first.h.commits.at(-1)!.state?.[0], { scope: 'chat', ops: [{ op: 'replace', path: '/trust', value: 1 }], values: { trust: 1 } });
    assert.match(first.committed, /trust is now 1/);

    const later = await play(input(example('state'), { state: { ...EMPTY_STATE, chat: { values: { trust: '2' } } } }));
    assert.deepEqual(later.called.slice(0, 2), ['state_get', 'state_patch']);
    assert.match(later.committed, /trust is now 3/);
    assert.equal(later.h.commits.at(-1)!.state?.[0]?.scope, 'chat');
});

test('a fix run revises the reply as asked and never writes its own instructions', async () => {
    const reply = '*Seraphina smiles.* "Rest now."\n\n*She pokes the fire.* "The night is long."\n\n*(Demo: a note.)*';
    const shorter = await play(input('ignored', { fix: { messageIndex: 2, text: reply, request: 'make it shorter' } }));
    assert.deepEqual(shorter.called, ['workspace_apply_patch', 'workspace_commit', 'workspace_finish']);
    assert.equal(shorter.committed, '*Seraphina smiles.* "Rest now."\n\n*(Demo: a note.)*');

    const gentler = await play(input('ignored', { fix: { messageIndex: 2, text: reply, request: 'be kinder' } }));
    assert.match(gentler.committed, /"The night is long\."\n\n\*Her voice softens\.\*.*\n\n\*\(Demo: a note\.\)\*$/s);
    for (const text of [shorter.committed, gentler.committed]) assert.doesNotMatch(text, /Revise your reply|Request:|be kinder|make it shorter/);
});

test('a director reads the active lore, writes a brief with what the user asked, and finishes without a commit', async () => {
    const { h, called, committed } = await play(input('Good morning.', { phase: 'before', profile: DIRECTOR_PROFILE }));
    assert.deepEqual(called, ['worldinfo_read_activated', 'workspace_write_file', 'workspace_finish']);
    assert.equal(committed, '', 'a director never commits');
    const brief = (await h.files('run-test-1')).get('output/brief.md') ?? '';
    assert.match(brief, /^Brief from the demo director for Seraphina's next reply:\n- The user just said: Good morning\.\n/);
    assert.match(brief, /\(1 entries are active this turn\)/);
});

/** A keeper after the reply `reply` (the last message of the prefix). */
function keeperInput(profile: Profile, reply: string, overrides: Partial<RunInput> = {}): RunInput {
    const base = input('Hello.', { phase: 'after', profile, ...overrides });
    const prefix = [...base.prefix, { index: base.prefix.length, role: 'assistant' as const, name: 'Seraphina', text: reply, hidden: false, agentRunId: null }];
    return { ...base, prefix, prompt: [...base.prompt, { role: 'assistant', content: reply }], follows: { messageIndex: prefix.length - 1 } };
}

test('keepers: the memory keeper notes the reply in persist/threads.md, the lore keeper proposes it, the state keeper counts it', async () => {
    const reply = '*Seraphina hands you a lantern.* "Take this."\n\n*(Demo: a note.)*';
    const memory = await play(keeperInput(MEMORY_KEEPER_PROFILE, reply));
    assert.deepEqual(memory.called, ['workspace_read_file', 'workspace_write_file', 'workspace_finish']);
    assert.equal((await memory.h.files('run-test-1')).get('persist/threads.md'), '---\ntitle: Open threads\npinned: true\n---\n# Threads\n\n- Seraphina hands you a lantern. Take this.');

    const lore = await play(keeperInput(LORE_KEEPER_PROFILE, reply));
    assert.deepEqual(lore.called, ['worldinfo_search', 'worldinfo_propose', 'workspace_finish']);
    assert.equal(payloadsOf(lore.events, 'lore-propose')[0]?.after.content, 'The latest scene: Seraphina hands you a lantern. Take this.');

    const state = await play(keeperInput(STATE_KEEPER_PROFILE, reply, { state: { ...EMPTY_STATE, chat: { values: { replies_seen: '4' } } } }));
    assert.deepEqual(state.called, ['state_get', 'state_patch', 'workspace_finish']);
    assert.equal(payloadsOf(state.events, 'state-change').length, 1);
});

test('a scenario whose tool the profile does not offer becomes a reply that says how to get it', async () => {
    const { called, committed } = await play(input(example('roll'), { profile: BUILT_IN_PROFILES.find((profile) => profile.id === 'writer')! }));
    assert.deepEqual(called, ['workspace_write_file', 'workspace_commit', 'workspace_finish']);
    assert.match(committed, /offers no dice\. Pick the Demo or the Game Master profile: \/agent profile demo/);
});
