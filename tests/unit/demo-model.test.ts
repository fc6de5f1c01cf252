// The demo model's decisions per request (scripts/demo-model.ts): which scenario the user's words choose,
// what it does with what a request offers, and the demo setup it relies on. tests/unit/demo-runs.test.ts
// plays the scenarios against the real engine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { isToolAllowed, ProfileSchema } from '../../src/contract/profile';
import { demoDelayMs, demoResponder, DEFAULT_DEMO_DELAY_MS } from '../../scripts/demo-model';
import { addDemoProfile, DEMO_PROFILE, patchDemoSettings } from '../../scripts/demo-setup';
import { DEMO_EXT_TOOL, sampleArguments } from '../../scripts/demo/ext-tool-call';
import { DEMO_SCRIPT, DEMO_SKILL } from '../../scripts/demo/reply-agent';
import { scenarioFor, SCENARIOS } from '../../scripts/demo/scenarios';
import type { MockTurn, RecordedRequest } from '../harness/mock-model';

const ROOT = path.resolve(import.meta.dirname, '../..');
const REPLY_SYSTEM = "You are running in Tavern Agent's Agent Mode inside SillyTavern. Your task: write Seraphina's next reply in this conversation.";
const REPLY_TOOLS = ['workspace_write_file', 'workspace_read_file', 'workspace_apply_patch', 'workspace_commit', 'workspace_finish'];

function request(body: unknown): RecordedRequest {
    return { seq: 1, at: 0, method: 'POST', path: '/v1/chat/completions', headers: {}, body, dialect: 'openai', kind: 'generate' };
}

const tool = (name: string, parameters: unknown = { type: 'object', properties: {} }) => ({ type: 'function', function: { name, description: '', parameters } });

/** A reply agent's request: the user said `said`, the run made `turns` so far (each a call and its result). */
function replyRequest(said: string, tools: Array<string | ReturnType<typeof tool>>, turns: Array<{ name: string; result: string }> = [], system = REPLY_SYSTEM): RecordedRequest {
    const messages: unknown[] = [{ role: 'system', content: system }, { role: 'assistant', content: 'You wake in the glade.' }, { role: 'user', content: said }];
    turns.forEach((turn, i) => {
        messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: turn.name, arguments: '{}' } }] });
        messages.push({ role: 'tool', tool_call_id: `c${i}`, content: turn.result });
    });
    return request({ messages, tools: tools.map((t) => (typeof t === 'string' ? tool(t) : t)) });
}

const callsOf = (turn: MockTurn | undefined) => (turn?.toolCalls ?? []).map((call) => call.name);
const written = (turn: MockTurn | undefined) => String((turn?.toolCalls?.[0]?.arguments as { content?: string } | undefined)?.content ?? '');

test('each scenario is chosen by its words, whole words in any case, and the example the docs show chooses it', () => {
    for (const scenario of SCENARIOS) assert.equal(scenarioFor(scenario.example), scenario.id, scenario.example);
    assert.equal(scenarioFor('ROLL the dice'), 'roll');
    assert.equal(scenarioFor('The sub-agent, please'), 'delegate');
    assert.equal(scenarioFor('She was rolling down the hill'), 'default', 'a word inside another word does not count');
    assert.equal(scenarioFor('Good morning.'), 'default');
    assert.equal(scenarioFor(''), 'default');
});

test('approve: it calls the demo extension\'s tool, and the reply follows the approval or the denial', () => {
    const tools = [...REPLY_TOOLS, DEMO_EXT_TOOL, 'ext_Other'];
    const first = demoResponder(replyRequest('Light the lanterns.', tools))!;
    assert.deepEqual(first.toolCalls, [{ name: DEMO_EXT_TOOL, arguments: { color: 'silver' } }]);
    const approved = demoResponder(replyRequest('Light the lanterns.', tools, [{ name: DEMO_EXT_TOOL, result: 'The lanterns of the glade are lit, glowing silver.' }]))!;
    assert.match(written(approved), /lanterns of the glade glow.*you approved the tool call/s);
    const denied = demoResponder(replyRequest('Light the lanterns.', tools, [{ name: DEMO_EXT_TOOL, result: 'ERROR tool.denied_by_user: The user refused this call.' }]))!;
    assert.match(written(denied), /The lanterns stay dark.*you denied the tool call/s);
});

test('approve: another extension\'s tool gets arguments made from its schema; with none offered the reply says how to get one', () => {
    const weather = tool('ext_GetWeather', { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 }, unit: { enum: ['C', 'F'] }, note: { type: 'string' } }, required: ['city', 'days', 'unit'] });
    const turn = demoResponder(replyRequest('Approve a tool call.', [...REPLY_TOOLS, weather]))!;
    assert.deepEqual(turn.toolCalls, [{ name: 'ext_GetWeather', arguments: { city: 'silver', days: 1, unit: 'C' } }]);
    assert.deepEqual(sampleArguments({ properties: { a: { type: 'boolean' } } }), { a: true }, 'without "required", every property');
    const none = demoResponder(replyRequest('Approve a tool call.', REPLY_TOOLS))!;
    assert.deepEqual(callsOf(none), ['workspace_write_file']);
    assert.match(written(none), /no other extension's tool is offered.*\/agent profile demo/);
});

test('script: without the demo skill in the request, the reply says it is missing instead of calling the script', () => {
    const tools = [...REPLY_TOOLS, 'skill_run_script'];
    const listed = demoResponder(replyRequest('Read the omens.', tools, [], `${REPLY_SYSTEM}\nSkills: …\n- ${DEMO_SKILL}: Reads the omens.`))!;
    assert.deepEqual(listed.toolCalls, [{ name: 'skill_run_script', arguments: { skill: DEMO_SKILL, script: DEMO_SCRIPT, args: { question: 'glade' } } }]);
    const unlisted = demoResponder(replyRequest('Read the omens.', tools))!;
    assert.match(written(unlisted), /the skill glade-oracle is not installed/);
});

test('fix, director and keeper words answer with what to do to try them', () => {
    const hints = { 'How do I fix a reply?': /\/agent fix make it shorter/, 'How does the director work?': /\/agent pipeline before=director reply=sillytavern/, 'What do the keepers do?': /\/agent pipeline after=memory-keeper,lore-keeper,state-keeper/, help: /"delegate", "lore", "roll"/ };
    for (const [said, expected] of Object.entries(hints)) {
        const turn = demoResponder(replyRequest(said, REPLY_TOOLS))!;
        assert.deepEqual(callsOf(turn), ['workspace_write_file'], said);
        assert.match(written(turn), expected, said);
        assert.deepEqual(callsOf(demoResponder(replyRequest(said, REPLY_TOOLS, [{ name: 'workspace_write_file', result: 'ok' }]))), ['workspace_commit', 'workspace_finish']);
    }
});

test('without tools it answers as SillyTavern\'s own generation, in character, and knows when a director\'s brief was in the prompt', () => {
    const plain = demoResponder(request({ messages: [{ role: 'system', content: "Write Seraphina's next reply." }, { role: 'user', content: 'I love this forest!' }] }))!;
    assert.equal(plain.toolCalls, undefined);
    assert.match(plain.text!, /^\*Seraphina smiles/);
    assert.match(plain.text!, /Switch Agent Mode on/);
    assert.doesNotMatch(plain.text!, /I love this forest/, "she never says the user's words as her own");
    const briefed = demoResponder(request({ messages: [{ role: 'user', content: 'Hi' }, { role: 'system', content: 'Brief from the demo director for Seraphina\'s next reply:\n- …' }] }))!;
    assert.match(briefed.text!, /the director's brief was in its prompt/);
    assert.match(demoResponder(request(null))!.text!, /^\*She smiles/, 'a body of any shape gets an answer');
});

test('a background run started by a script writes its answer to summaries/summary.md and finishes', () => {
    const system = 'You are Writer … This run was started by a script as a background task.';
    const tools = ['workspace_write_file', 'workspace_finish'];
    const first = demoResponder(replyRequest('Summarise the chat.', tools, [], system))!;
    assert.equal((first.toolCalls?.[0]?.arguments as { path: string }).path, 'summaries/summary.md');
    assert.deepEqual(callsOf(demoResponder(replyRequest('Summarise the chat.', tools, [{ name: 'workspace_write_file', result: 'ok' }], system))), ['workspace_finish']);
});

test('a demo turn takes DEMO_DELAY_MS (0.6 s unless set), so the live view and Stop can be tried', () => {
    assert.equal(DEFAULT_DEMO_DELAY_MS, 600);
    assert.equal(demoDelayMs({}), 600);
    assert.equal(demoDelayMs({ DEMO_DELAY_MS: '0' }), 0);
    assert.equal(demoDelayMs({ DEMO_DELAY_MS: '1500' }), 1500);
    assert.equal(demoDelayMs({ DEMO_DELAY_MS: 'soon' }), 600, 'a value that is no number keeps the default');
    assert.equal(demoResponder(replyRequest('Hi', REPLY_TOOLS), 600)!.delayMs, 600);
    assert.equal(demoResponder(replyRequest('Hi', REPLY_TOOLS), 0)!.delayMs, undefined);
});

test('the Demo profile validates, allows dice and the demo extension\'s tool (asking first), and is the first start\'s default', () => {
    const parsed = ProfileSchema.parse(DEMO_PROFILE);
    assert.ok(isToolAllowed(parsed, 'dice.roll'));
    assert.ok(isToolAllowed(parsed, 'ext.GladeLanterns'));
    assert.ok(!isToolAllowed(parsed, 'ext.SomethingElse'), 'only the demo\'s own extension tool');
    assert.equal(parsed.extTools?.askBeforeCall, true);
    const settings: Record<string, any> = { extension_settings: { disabledExtensions: ['tts'] } }; // settings.json, as SillyTavern reads it
    patchDemoSettings(settings);
    assert.equal(settings.extension_settings.tavern_agent.profiles.demo.id, 'demo');
    assert.equal(settings.extension_settings.tavern_agent_panel.defaultProfileId, 'demo');
    assert.deepEqual(settings.extension_settings.disabledExtensions, ['tts'], 'other settings are kept');
    const edited = { extension_settings: { tavern_agent: { profiles: { demo: { id: 'demo', displayName: 'Mine' } } } } };
    assert.equal(addDemoProfile(edited), false, 'a Demo profile the user changed is kept');
    assert.equal(edited.extension_settings.tavern_agent.profiles.demo.displayName, 'Mine');
});

test('the demo extension registers the tool the model calls, and ships the skill and script it runs', () => {
    const extension = fs.readFileSync(path.join(ROOT, 'scripts/demo-extension/index.js'), 'utf8');
    assert.match(extension, new RegExp(`name: '${DEMO_EXT_TOOL.slice('ext_'.length)}'`));
    assert.match(extension, new RegExp(`const SKILL = '${DEMO_SKILL}'`));
    const skill = fs.readFileSync(path.join(ROOT, `scripts/demo-extension/skill/${DEMO_SKILL}/SKILL.md`), 'utf8');
    assert.match(skill, new RegExp(`^---\\nname: ${DEMO_SKILL}\\n`));
    assert.ok(fs.existsSync(path.join(ROOT, `scripts/demo-extension/skill/${DEMO_SKILL}/scripts/${DEMO_SCRIPT}.js`)));
});

test('README and docs/demo.md name what to type for every scenario', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const guide = fs.readFileSync(path.join(ROOT, 'docs/demo.md'), 'utf8');
    for (const scenario of SCENARIOS.filter((s) => !['fix', 'director', 'keeper', 'help'].includes(s.id))) {
        assert.ok(guide.includes(scenario.example), `docs/demo.md shows "${scenario.example}"`);
        assert.ok(readme.includes(scenario.example), `README.md shows "${scenario.example}"`);
    }
    for (const command of ['/agent fix make it shorter', '/agent pipeline before=director reply=sillytavern', '/agent pipeline after=memory-keeper,lore-keeper,state-keeper']) {
        assert.ok(guide.includes(command) && readme.includes(command), command);
    }
});
