// Unit tests of the provider decoders: SillyTavern's non-streaming /api/backends/chat-completions/generate bodies → ModelTurn.
// Run: node --import tsx --test tests/unit/decode.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ModelTurnSchema, type ModelTurn } from '../../src/contract/model';
import { decodeClaude, decodeGemini, decodeModelResponse, decodeOpenAi, dialectOfShape, type DecodeResult } from '../../src/engine/model/decode';
import { claude as mockClaude } from '../harness/mock-model/claude';
import { gemini as mockGemini } from '../harness/mock-model/gemini';
import { openai as mockOpenAi } from '../harness/mock-model/openai';
import type { MockTurn } from '../harness/mock-model/types';

// What SillyTavern's backend sends the page, copied from src/endpoints/backends/chat-completions.js (non-stream).
/** sendClaudeRequest: `{ choices: [{ message: { content: content[0].text || '' } }], content }` — usage and stop_reason are dropped. */
function stClaude(anthropic: { content: object[] }) {
    const responseText = (anthropic?.content?.[0] as { text?: string } | undefined)?.text || '';
    return { choices: [{ message: { content: responseText } }], content: anthropic.content };
}
/** sendMakerSuiteRequest: `{ choices: [{ message: { content: responseText } }], responseContent }` — usageMetadata is dropped. */
function stGemini(google: { candidates: { content: { parts: { text?: unknown; thought?: unknown }[] } }[] }) {
    const responseContent = google.candidates[0]!.content;
    const responseText = responseContent.parts.filter((part) => !part.thought).map((part) => part.text).join('\n\n');
    return { choices: [{ message: { content: responseText } }], responseContent };
}
/** OpenAI-compatible sources: the provider's JSON, unchanged. */
const stOpenAi = <T>(body: T): T => body;

function turnOf(result: DecodeResult): ModelTurn {
    if (!result.ok) assert.fail(`expected a turn, got: ${result.message}`);
    ModelTurnSchema.parse(result.turn);
    return result.turn;
}
function failureOf(result: DecodeResult): string {
    if (result.ok) assert.fail(`expected a failure, got: ${JSON.stringify(result.turn)}`);
    assert.ok(result.message.length > 0 && result.message.length < 200, result.message);
    return result.message;
}

const weather = { city: 'Paris', unit: 'c' };

describe('openai', () => {
    const completion = (message: object, extra: object = {}) => stOpenAi({
        id: 'chatcmpl-9x',
        object: 'chat.completion',
        created: 1730000000,
        model: 'gpt-4o-mini-2024-07-18',
        choices: [{ index: 0, message: { role: 'assistant', refusal: null, annotations: [], ...message }, logprobs: null, finish_reason: 'stop' }],
        usage: { prompt_tokens: 120, completion_tokens: 18, total_tokens: 138, prompt_tokens_details: { cached_tokens: 0 } },
        system_fingerprint: 'fp_1',
        ...extra,
    });

    it('decodes a text reply with usage and finish reason', () => {
        const turn = turnOf(decodeOpenAi(completion({ content: 'Hello there.' }), { round: 0 }));
        assert.deepEqual(turn, { text: 'Hello there.', reasoning: '', toolCalls: [], usage: { input: 120, output: 18 }, finishReason: 'stop', native: {} });
    });

    it('decodes several tool calls, keeping argument strings verbatim', () => {
        const raw = completion({
            content: null,
            tool_calls: [
                { id: 'call_a1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris","unit":"c"}' } },
                { id: 'call_b2', type: 'function', function: { name: 'read_file', arguments: '{"path":"notes.md"}' } },
                { id: 'call_c3', type: 'function', function: { name: 'broken', arguments: '{"unterminated' } },
            ],
        });
        (raw.choices[0] as { finish_reason: string }).finish_reason = 'tool_calls';
        const turn = turnOf(decodeOpenAi(raw, { round: 2 }));
        assert.equal(turn.text, '');
        assert.equal(turn.finishReason, 'tool_calls');
        assert.deepEqual(turn.toolCalls, [
            { id: 'call_a1', name: 'get_weather', argumentsText: '{"city":"Paris","unit":"c"}' },
            { id: 'call_b2', name: 'read_file', argumentsText: '{"path":"notes.md"}' },
            { id: 'call_c3', name: 'broken', argumentsText: '{"unterminated' },
        ]);
    });

    it('stringifies arguments given as an object and fills missing ids stably', () => {
        const raw = completion({
            content: '',
            tool_calls: [
                { type: 'function', function: { name: 'get_weather', arguments: weather } },
                { id: '', type: 'function', function: { name: 'noop' } },
                { id: 'dup', type: 'function', function: { name: 'a', arguments: '{}' } },
                { id: 'dup', type: 'function', function: { name: 'b', arguments: '{}' } },
            ],
        });
        const first = turnOf(decodeOpenAi(raw, { round: 3 }));
        assert.deepEqual(first.toolCalls, [
            { id: 'call-r3-0', name: 'get_weather', argumentsText: JSON.stringify(weather) },
            { id: 'call-r3-1', name: 'noop', argumentsText: '{}' },
            { id: 'dup', name: 'a', argumentsText: '{}' },
            { id: 'call-r3-3', name: 'b', argumentsText: '{}' },
        ]);
        assert.deepEqual(turnOf(decodeOpenAi(raw, { round: 3 })).toolCalls, first.toolCalls);
    });

    it('reads reasoning_content (DeepSeek/custom) and reasoning (OpenRouter), preferring reasoning_content', () => {
        assert.equal(turnOf(decodeOpenAi(completion({ content: 'x', reasoning_content: 'Think A' }), { round: 0 })).reasoning, 'Think A');
        assert.equal(turnOf(decodeOpenAi(completion({ content: 'x', reasoning: 'Think B' }), { round: 0 })).reasoning, 'Think B');
        assert.equal(turnOf(decodeOpenAi(completion({ content: 'x', reasoning_content: 'A', reasoning: 'B' }), { round: 0 })).reasoning, 'A');
        assert.equal(turnOf(decodeOpenAi(completion({ content: 'x', reasoning_content: '', reasoning: 'B' }), { round: 0 })).reasoning, 'B');
    });

    it('reads OpenRouter encrypted reasoning details as signatures', () => {
        const raw = completion({
            content: '',
            reasoning: 'Plan.',
            reasoning_details: [
                { type: 'reasoning.text', text: 'Plan.', format: 'anthropic-claude-v1', index: 0 },
                { type: 'reasoning.encrypted', data: 'ENC-TURN', id: 'rs_1', format: 'google-gemini-v1', index: 1 },
                { type: 'reasoning.encrypted', data: 'ENC-CALL', id: 'tool_get_weather_x', format: 'google-gemini-v1', index: 2 },
            ],
            tool_calls: [{ id: 'tool_get_weather_x', type: 'function', function: { name: 'get_weather', arguments: '{}' } }],
        });
        const turn = turnOf(decodeOpenAi(raw, { round: 0 }));
        assert.equal(turn.reasoning, 'Plan.');
        assert.deepEqual(turn.native, { signature: 'ENC-TURN' });
        assert.equal(turn.toolCalls[0]!.signature, 'ENC-CALL');
    });

    it('joins content given as an array of parts; Mistral thinking parts are reasoning', () => {
        const raw = completion({
            content: [
                { type: 'thinking', thinking: [{ type: 'text', text: 'Let me see.' }] },
                { type: 'text', text: 'Part one, ' },
                { type: 'text', text: 'part two.' },
            ],
        });
        const turn = turnOf(decodeOpenAi(raw, { round: 0 }));
        assert.equal(turn.text, 'Part one, part two.');
        assert.equal(turn.reasoning, 'Let me see.');
    });

    it('finds the choice with index 0, else the first', () => {
        const raw = completion({ content: 'zero' });
        raw.choices = [{ ...raw.choices[0]!, index: 1, message: { ...raw.choices[0]!.message, ...{ content: 'one' } } }, raw.choices[0]!];
        assert.equal(turnOf(decodeOpenAi(raw, { round: 0 })).text, 'zero');
        const noIndex = { choices: [{ message: { role: 'assistant', content: 'first' } }] };
        const turn = turnOf(decodeOpenAi(noIndex, { round: 0 }));
        assert.deepEqual(turn, { text: 'first', reasoning: '', toolCalls: [], usage: null, finishReason: null, native: {} });
    });

    it('accepts an empty reply (text "", no tool calls)', () => {
        const turn = turnOf(decodeOpenAi(completion({ content: '' }), { round: 0 }));
        assert.equal(turn.text, '');
        assert.deepEqual(turn.toolCalls, []);
    });

    it("decodes Cohere v2's top-level message", () => {
        const raw = {
            id: 'c1',
            finish_reason: 'TOOL_CALL',
            message: {
                role: 'assistant',
                tool_plan: 'I will check the weather.',
                tool_calls: [{ id: 'get_weather_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
            },
            usage: { billed_units: { input_tokens: 10, output_tokens: 5 }, tokens: { input_tokens: 200, output_tokens: 20 } },
        };
        const turn = turnOf(decodeOpenAi(raw, { round: 0 }));
        assert.equal(turn.reasoning, 'I will check the weather.');
        assert.deepEqual(turn.toolCalls, [{ id: 'get_weather_1', name: 'get_weather', argumentsText: '{"city":"Paris"}' }]);
        assert.deepEqual(turn.usage, { input: 200, output: 20 });
        assert.equal(turn.finishReason, 'TOOL_CALL');
    });

    it('rejects malformed shapes', () => {
        const cases: [unknown, RegExp][] = [
            [null, /null/],
            ['Hello', /string/],
            [[], /array/],
            [{ error: { message: 'Bad Gateway' } }, /error: Bad Gateway/],
            [{ error: true }, /backend returned an error/],
            [{ choices: [] }, /no choices/],
            [{ object: 'chat.completion' }, /no choices/],
            [{ choices: [{ index: 0, finish_reason: 'stop' }] }, /no message/],
            [{ choices: [{ index: 0, message: { content: 42 } }] }, /content/],
            [completion({ content: null, tool_calls: [{ id: 'x', type: 'function', function: { arguments: '{}' } }] }), /tool_calls\[0\]\.function\.name: tool call has no name/],
            [completion({ content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: '', arguments: '{}' } }] }), /empty name/],
            [completion({ content: null, tool_calls: [{ id: 'x', type: 'function' }] }), /tool_calls\[0\]\.function/],
            [completion({ content: null, tool_calls: ['get_weather'] }), /tool_calls\[0\]/],
        ];
        for (const [raw, pattern] of cases) assert.match(failureOf(decodeOpenAi(raw, { round: 0 })), pattern);
    });
});

describe('claude', () => {
    /** An Anthropic Messages response as the API returns it; SillyTavern forwards only `content`. */
    const anthropic = (content: object[]) => ({
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5-20250929',
        content,
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 300, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 40 },
    });

    it('decodes a text reply as SillyTavern returns it (no usage, no stop reason)', () => {
        const raw = stClaude(anthropic([{ type: 'text', text: 'Hello ' }, { type: 'text', text: 'world.' }]));
        assert.deepEqual(raw.choices[0]!.message.content, 'Hello ');
        const turn = turnOf(decodeClaude(raw, { round: 0 }));
        assert.deepEqual(turn, { text: 'Hello world.', reasoning: '', toolCalls: [], usage: null, finishReason: null, native: {} });
    });

    it('decodes several tool_use blocks with input objects', () => {
        const raw = stClaude(anthropic([
            { type: 'text', text: 'Checking both.' },
            { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: weather },
            { type: 'tool_use', id: 'toolu_01B', name: 'read_file', input: { path: 'notes.md' } },
            { type: 'tool_use', id: 'toolu_01C', name: 'list_files', input: {} },
        ]));
        const turn = turnOf(decodeClaude(raw, { round: 1 }));
        assert.equal(turn.text, 'Checking both.');
        assert.deepEqual(turn.toolCalls, [
            { id: 'toolu_01A', name: 'get_weather', argumentsText: JSON.stringify(weather) },
            { id: 'toolu_01B', name: 'read_file', argumentsText: '{"path":"notes.md"}' },
            { id: 'toolu_01C', name: 'list_files', argumentsText: '{}' },
        ]);
    });

    it('reads thinking blocks as reasoning and keeps the last signature; skips redacted_thinking', () => {
        const raw = stClaude(anthropic([
            { type: 'thinking', thinking: 'First thought.', signature: 'EqQBsig1' },
            { type: 'redacted_thinking', data: 'EmwKAhgB' },
            { type: 'text', text: 'Answer.' },
            { type: 'thinking', thinking: 'Second thought.', signature: 'EqQBsig2' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: weather },
        ]));
        assert.equal(raw.choices[0]!.message.content, '', 'ST takes content[0].text only');
        const turn = turnOf(decodeClaude(raw, { round: 0 }));
        assert.equal(turn.reasoning, 'First thought.\n\nSecond thought.');
        assert.deepEqual(turn.native, { signature: 'EqQBsig2' });
        assert.equal(turn.text, 'Answer.');
        assert.equal(turn.toolCalls.length, 1);
        assert.equal(turn.toolCalls[0]!.signature, undefined);
    });

    it('reads usage (cache tokens count as input) and stop_reason from a raw Messages body', () => {
        const body = anthropic([{ type: 'text', text: 'Hi.' }]);
        body.usage = { input_tokens: 12, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000, output_tokens: 7 };
        const turn = turnOf(decodeClaude(body, { round: 0 }));
        assert.deepEqual(turn.usage, { input: 1112, output: 7 });
        assert.equal(turn.finishReason, 'end_turn');
    });

    it('fills a missing tool_use id stably; arguments as a string stay verbatim', () => {
        const raw = stClaude(anthropic([
            { type: 'tool_use', name: 'get_weather', input: weather },
            { type: 'tool_use', id: 'toolu_x', name: 'raw', input: '{"a":1}' },
        ]));
        const turn = turnOf(decodeClaude(raw, { round: 4 }));
        assert.deepEqual(turn.toolCalls.map((c) => [c.id, c.argumentsText]), [['toolu-r4-0', JSON.stringify(weather)], ['toolu_x', '{"a":1}']]);
    });

    it('accepts an empty text reply', () => {
        const turn = turnOf(decodeClaude(stClaude(anthropic([{ type: 'text', text: '' }])), { round: 0 }));
        assert.equal(turn.text, '');
        assert.deepEqual(turn.toolCalls, []);
    });

    it('rejects malformed shapes', () => {
        const cases: [unknown, RegExp][] = [
            [null, /null/],
            [{ error: true }, /backend returned an error/],
            [{ choices: [{ message: { content: 'x' } }] }, /no content array/],
            [{ content: 'Hello' }, /no content array/],
            [stClaude(anthropic([{ type: 'tool_use', id: 'toolu_1', input: {} }])), /content\[0\]\.name: tool_use has no name/],
            [stClaude(anthropic([{ type: 'text', text: 'a' }, { type: 'tool_use', id: 'toolu_1', name: '', input: {} }])), /content\[1\].*empty name/],
            [stClaude(anthropic([{ type: 'text' }])), /text block has no text/],
            [{ content: [null] }, /content\[0\]/],
            [{ content: [{ text: 'untyped' }] }, /no type/],
        ];
        for (const [raw, pattern] of cases) assert.match(failureOf(decodeClaude(raw, { round: 0 })), pattern);
    });
});

describe('gemini', () => {
    /** A generateContent response as Google returns it; SillyTavern forwards only candidates[0].content. */
    const google = (parts: object[]) => ({
        candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
        usageMetadata: { promptTokenCount: 500, candidatesTokenCount: 30, totalTokenCount: 560, thoughtsTokenCount: 30 },
        modelVersion: 'gemini-2.5-flash',
        responseId: 'abc',
    });
    const calls = [
        { functionCall: { name: 'get_weather', args: weather }, thoughtSignature: 'CiQBsigCall' },
        { functionCall: { name: 'read_file', args: { path: 'notes.md' } } },
        { functionCall: { name: 'list_files', args: {} } },
    ];

    it('decodes a text reply as SillyTavern returns it (no usage, no finish reason)', () => {
        const turn = turnOf(decodeGemini(stGemini(google([{ text: 'Hello world.' }])), { round: 0 }));
        assert.deepEqual(turn, { text: 'Hello world.', reasoning: '', toolCalls: [], usage: null, finishReason: null, native: {} });
    });

    it('decodes several function calls with stable ids and the per-call signature', () => {
        const raw = stGemini(google([{ text: 'Let me check.' }, ...calls]));
        const turn = turnOf(decodeGemini(raw, { round: 5 }));
        assert.equal(turn.text, 'Let me check.');
        assert.deepEqual(turn.toolCalls, [
            { id: 'gemini-r5-0', name: 'get_weather', argumentsText: JSON.stringify(weather), signature: 'CiQBsigCall' },
            { id: 'gemini-r5-1', name: 'read_file', argumentsText: '{"path":"notes.md"}' },
            { id: 'gemini-r5-2', name: 'list_files', argumentsText: '{}' },
        ]);
        assert.deepEqual(turn.native, {});
    });

    it('gives the same ids on every decode of the same response, different ids in another round', () => {
        const raw = stGemini(google([...calls]));
        const a = turnOf(decodeGemini(raw, { round: 2 })).toolCalls.map((c) => c.id);
        const b = turnOf(decodeGemini(structuredClone(raw), { round: 2 })).toolCalls.map((c) => c.id);
        const c = turnOf(decodeGemini(raw, { round: 3 })).toolCalls.map((c) => c.id);
        assert.deepEqual(a, b);
        assert.deepEqual(a, ['gemini-r2-0', 'gemini-r2-1', 'gemini-r2-2']);
        assert.equal(new Set([...a, ...c]).size, 6);
    });

    it('reads thought parts as reasoning and a text-part signature as native.signature', () => {
        const raw = stGemini(google([
            { text: 'Thinking about it.', thought: true },
            { text: 'The answer is 4.', thoughtSignature: 'CiQBsigText' },
            { text: '' },
        ]));
        assert.equal(raw.choices[0]!.message.content, 'The answer is 4.\n\n', 'ST joins non-thought parts with blank lines');
        const turn = turnOf(decodeGemini(raw, { round: 0 }));
        assert.equal(turn.reasoning, 'Thinking about it.');
        assert.equal(turn.text, 'The answer is 4.');
        assert.deepEqual(turn.native, { signature: 'CiQBsigText' });
    });

    it('reads usageMetadata (thoughts count as output) and finishReason from a raw generateContent body', () => {
        const turn = turnOf(decodeGemini(google([{ text: 'Hi.' }]), { round: 0 }));
        assert.deepEqual(turn.usage, { input: 500, output: 60 });
        assert.equal(turn.finishReason, 'STOP');
    });

    it('keeps function args given as a string verbatim and missing args as {}', () => {
        const raw = stGemini(google([{ functionCall: { name: 'a', args: '{"x":1}' } }, { functionCall: { name: 'b' } }]));
        assert.deepEqual(turnOf(decodeGemini(raw, { round: 0 })).toolCalls.map((c) => c.argumentsText), ['{"x":1}', '{}']);
    });

    it('accepts an empty text reply', () => {
        const turn = turnOf(decodeGemini({ choices: [{ message: { content: '' } }], responseContent: { parts: [{ text: '' }], role: 'model' } }, { round: 0 }));
        assert.equal(turn.text, '');
        assert.deepEqual(turn.toolCalls, []);
    });

    it('rejects malformed shapes', () => {
        const cases: [unknown, RegExp][] = [
            [null, /null/],
            // ST's own error bodies: no candidates, empty candidate text.
            [{ error: { message: 'Google AI Studio API returned no candidate\nPrompt was blocked due to : SAFETY' } }, /no candidate/],
            [{ error: { message: 'Google AI Studio Candidate text empty' } }, /Candidate text empty/],
            [{ choices: [{ message: { content: 'x' } }] }, /no responseContent/],
            [{ choices: [], responseContent: { role: 'model' } }, /responseContent has no parts/],
            [{ responseContent: null }, /has no parts/],
            [{ candidates: [] }, /no candidates/],
            [stGemini(google([{ functionCall: { args: {} } }])), /parts\[0\]\.functionCall\.name: functionCall has no name/],
            [stGemini(google([{ text: 'a' }, { functionCall: 'get_weather' }])), /parts\[1\]\.functionCall/],
            [stGemini(google([{ text: 7 }])), /text is not a string/],
        ];
        for (const [raw, pattern] of cases) assert.match(failureOf(decodeGemini(raw, { round: 0 })), pattern);
    });
});

describe('decodeModelResponse', () => {
    const claudeBody = stClaude({ content: [{ type: 'text', text: 'from claude' }] });
    const geminiBody = stGemini({ candidates: [{ content: { parts: [{ text: 'from gemini' }] } }] });
    const openAiBody = { choices: [{ index: 0, message: { role: 'assistant', content: 'from openai' }, finish_reason: 'stop' }] };

    it('picks the decoder by shape: content blocks → claude (even with choices), responseContent → gemini, choices → openai', () => {
        assert.equal(dialectOfShape(claudeBody), 'claude');
        assert.equal(dialectOfShape(geminiBody), 'gemini');
        assert.equal(dialectOfShape(openAiBody), 'openai');
        assert.equal(turnOf(decodeModelResponse(claudeBody, { round: 0 })).text, 'from claude');
        assert.equal(turnOf(decodeModelResponse(geminiBody, { round: 0 })).text, 'from gemini');
        assert.equal(turnOf(decodeModelResponse(openAiBody, { round: 0 })).text, 'from openai');
    });

    it('picks the decoder by source when given', () => {
        assert.equal(turnOf(decodeModelResponse(claudeBody, { round: 0, source: 'claude' })).text, 'from claude');
        assert.equal(turnOf(decodeModelResponse(geminiBody, { round: 0, source: 'makersuite' })).text, 'from gemini');
        assert.equal(turnOf(decodeModelResponse(geminiBody, { round: 0, source: 'vertexai' })).text, 'from gemini');
        assert.equal(turnOf(decodeModelResponse(openAiBody, { round: 0, source: 'openrouter' })).text, 'from openai');
        // ST's Claude body also has `choices`; by source 'custom' it is read as OpenAI (choices[0].message.content).
        assert.equal(turnOf(decodeModelResponse(claudeBody, { round: 0, source: 'custom' })).text, 'from claude');
        assert.match(failureOf(decodeModelResponse(openAiBody, { round: 0, source: 'claude' })), /^claude: .*content array/);
        assert.match(failureOf(decodeModelResponse(openAiBody, { round: 0, source: 'makersuite' })), /^gemini: /);
    });

    it('rejects what is none of the shapes', () => {
        const cases: [unknown, RegExp][] = [
            [null, /null/],
            [undefined, /undefined/],
            ['<html>Bad Gateway</html>', /string/],
            [42, /number/],
            [{ error: { message: 'Not Found' } }, /backend returned an error: Not Found/],
            [{ error: true }, /backend returned an error/],
            [{}, /unrecognized response shape \(keys: none\)/],
            [{ id: 'x', object: 'chat.completion' }, /unrecognized response shape \(keys: id, object\)/],
            [{ choices: [] }, /no choices/],
            [{ choices: [{ index: 0, message: { tool_calls: [{ id: 'a', function: { arguments: '{}' } }] } }] }, /has no name/],
        ];
        for (const [raw, pattern] of cases) assert.match(failureOf(decodeModelResponse(raw, { round: 0 })), pattern);
    });
});

describe('round trip through the mock model dialects and SillyTavern', () => {
    const ctx = { seq: 7, model: 'mock-model', usage: { input: 90, output: 12 } };
    const scripted: MockTurn = {
        text: 'Working on it.',
        reasoning: 'Need the weather and the notes.',
        toolCalls: [
            { name: 'get_weather', arguments: weather },
            { name: 'read_file', arguments: { path: 'notes.md' } },
        ],
    };

    it('openai', () => {
        const turn = turnOf(decodeModelResponse(stOpenAi(mockOpenAi.completion(scripted, ctx)), { round: 1, source: 'custom' }));
        assert.deepEqual(turn, {
            text: 'Working on it.',
            reasoning: 'Need the weather and the notes.',
            toolCalls: [
                { id: 'call_mock_7_0', name: 'get_weather', argumentsText: JSON.stringify(weather) },
                { id: 'call_mock_7_1', name: 'read_file', argumentsText: '{"path":"notes.md"}' },
            ],
            usage: { input: 90, output: 12 },
            finishReason: 'tool_calls',
            native: {},
        });
    });

    it('claude', () => {
        const raw = stClaude(mockClaude.completion(scripted, ctx) as Parameters<typeof stClaude>[0]);
        const turn = turnOf(decodeModelResponse(raw, { round: 1 }));
        assert.deepEqual(turn, {
            text: 'Working on it.',
            reasoning: 'Need the weather and the notes.',
            toolCalls: [
                { id: 'toolu_mock_7_0', name: 'get_weather', argumentsText: JSON.stringify(weather) },
                { id: 'toolu_mock_7_1', name: 'read_file', argumentsText: '{"path":"notes.md"}' },
            ],
            usage: null,
            finishReason: null,
            native: { signature: 'sig-7' },
        });
    });

    it('gemini', () => {
        const raw = stGemini(mockGemini.completion(scripted, ctx) as Parameters<typeof stGemini>[0]);
        const turn = turnOf(decodeModelResponse(raw, { round: 1, source: 'makersuite' }));
        assert.deepEqual(turn, {
            text: 'Working on it.',
            reasoning: 'Need the weather and the notes.',
            toolCalls: [
                { id: 'gemini-r1-0', name: 'get_weather', argumentsText: JSON.stringify(weather), signature: 'sig-7' },
                { id: 'gemini-r1-1', name: 'read_file', argumentsText: '{"path":"notes.md"}' },
            ],
            usage: null,
            finishReason: null,
            native: { signature: 'sig-7' },
        });
    });

    it('a text-only turn in every dialect', () => {
        const plain: MockTurn = { text: 'Just text.' };
        const bodies = [
            stOpenAi(mockOpenAi.completion(plain, ctx)),
            stClaude(mockClaude.completion(plain, ctx) as Parameters<typeof stClaude>[0]),
            stGemini(mockGemini.completion(plain, ctx) as Parameters<typeof stGemini>[0]),
        ];
        for (const raw of bodies) {
            const turn = turnOf(decodeModelResponse(raw, { round: 0 }));
            assert.equal(turn.text, 'Just text.');
            assert.deepEqual(turn.toolCalls, []);
        }
    });
});
