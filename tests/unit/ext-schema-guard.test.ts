// Another extension's JSON schema is untrusted (issue 39 §2): a pattern that can backtrack is never run on a
// model's text (the call is refused with tool.invalid_arguments), safe patterns run on bounded input, and
// a $ref is resolved or refused, never ignored.
// Run: node --import tsx --test tests/unit/ext-schema-guard.test.ts
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ExtToolSpec } from '../../src/contract/ext-tools';
import { extToolDefinitions } from '../../src/tools/ext';
import { mayBacktrack } from '../../src/tools/ext/schema-guard';

const toolWith = (parameters: Record<string, unknown>) => {
    const spec: ExtToolSpec = { name: 'Probe', displayName: 'Probe', description: 'probe', parameters };
    return extToolDefinitions([spec], async () => ({ ok: true, text: 'ok' }))[0]!;
};
const problem = (parameters: Record<string, unknown>, args: unknown): string | null => {
    const parsed = toolWith(parameters).args.safeParse(args);
    return parsed.success ? null : parsed.error.issues.map((issue) => issue.message).join('; ');
};

test('patterns that backtrack without bound are recognised; ordinary ones are not', () => {
    for (const risky of ['^(a+)+$', '(a|aa)*b', '(.*a){10}', '(x+x+)+y', '(\\w+\\s?)*$', '(a)\\1']) assert.equal(mayBacktrack(risky), true, risky);
    for (const plain of ['^[a-z]+$', '^\\d{3}-\\d{4}$', '^(\\d{3}-)?\\d{4}$', '[(+*)]+', '^\\(a+\\)+$', '^#[0-9a-f]{6}$']) assert.equal(mayBacktrack(plain), false, plain);
});

test('a backtracking pattern is never run: the call is refused in no time, whatever the input', () => {
    const schema = { type: 'object', properties: { word: { type: 'string', pattern: '^(a+)+$' } } };
    const started = performance.now();
    const why = problem(schema, { word: `${'a'.repeat(40)}!` });
    assert.ok(performance.now() - started < 100);
    assert.match(why ?? '', /word must match the pattern "\^\(a\+\)\+\$", which could take unbounded time to check/);
    assert.equal(problem(schema, {}), null, 'a call without that value is checked as usual');
});

test('safe patterns are checked, on at most 2,000 characters', () => {
    const schema = { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } } } };
    assert.equal(problem(schema, { tags: ['moss', 'fern'] }), null);
    assert.match(problem(schema, { tags: ['moss', 'Fern'] }) ?? '', /tags\[\] must match the pattern/);
    assert.match(problem(schema, { tags: ['a'.repeat(2001)] }) ?? '', /2001 characters, over the 2000/);
});

test('a local $ref is resolved; one that cannot be, or loops, refuses every call with the reason', () => {
    const local = { type: 'object', properties: { city: { $ref: '#/$defs/city' } }, $defs: { city: { type: 'string', pattern: '^[A-Z][a-z]+$' } } };
    assert.equal(problem(local, { city: 'Oslo' }), null);
    assert.match(problem(local, { city: 'oslo' }) ?? '', /city must match/);
    assert.match(problem(local, { city: 42 }) ?? '', /string/i, 'the referenced type is checked, not ignored');
    const remote = { type: 'object', properties: { city: { $ref: 'https://example.com/city.json' } } };
    assert.match(problem(remote, { city: 'Oslo' }) ?? '', /This tool cannot be called: its schema names \$ref "https:\/\/example\.com\/city\.json", which cannot be resolved/);
    const loop = { type: 'object', properties: { node: { $ref: '#/$defs/node' } }, $defs: { node: { type: 'object', properties: { next: { $ref: '#/$defs/node' } } } } };
    assert.match(problem(loop, { node: {} }) ?? '', /refers to itself/);
});
