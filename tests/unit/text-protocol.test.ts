// Unit tests of the text tool protocol (SPEC §9): the strict <tool_call> reader and its repairs, the prompt
// rendering (tools in <tools>, results in <tool_response>), the stop strings, the grammar, the decoder, and
// one whole run on a Text Completion source through the engine.
// Run: node --import tsx --test tests/unit/text-protocol.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireMessage, WireTool } from '../../src/contract/model';
import { parseProfile } from '../../src/contract/profile-migrations';
import { WRITER_PROFILE } from '../../src/contract/profile';
import {
    EXPECTED_CALL_FORM,
    parseTextTurn,
    TEXT_COMPLETION_SOURCE,
    toolCallGrammar,
    toolsBlock,
    toTextMessages,
    withProtocolStops,
} from '../../src/contract/text-protocol';
import { decodeModelResponse } from '../../src/engine/model/decode';
import { payloadsOf, replyOf, runHarness } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

const call = (name: string, args: unknown) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

describe('parseTextTurn', () => {
    it('reads one call and the narration around it', () => {
        const turn = parseTextTurn(`I will draft first.\n${call('workspace_write_file', { path: 'output/main.md', content: 'Hi' })}`);
        assert.equal(turn.text, 'I will draft first.');
        assert.deepEqual(turn.calls, [{ ok: true, name: 'workspace_write_file', arguments: { path: 'output/main.md', content: 'Hi' }, repairs: [] }]);
    });

    it('reads several calls in one turn, in order', () => {
        const turn = parseTextTurn(`${call('workspace_commit', {})}\n${call('workspace_finish', {})}`);
        assert.deepEqual(
            turn.calls.map((c) => c.ok && c.name),
            ['workspace_commit', 'workspace_finish'],
        );
        assert.equal(turn.text, '');
    });

    it('text without a call has no calls', () => {
        assert.deepEqual(parseTextTurn('Once upon a time.'), { text: 'Once upon a time.', calls: [] });
    });

    it('repairs a code fence around the JSON and says so', () => {
        const turn = parseTextTurn('<tool_call>\n```json\n{"name": "workspace_read_file", "arguments": {"path": "output/main.md"}}\n```\n</tool_call>');
        assert.deepEqual(turn.calls, [{ ok: true, name: 'workspace_read_file', arguments: { path: 'output/main.md' }, repairs: ['code_fence'] }]);
    });

    it('repairs a trailing comma, and arguments given as a JSON string', () => {
        const comma = parseTextTurn('<tool_call>{"name": "a_b", "arguments": {"x": [1, 2,],},}</tool_call>');
        assert.deepEqual(comma.calls, [{ ok: true, name: 'a_b', arguments: { x: [1, 2] }, repairs: ['trailing_comma'] }]);
        const stringArgs = parseTextTurn('<tool_call>{"name": "a_b", "arguments": "{\\"x\\": 1}"}</tool_call>');
        assert.deepEqual(stringArgs.calls, [{ ok: true, name: 'a_b', arguments: { x: 1 }, repairs: ['arguments_as_string'] }]);
    });

    it('keeps a comma inside a string as it is', () => {
        const turn = parseTextTurn('<tool_call>{"name": "a_b", "arguments": {"t": "a,}"}}</tool_call>');
        assert.deepEqual(turn.calls, [{ ok: true, name: 'a_b', arguments: { t: 'a,}' }, repairs: [] }]);
    });

    it('reads a last call whose closing tag is missing, naming the repair', () => {
        const turn = parseTextTurn('<tool_call>{"name": "workspace_finish", "arguments": {}}');
        assert.deepEqual(turn.calls, [{ ok: true, name: 'workspace_finish', arguments: {}, repairs: ['missing_close_tag'] }]);
    });

    it('anything else is an invalid call with what was wrong, never a guess', () => {
        const broken = parseTextTurn('<tool_call>{"name": "workspace_read_file", "arguments": {"path": </tool_call>').calls[0]!;
        assert.equal(broken.ok, false);
        assert.ok(!broken.ok && broken.name === 'workspace_read_file' && /not valid JSON/.test(broken.message));
        const flat = parseTextTurn('<tool_call>{"name": "workspace_read_file", "path": "a.md"}</tool_call>').calls[0]!;
        assert.ok(!flat.ok && /other than "name" and "arguments"/.test(flat.message));
        const noName = parseTextTurn('<tool_call>{"arguments": {}}</tool_call>').calls[0]!;
        assert.ok(!noName.ok && noName.name === null);
        const notObject = parseTextTurn('<tool_call>{"name": "x", "arguments": "[1]"}</tool_call>').calls[0]!;
        assert.ok(!notObject.ok);
    });
});

const tools: WireTool[] = [
    { type: 'function', function: { name: 'workspace_read_file', description: 'Read a file.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } },
    { type: 'function', function: { name: 'workspace_finish', description: 'Finish.', parameters: { type: 'object', properties: {} } } },
];

describe('toTextMessages', () => {
    it('puts the tools as JSON signatures inside <tools> in the system part', () => {
        const block = toolsBlock(tools);
        const inside = /<tools>\n([\s\S]*)\n<\/tools>/.exec(block)![1]!;
        assert.deepEqual(inside.split('\n').map((line) => JSON.parse(line).function.name), ['workspace_read_file', 'workspace_finish']);
        assert.match(block, /<tool_call>\n\{"name": <function-name>, "arguments": <args-json-object>\}\n<\/tool_call>/);
    });

    it('turns calls into <tool_call> blocks and their results into one <tool_response> turn', () => {
        const messages: WireMessage[] = [
            { role: 'system', content: 'Agent instructions.' },
            { role: 'system', content: 'Card.' },
            { role: 'user', content: 'Hello.' },
            {
                role: 'assistant',
                content: 'Reading.',
                tool_calls: [
                    { id: 'c1', type: 'function', function: { name: 'workspace_read_file', arguments: '{"path":"a.md"}' } },
                    { id: 'c2', type: 'function', function: { name: '', arguments: '{"name": broken' } },
                ],
            },
            { role: 'tool', tool_call_id: 'c1', content: 'line 1' },
            { role: 'tool', tool_call_id: 'c2', content: '[tool.invalid_arguments] …' },
        ];
        const text = toTextMessages(messages, tools);
        assert.equal(text.length, 4);
        assert.equal(text[0]!.role, 'system');
        assert.match(text[0]!.content, /^Agent instructions\.\n\nCard\.\n\n# Tools/);
        assert.deepEqual(text[1], { role: 'user', content: 'Hello.' });
        assert.equal(text[2]!.content, 'Reading.\n<tool_call>\n{"name":"workspace_read_file","arguments":{"path":"a.md"}}\n</tool_call>\n<tool_call>{"name": broken</tool_call>');
        assert.equal(text[3]!.content, '<tool_response>\nline 1\n</tool_response>\n<tool_response>\n[tool.invalid_arguments] …\n</tool_response>');
    });

    it('stops on <tool_response> first (OpenAI-style backends keep four), never on </tool_call>', () => {
        assert.deepEqual(withProtocolStops(['\nUser:', '</tool_call>', '<tool_response>']), ['<tool_response>', '\nUser:']);
        assert.deepEqual(withProtocolStops(undefined), ['<tool_response>']);
    });
});

describe('toolCallGrammar', () => {
    it('allows free text then calls to the offered tools only', () => {
        const grammar = toolCallGrammar(tools);
        assert.match(grammar, /^root ::= text \(call text\)\*$/m);
        assert.match(grammar, /^text ::= \(\[\^<\] \| "<" \[\^t\] \| "<think>"\)\*$/m, 'free text, thinking, never a stray tag');
        assert.match(grammar, /^name ::= \("\\"workspace_read_file\\"" \| "\\"workspace_finish\\""\) ws$/m);
        assert.doesNotMatch(grammar, /ws ws/, 'no ambiguous whitespace');
        assert.match(grammar, /^call ::= "<tool_call>" .* "<\/tool_call>"$/m);
        assert.doesNotMatch(grammar, /workspace_write_file/);
        // Every rule a rule refers to is defined.
        const defined = new Set([...grammar.matchAll(/^([a-z]+) ::=/gm)].map((m) => m[1]));
        const used = new Set([...grammar.replace(/"(?:[^"\\]|\\.)*"|\[(?:[^\]\\]|\\.)*\]/g, '').matchAll(/\b([a-z]+)\b/g)].map((m) => m[1]));
        for (const name of used) assert.ok(defined.has(name), `rule ${name} is defined`);
    });
});

describe('decodeText', () => {
    const decode = (raw: unknown) => decodeModelResponse(raw, { round: 2, source: TEXT_COMPLETION_SOURCE });

    it('reads llama.cpp /completion bodies with their token counts', () => {
        const result = decode({ content: `Draft.\n${call('workspace_finish', {})}`, tokens_evaluated: 321, tokens_predicted: 12, stopped_eos: true });
        assert.ok(result.ok);
        assert.equal(result.turn.text, 'Draft.');
        assert.deepEqual(result.turn.toolCalls, [{ id: 'call-r2-0', name: 'workspace_finish', argumentsText: '{}' }]);
        assert.deepEqual(result.turn.usage, { input: 321, output: 12 });
        assert.equal(result.turn.finishReason, 'stop');
    });

    it('reads OpenAI-style /v1/completions bodies, naming repairs and marking unreadable calls', () => {
        const text = '<tool_call>```json\n{"name": "workspace_read_file", "arguments": {"path": "a.md"}}\n```</tool_call><tool_call>{oops}</tool_call>';
        const result = decode({ choices: [{ index: 0, text, finish_reason: 'stop' }], usage: { prompt_tokens: 5, completion_tokens: 6 } });
        assert.ok(result.ok);
        assert.deepEqual(result.turn.repairs, ['call 1 (workspace_read_file): code_fence']);
        assert.equal(result.turn.toolCalls.length, 2);
        const invalid = result.turn.toolCalls[1]!;
        assert.equal(invalid.name, '');
        assert.equal(invalid.argumentsText, '{oops}');
        assert.ok(invalid.invalid && invalid.invalid.hint.includes(EXPECTED_CALL_FORM));
        assert.deepEqual(result.turn.usage, { input: 5, output: 6 });
    });

    it('keeps <think> blocks as reasoning, and a call written while thinking is not a call', () => {
        const result = decode({ content: `<think>Maybe ${call('workspace_finish', {})}? No, read first.</think>\nReading.\n${call('workspace_read_file', { path: 'a.md' })}` });
        assert.ok(result.ok);
        assert.match(result.turn.reasoning, /^Maybe <tool_call>[\s\S]*No, read first\.$/);
        assert.equal(result.turn.text, 'Reading.');
        assert.deepEqual(result.turn.toolCalls.map((c) => c.name), ['workspace_read_file']);
        const opened = decode({ content: `The template opened the block.</think>${call('workspace_finish', {})}` });
        assert.ok(opened.ok && opened.turn.reasoning === 'The template opened the block.' && opened.turn.toolCalls.length === 1);
    });

    it("reports SillyTavern's error body as malformed", () => {
        const result = decode({ error: true, status: 500, response: 'boom' });
        assert.ok(!result.ok);
    });
});

describe('profiles', () => {
    it('the grammar switch defaults on, and profiles saved before it load unchanged', () => {
        const { textProtocol: _omitted, ...old } = WRITER_PROFILE;
        const parsed = parseProfile(old);
        assert.ok(parsed.ok);
        assert.deepEqual(parsed.profile.textProtocol, { grammar: true });
        const off = parseProfile({ ...WRITER_PROFILE, textProtocol: { grammar: false } });
        assert.ok(off.ok && off.profile.textProtocol.grammar === false);
    });
});

describe('a run on a Text Completion source', () => {
    const body = (text: string) => replyOf({ content: text, tokens_evaluated: 100, tokens_predicted: 10 });

    it('runs repaired and broken calls, reminds on plain text, and commits', async () => {
        const harness = runHarness({
            script: [
                body('Let me think about it.'),
                body('<tool_call>\n```json\n{"name": "workspace_write_file", "arguments": {"path": "output/main.md", "content": "Hello there."},}\n```\n</tool_call>'),
                body('<tool_call>{"name": "workspace_read_file", "arguments": {"path": </tool_call>'),
                body(`${call('workspace_commit', {})}\n${call('workspace_finish', {})}`),
            ],
        });
        const input = sampleRunInput({ source: TEXT_COMPLETION_SOURCE });
        const outcome = await harness.run(input);
        assert.equal(outcome.state, 'completed');
        assert.deepEqual(harness.commits.map((c) => c.text), ['Hello there.']);
        // The model was reminded once, told what was repaired, and shown the broken call's error.
        const events = await harness.journal(input.runId);
        assert.equal(payloadsOf(events, 'model-reminder').length, 1);
        const responses = payloadsOf(events, 'model-response');
        assert.deepEqual(responses[1]!.repairs, ['call 1 (workspace_write_file): code_fence, trailing_comma']);
        const failed = payloadsOf(events, 'tool-call-fail');
        assert.equal(failed.length, 1);
        assert.equal(failed[0]!.code, 'tool.invalid_arguments');
        assert.ok(failed[0]!.hint.includes('<tool_call>{"name": "workspace_read_file", "arguments": {"key": "value"}}</tool_call>'));
        // The broken call was answered in the next request, as a tool result the host renders as <tool_response>.
        const last = harness.requests.at(-1)!.messages;
        const answer = last.filter((m) => m.role === 'tool').at(-1)!;
        assert.match(String(answer.content), /tool\.invalid_arguments/);
    });
});

describe('the reader stays linear on hostile output (issue 39)', () => {
    const N = 100_000;
    /** The fastest of three reads: a loaded machine's pauses are not the reader's. */
    const fastest = (read: () => unknown) => Math.min(...[0, 1, 2].map(() => {
        const started = performance.now();
        read();
        return performance.now() - started;
    }));
    const decode = (text: string) => decodeModelResponse({ choices: [{ text }] }, { round: 1, source: TEXT_COMPLETION_SOURCE });
    const cases: Array<[string, string]> = [
        ['a fence that never closes', `<tool_call>\`\`\`json${' '.repeat(N)}</tool_call>`],
        ['commas before whitespace, no closing bracket', `<tool_call>[${', '.repeat(N / 2)}</tool_call>`],
        ['opening tags without a closing one', '<tool_call>'.repeat(N / 11)],
        ['closing tags without an opening one', `${'</tool_call>'.repeat(N / 12)}<tool_call>{}`],
        ['think blocks that never close', '<think>'.repeat(N / 7)],
        ['a think close after many openings', `${'<think>'.repeat(N / 7)}</think>`],
    ];
    for (const [name, text] of cases) {
        it(`${name}: ${text.length.toLocaleString('en-US')} characters in under 50 ms`, () => {
            assert.ok(text.length >= N - 20);
            const ms = fastest(() => decode(text));
            assert.ok(ms < 50, `${ms.toFixed(1)} ms`);
        });
    }
    it('still reads what it read before: a fenced call with trailing commas, and reasoning', () => {
        const turn = parseTextTurn('<tool_call>```json\n{"name": "dice_roll", "arguments": {"formula": "1d6",},}\n```</tool_call>');
        assert.deepEqual(turn.calls, [{ ok: true, name: 'dice_roll', arguments: { formula: '1d6' }, repairs: ['code_fence', 'trailing_comma'] }]);
        const decoded = decode('<think>plan</think>Hello<think>more</think> there');
        assert.ok(decoded.ok && decoded.turn.reasoning === 'plan\n\nmore' && decoded.turn.text === 'Hello there');
    });
});
