// Run: node --import tsx --test tests/unit/stream-accumulate.test.ts
import '../../src/contract/zod-setup';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeModelResponse } from '../../src/engine/model/decode';
import { createStreamAccumulator, parseSse } from '../../src/host/model/stream-accumulate';
import { claude } from '../harness/mock-model/claude';
import type { DialectImpl, ReplyCtx } from '../harness/mock-model/common';
import { gemini } from '../harness/mock-model/gemini';
import { openai } from '../harness/mock-model/openai';
import type { MockTurn } from '../harness/mock-model/types';

const ctx: ReplyCtx = { seq: 7, model: 'mock-model', usage: { input: 120, output: 30 } };
const TURNS: MockTurn[] = [
    { text: 'The forest is quiet tonight, and the glade hums with old magic.' },
    { reasoning: 'The user wants the weather. I should call the tool.', toolCalls: [{ name: 'workspace_write_file', arguments: { path: 'output/main.md', content: 'A long enough reply to be cut into pieces.' } }] },
    { text: 'Two calls:', toolCalls: [{ name: 'chat_search', arguments: { query: 'forest' } }, { name: 'workspace_finish', arguments: {} }] },
];
const SOURCES: Array<[string, DialectImpl]> = [
    ['custom', openai],
    ['claude', claude],
    ['makersuite', gemini],
];

/** The SSE text SillyTavern's backend forwards, as the mock writes it. */
function sseText(impl: DialectImpl, turn: MockTurn): string {
    return impl
        .streamEvents(turn, ctx)
        .map((e) => `${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}${impl.sseEol}`)
        .join('');
}

const comparable = (raw: unknown, source: string) => {
    const decoded = decodeModelResponse(raw, { round: 1, source });
    assert.ok(decoded.ok, decoded.ok ? '' : decoded.message);
    const turn = decoded.turn;
    return { text: turn.text, reasoning: turn.reasoning, calls: turn.toolCalls.map((c) => ({ name: c.name, args: JSON.parse(c.argumentsText || '{}') as unknown })) };
};

for (const [source, impl] of SOURCES) {
    test(`a streamed ${impl.name} response, accumulated, decodes as its non-streamed response does`, () => {
        for (const turn of TURNS) {
            const accumulator = createStreamAccumulator(source);
            // Fed in odd-sized slices, as network reads arrive: events split across reads must still parse.
            const text = sseText(impl, turn);
            let buffer = '';
            const partials: string[] = [];
            for (let i = 0; i < text.length; i += 37) {
                const parsed = parseSse(buffer + text.slice(i, i + 37));
                buffer = parsed.rest;
                parsed.events.forEach((event) => accumulator.push(event));
                partials.push(accumulator.partial().text);
            }
            parseSse(`${buffer}\n\n`).events.forEach((event) => accumulator.push(event));
            assert.deepEqual(comparable(accumulator.result(), source), comparable(impl.completion(turn, ctx), source));
            if (turn.text) assert.ok(partials.some((partial) => partial.length > 0 && partial.length < turn.text!.length), 'partial text was seen before the end');
        }
    });
}

test('partial() reports tool-call arguments as they arrive', () => {
    const accumulator = createStreamAccumulator('custom');
    const events = openai.streamEvents({ toolCalls: [{ name: 'dice_roll', arguments: { formula: '2d6+3', reason: 'a long reason here' } }] }, ctx);
    const seen: string[] = [];
    for (const event of events) {
        if (typeof event.data === 'string') continue;
        accumulator.push(event.data);
        seen.push(accumulator.partial().toolCalls[0]?.arguments ?? '');
    }
    assert.equal(accumulator.partial().toolCalls[0]?.name, 'dice_roll');
    assert.ok(seen.some((args) => args.length > 0 && args !== seen.at(-1)), 'arguments grew piece by piece');
    assert.deepEqual(JSON.parse(seen.at(-1)!), { formula: '2d6+3', reason: 'a long reason here' });
});
