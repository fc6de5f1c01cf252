// Run: node --import tsx --test tests/unit/stream-sources.test.ts
// Cohere and AI21 streams as SillyTavern 1.19's backend forwards them (chat-completions.js pipes the
// provider's SSE unchanged: Cohere v2 /chat events, AI21's OpenAI-style /chat/completions chunks), and the
// live view of a streamed Text Completion turn.
import '../../src/contract/zod-setup';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeModelResponse } from '../../src/engine/model/decode';
import { createStreamAccumulator, parseSse } from '../../src/host/model/stream-accumulate';
import { textPartial } from '../../src/host/model/text-completion/text-partial';
import { profileStreams } from '../../src/host/model/connection-stream';

const sse = (events: Array<{ event?: string; data: unknown }>, eol = '\n\n') =>
    events.map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}${eol}`).join('');

/** Feeds SSE text in odd slices, as network reads arrive; returns the result and the partials seen. */
function accumulate(source: string, text: string) {
    const accumulator = createStreamAccumulator(source);
    let buffer = '';
    const partials: Array<ReturnType<typeof accumulator.partial>> = [];
    for (let i = 0; i < text.length; i += 29) {
        const parsed = parseSse(buffer + text.slice(i, i + 29));
        buffer = parsed.rest;
        parsed.events.forEach((event) => accumulator.push(event));
        partials.push(accumulator.partial());
    }
    parseSse(`${buffer}\n\n`).events.forEach((event) => accumulator.push(event));
    const decoded = decodeModelResponse(accumulator.result(), { round: 1, source });
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.message);
    return { turn: decoded.turn, partials };
}

// Cohere v2 chat streaming, in the shape its API documents (event names repeated in `type`).
const cohereText = sse([
    { event: 'message-start', data: { id: 'c0ffee', type: 'message-start', delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } } } },
    { event: 'content-start', data: { type: 'content-start', index: 0, delta: { message: { content: { type: 'thinking', thinking: '' } } } } },
    { event: 'content-delta', data: { type: 'content-delta', index: 0, delta: { message: { content: { thinking: 'The user greets; ' } } } } },
    { event: 'content-delta', data: { type: 'content-delta', index: 0, delta: { message: { content: { thinking: 'answer warmly.' } } } } },
    { event: 'content-end', data: { type: 'content-end', index: 0 } },
    { event: 'content-start', data: { type: 'content-start', index: 1, delta: { message: { content: { type: 'text', text: '' } } } } },
    ...['The glade ', 'is quiet ', 'tonight.'].map((text) => ({ event: 'content-delta', data: { type: 'content-delta', index: 1, delta: { message: { content: { text } } }, logprobs: null } })),
    { event: 'content-end', data: { type: 'content-end', index: 1 } },
    { event: 'message-end', data: { type: 'message-end', delta: { finish_reason: 'COMPLETE', usage: { billed_units: { input_tokens: 3, output_tokens: 5 }, tokens: { input_tokens: 69, output_tokens: 5 } } } } },
]);

const cohereTools = sse([
    { event: 'message-start', data: { id: 'c0ffee2', type: 'message-start', delta: { message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] } } } },
    { event: 'tool-plan-delta', data: { type: 'tool-plan-delta', delta: { message: { tool_plan: 'I will search the chat, ' } } } },
    { event: 'tool-plan-delta', data: { type: 'tool-plan-delta', delta: { message: { tool_plan: 'then finish.' } } } },
    { event: 'tool-call-start', data: { type: 'tool-call-start', index: 0, delta: { message: { tool_calls: { id: 'chat_search_x1', type: 'function', function: { name: 'chat_search', arguments: '' } } } } } },
    ...['{"que', 'ry": "for', 'est"}'].map((piece) => ({ event: 'tool-call-delta', data: { type: 'tool-call-delta', index: 0, delta: { message: { tool_calls: { function: { arguments: piece } } } } } })),
    { event: 'tool-call-end', data: { type: 'tool-call-end', index: 0 } },
    { event: 'tool-call-start', data: { type: 'tool-call-start', index: 1, delta: { message: { tool_calls: { id: 'workspace_finish_x2', type: 'function', function: { name: 'workspace_finish', arguments: '' } } } } } },
    { event: 'tool-call-delta', data: { type: 'tool-call-delta', index: 1, delta: { message: { tool_calls: { function: { arguments: '{}' } } } } } },
    { event: 'tool-call-end', data: { type: 'tool-call-end', index: 1 } },
    { event: 'message-end', data: { type: 'message-end', delta: { finish_reason: 'TOOL_CALL', usage: { tokens: { input_tokens: 120, output_tokens: 30 } } } } },
]);

test('a streamed Cohere answer accumulates to its text, thinking and token counts', () => {
    const { turn, partials } = accumulate('cohere', cohereText);
    assert.equal(turn.text, 'The glade is quiet tonight.');
    assert.equal(turn.reasoning, 'The user greets; answer warmly.');
    assert.equal(turn.finishReason, 'COMPLETE');
    assert.deepEqual(turn.usage && { input: turn.usage.input, output: turn.usage.output }, { input: 69, output: 5 });
    assert.ok(partials.some((p) => p.text.length > 0 && p.text.length < turn.text.length), 'partial text was seen before the end');
    assert.ok(partials.some((p) => p.reasoning.length > 0 && p.text === ''), 'reasoning arrived before the text');
});

test('a streamed Cohere tool turn accumulates its plan and calls, arguments joined piece by piece', () => {
    const { turn, partials } = accumulate('cohere', cohereTools);
    assert.equal(turn.text, '');
    assert.equal(turn.reasoning, 'I will search the chat, then finish.');
    assert.deepEqual(
        turn.toolCalls.map((c) => ({ id: c.id, name: c.name, args: JSON.parse(c.argumentsText) as unknown })),
        [
            { id: 'chat_search_x1', name: 'chat_search', args: { query: 'forest' } },
            { id: 'workspace_finish_x2', name: 'workspace_finish', args: {} },
        ],
    );
    assert.ok(partials.some((p) => p.toolCalls[0]?.name === 'chat_search' && p.toolCalls[0].arguments.length > 0 && p.toolCalls[0].arguments !== '{"query": "forest"}'), 'partial arguments were seen');
});

// AI21 Jamba /chat/completions streaming: OpenAI chat.completion.chunk objects, usage on the last chunk.
const ai21Chunk = (delta: unknown, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
    data: { id: 'chatcmpl-ai21', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra },
});

test('a streamed AI21 answer decodes through the OpenAI-shaped accumulator', () => {
    const text = sse([
        ai21Chunk({ role: 'assistant' }),
        ...['Seraphina ', 'smiles ', 'softly.'].map((content) => ai21Chunk({ content })),
        ai21Chunk({ content: '' }, 'stop', { usage: { prompt_tokens: 40, completion_tokens: 6, total_tokens: 46 } }),
        { data: '[DONE]' },
    ]);
    const { turn, partials } = accumulate('ai21', text);
    assert.equal(turn.text, 'Seraphina smiles softly.');
    assert.equal(turn.finishReason, 'stop');
    assert.deepEqual(turn.usage && { input: turn.usage.input, output: turn.usage.output }, { input: 40, output: 6 });
    assert.ok(partials.some((p) => p.text.length > 0 && p.text.length < turn.text.length));
});

test('an AI21 tool call streamed without indexes joins its argument pieces into one call', () => {
    const text = sse([
        ai21Chunk({ role: 'assistant', content: null }),
        ai21Chunk({ tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'chat_search', arguments: '{"query":' } }] }),
        ai21Chunk({ tool_calls: [{ function: { arguments: ' "forest"}' } }] }),
        ai21Chunk({ tool_calls: [{ id: 'call_2', type: 'function', function: { name: 'workspace_finish', arguments: '{}' } }] }),
        ai21Chunk({}, 'tool_calls'),
        { data: '[DONE]' },
    ]);
    const { turn } = accumulate('ai21', text);
    assert.deepEqual(
        turn.toolCalls.map((c) => ({ name: c.name, args: JSON.parse(c.argumentsText) as unknown })),
        [
            { name: 'chat_search', args: { query: 'forest' } },
            { name: 'workspace_finish', args: {} },
        ],
    );
});

test('a streamed Text Completion turn shows its narration, reasoning and calls as far as they came', () => {
    const call = '<tool_call>\n{"name": "workspace_write_file", "arguments": {"path": "output/main.md", "content": "Hi"}}\n</tool_call>';
    assert.deepEqual(textPartial('I will write it.\n<tool_call>\n{"name": "workspace_wr'), { text: 'I will write it.', reasoning: '', toolCalls: [{ name: '', arguments: '' }] });
    assert.deepEqual(textPartial(`<think>plan first</think>I will write it.\n${call.slice(0, call.indexOf('main.md'))}`).toolCalls, [{ name: 'workspace_write_file', arguments: '{"path": "output/' }]);
    assert.equal(textPartial('<think>still planning').reasoning, 'still planning');
    const whole = textPartial(`Done soon.\n${call}\nAfter.`);
    assert.equal(whole.text, 'Done soon.\n\nAfter.');
    assert.deepEqual(whole.toolCalls, [{ name: 'workspace_write_file', arguments: '{"path": "output/main.md", "content": "Hi"}' }]);
});

test("a connection profile streams as its preset's Streaming says, else as the user's setting", () => {
    assert.equal(profileStreams({ stream_openai: true }, 'stream_openai', false), true);
    assert.equal(profileStreams({ stream_openai: false }, 'stream_openai', true), false);
    assert.equal(profileStreams({ temperature: 1 }, 'stream_openai', true), true, 'a preset without the switch leaves the user’s');
    assert.equal(profileStreams(null, 'streaming', false), false);
    assert.equal(profileStreams({ streaming: true }, 'streaming', false), true);
});
