// Run: node --import tsx --test tests/unit/ext-tools.test.ts
import '../../src/contract/zod-setup';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExtToolCallReply, ExtToolSpec } from '../../src/contract/ext-tools';
import { ProfileSchema, WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import { Budget } from '../../src/engine/agents/budget';
import { Dispatcher } from '../../src/engine/agents/dispatch';
import { extToolDefinitions } from '../../src/tools/ext';
import type { ToolContext } from '../../src/tools/tool';
import { sampleRunInput } from '../fixtures/run-input';

const WEATHER: ExtToolSpec = {
    name: 'GetWeather',
    displayName: 'Weather',
    description: 'The weather in a city.',
    parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1 } }, required: ['city'] },
};

function setup(allow: string[], reply: ExtToolCallReply = { ok: true, text: 'sunny' }) {
    const calls: Array<{ name: string; args: unknown }> = [];
    const asked: boolean[] = [];
    const tools = extToolDefinitions([WEATHER], async (name, args, _signal, ask) => {
        calls.push({ name, args });
        asked.push(ask);
        return reply;
    });
    const profile: Profile = { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, allow: [...WRITER_PROFILE.tools.allow, ...allow] } };
    const dispatcher = new Dispatcher(tools, profile, new Budget(profile.tools));
    return { dispatcher, calls, asked };
}

/** Only what the ext tools read of their context: the signal, and the calling agent's profile in its input. */
const contextFor = (profile: Profile) => ({ signal: new AbortController().signal, input: sampleRunInput({ profile }) }) as ToolContext;
const context = contextFor(WRITER_PROFILE);

test('other extensions\' tools are offered only when the profile names them: "*" does not reach them', () => {
    assert.deepEqual(setup([]).dispatcher.wireTools(false), [], 'none by default');
    assert.deepEqual(setup(['*']).dispatcher.wireTools(false), [], '"*" is not enough');
    for (const allow of [['ext.*'], ['ext.GetWeather']]) {
        const [tool] = setup(allow).dispatcher.wireTools(false);
        assert.equal(tool?.function.name, 'ext_GetWeather');
        assert.deepEqual(tool?.function.parameters, WEATHER.parameters, 'the provider sees the registered JSON schema');
    }
    const denied: Profile = { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, allow: ['ext.*'], deny: ['ext.GetWeather'] } };
    assert.deepEqual(new Dispatcher(extToolDefinitions([WEATHER], async () => ({ ok: true, text: '' })), denied, new Budget(denied.tools)).wireTools(false), []);
});

test('a profile may name ext tools, and ask before each call', () => {
    const parsed = ProfileSchema.safeParse({ ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, allow: [...WRITER_PROFILE.tools.allow, 'ext.GetWeather', 'ext.*'] }, extTools: { askBeforeCall: true } });
    assert.ok(parsed.success, parsed.success ? '' : parsed.error.message);
    assert.equal(parsed.data.extTools?.askBeforeCall, true);
});

test('arguments are checked against the tool\'s JSON schema before the page is asked', async () => {
    const { dispatcher, calls } = setup(['ext.*']);
    const bad = dispatcher.prepare({ id: 'c1', name: 'ext_GetWeather', argumentsText: '{"days":0}' }, false);
    assert.equal(bad.ready, false);
    const outcome = await dispatcher.execute(bad, context);
    assert.equal(!outcome.ok && outcome.error.code, 'tool.invalid_arguments');
    assert.equal(calls.length, 0);

    const good = dispatcher.prepare({ id: 'c2', name: 'ext_GetWeather', argumentsText: '{"city":"Paris","days":2}' }, false);
    const result = await dispatcher.execute(good, context);
    assert.deepEqual(calls, [{ name: 'GetWeather', args: { city: 'Paris', days: 2 } }]);
    assert.equal(result.ok && result.result.content, 'sunny');
});

test('the calling agent\'s own profile says whether the user is asked first (a sub-agent\'s, not the root\'s)', async () => {
    const { dispatcher, asked } = setup(['ext.*']);
    const call = () => dispatcher.prepare({ id: 'c', name: 'ext_GetWeather', argumentsText: '{"city":"Oslo"}' }, false);
    await dispatcher.execute(call(), context);
    await dispatcher.execute(call(), contextFor({ ...WRITER_PROFILE, extTools: { askBeforeCall: true } }));
    await dispatcher.execute(call(), contextFor({ ...WRITER_PROFILE, extTools: { askBeforeCall: false } }));
    // A profile that says nothing asks (issue 39 §8): the user opts out per profile.
    await dispatcher.execute(call(), contextFor({ ...WRITER_PROFILE }));
    assert.deepEqual(asked, [true, true, false, true]);
});

test('a denial, a time-out and a failure are recoverable tool errors with their codes', async () => {
    for (const code of ['tool.denied_by_user', 'tool.timeout', 'tool.execution_failed'] as const) {
        const { dispatcher } = setup(['ext.*'], { ok: false, code, message: 'no' });
        const outcome = await dispatcher.execute(dispatcher.prepare({ id: 'c', name: 'ext.GetWeather', argumentsText: '{"city":"Oslo"}' }, false), context);
        assert.equal(!outcome.ok && outcome.error.code, code);
    }
});
