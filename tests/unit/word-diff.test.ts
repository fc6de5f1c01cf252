import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pairChangedLines } from '../../src/ui/timeline/word-diff';

test('a replaced line shows the words that changed, not the whole line', () => {
    const lines = pairChangedLines([
        { op: 0 as const, text: 'The forest is quiet.' },
        { op: -1 as const, text: 'The river runs cold and dark.' },
        { op: 1 as const, text: 'The river runs warm and dark.' },
    ]);
    assert.equal(lines[0]!.parts, undefined);
    assert.deepEqual(lines[1]!.parts!.filter((p) => p.changed).map((p) => p.text), ['cold']);
    assert.deepEqual(lines[2]!.parts!.filter((p) => p.changed).map((p) => p.text), ['warm']);
    assert.equal(lines[1]!.parts!.map((p) => p.text).join(''), 'The river runs cold and dark.');
});

test('a rewritten line, or one without a partner, stays whole', () => {
    const lines = pairChangedLines([
        { op: -1 as const, text: 'Completely different.' },
        { op: 1 as const, text: 'Nothing alike here at all!' },
        { op: 1 as const, text: 'An extra line.' },
    ]);
    assert.ok(lines.every((line) => line.parts === undefined));
});
