// A change to a chat's pipeline (issue 34), as `TavernAgent.pipeline.set` and `/agent pipeline` take it: bad
// input is refused whole with `pipeline.invalid`, a good one changes only the parts it names.
// Run: node --import tsx --test tests/unit/pipeline-change.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PIPELINE } from '../../src/contract/agent-mode';
import { applyPipelineChange, isDefaultPipeline, parsePipelineChange, parsePipelineWords } from '../../src/contract/pipeline-change';

const code = (result: { ok: boolean; error?: { code: string } }) => (result.ok ? 'ok' : result.error!.code);

test('a change names any part; the parts left out stay as they are', () => {
    assert.deepEqual(parsePipelineChange({ reply: 'sillytavern' }), { ok: true, value: { reply: 'sillytavern' } });
    assert.deepEqual(parsePipelineChange({ before: null, after: [] }), { ok: true, value: { before: null, after: [] } });
    const change = parsePipelineChange({ before: 'director', after: ['lore-keeper', 'memory-keeper'] });
    assert.ok(change.ok);
    assert.deepEqual(applyPipelineChange(DEFAULT_PIPELINE, change.value), { before: 'director', reply: 'agent', after: ['lore-keeper', 'memory-keeper'] });
    assert.deepEqual(applyPipelineChange({ before: 'director', reply: 'sillytavern', after: ['x'] }, { before: null }), { before: null, reply: 'sillytavern', after: ['x'] });
    assert.equal(isDefaultPipeline(DEFAULT_PIPELINE), true);
    assert.equal(isDefaultPipeline({ ...DEFAULT_PIPELINE, after: ['memory-keeper'] }), false);
});

test('a malformed change is refused with pipeline.invalid and a message that says what is wrong', () => {
    const cases: Array<[unknown, RegExp]> = [
        [null, /object/],
        [['director'], /object/],
        [{ middle: 'x' }, /no part "middle"/],
        [{ before: 3 }, /profile id, or null/],
        [{ before: '' }, /profile/],
        [{ reply: 'both' }, /'agent'.*'sillytavern'/],
        [{ after: 'memory-keeper' }, /list of profile ids/],
        [{ after: Array.from({ length: 9 }, (_, i) => `k${i}`) }, /At most 8/],
        [{ after: ['memory-keeper', 'memory-keeper'] }, /listed twice/],
    ];
    for (const [input, message] of cases) {
        const result = parsePipelineChange(input);
        assert.equal(code(result), 'pipeline.invalid', JSON.stringify(input));
        assert.match(result.ok ? '' : result.error.message, message, JSON.stringify(input));
    }
});

test("/agent pipeline's words set any part, in any order; none empties a part", () => {
    assert.deepEqual(parsePipelineWords('before=director reply=sillytavern'), { ok: true, value: { before: 'director', reply: 'sillytavern' } });
    assert.deepEqual(parsePipelineWords(' after=lore-keeper,memory-keeper  before=none '), { ok: true, value: { after: ['lore-keeper', 'memory-keeper'], before: null } });
    assert.deepEqual(parsePipelineWords('after=none reply=AGENT'), { ok: true, value: { after: [], reply: 'agent' } });
    for (const bad of ['director', 'middle=x', 'reply=both', 'before=a before=b', 'after=a,a']) assert.equal(code(parsePipelineWords(bad)), 'pipeline.invalid', bad);
});
