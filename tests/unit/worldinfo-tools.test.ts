// Unit tests of worldinfo.read_activated over a frozen run input.
// Run: node --import tsx --test tests/unit/worldinfo-tools.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RECOVERABLE_CODES } from '../../src/contract/errors';
import type { RunInput, WorldInfoEntry } from '../../src/contract/run-input';
import type { RunControls, ToolContext, ToolDefinition, ToolOutcome } from '../../src/tools/tool';
import { WORLDINFO_TOOLS } from '../../src/tools/worldinfo/index';
import { readActivatedTool } from '../../src/tools/worldinfo/read-activated';
import type { Workspace } from '../../src/workspace/workspace';
import { noSkills, sampleRunInput } from '../fixtures/run-input';

function entry(book: string, uid: number, content: string, extra: Partial<WorldInfoEntry> = {}): WorldInfoEntry {
    return { book, uid, title: `Entry ${uid}`, keys: [`key${uid}`], content, constant: false, ...extra };
}

function inputWith(entries: WorldInfoEntry[], captured = true): RunInput {
    return sampleRunInput({ worldInfo: { captured, entries } });
}

function call(tool: ToolDefinition, raw: Record<string, unknown>, input: RunInput): Promise<ToolOutcome> {
    const context: ToolContext = { input, workspace: {} as Workspace, run: {} as RunControls, skills: noSkills(), signal: new AbortController().signal };
    return tool.execute(tool.args.parse(raw), context);
}

function text(outcome: ToolOutcome): string {
    if (!outcome.ok) assert.fail(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
    return outcome.result.content;
}

function errorOf(outcome: ToolOutcome) {
    if (outcome.ok) assert.fail(`expected an error, got: ${outcome.result.content.slice(0, 200)}`);
    return outcome.error;
}

const LORE = inputWith([
    entry('Eldoria', 12, 'Dragons sleep under the northern mountains.\nThey hoard silver.', { title: 'Dragons', keys: ['dragon', 'wyrm'] }),
    entry('Eldoria', 3, 'The capital is Aster.', { title: 'Capital', keys: ['city'], constant: true }),
    entry('Seraphina Lore', 7, '森の守護者', { title: '', keys: [] }),
]);

describe('worldinfo tool definitions', () => {
    it('exports the world-info tools with their aliases (only a proposal records anything)', () => {
        assert.deepEqual(
            WORLDINFO_TOOLS.map((tool) => [tool.name, tool.alias, tool.readOnly]),
            [
                ['worldinfo.read_activated', 'worldinfo_read_activated', true],
                ['worldinfo.search', 'worldinfo_search', true],
                ['worldinfo.read', 'worldinfo_read', true],
                ['worldinfo.propose', 'worldinfo_propose', false],
            ],
        );
    });

    it('registers its error codes as recoverable', () => {
        for (const code of ['worldinfo.activation_unavailable', 'worldinfo.entry_not_found', 'worldinfo.invalid_range', 'worldinfo.read_too_large']) {
            assert.ok((RECOVERABLE_CODES as readonly string[]).includes(code), code);
        }
    });
});

describe('worldinfo.read_activated', () => {
    it('lists activated entries without arguments: ref, book, title, keys and length, no content', async () => {
        const result = text(await call(readActivatedTool, {}, LORE));
        const lines = result.split('\n');
        assert.match(lines[0]!, /^3 world-info entries were activated for this turn\./);
        assert.equal(lines[1], 'worldinfo:Eldoria#12 · book "Eldoria" · title "Dragons" · keys: dragon, wyrm · 62 chars');
        assert.equal(lines[2], 'worldinfo:Eldoria#3 · book "Eldoria" · title "Capital" · keys: city · 21 chars · constant');
        assert.equal(lines[3], 'worldinfo:Seraphina Lore#7 · book "Seraphina Lore" · title (untitled) · no keys · 5 chars');
        assert.doesNotMatch(result, /northern mountains/);
        // An empty entries array lists too.
        assert.equal(text(await call(readActivatedTool, { entries: [] }, LORE)), result);
    });

    it('answers an empty activation with a normal result', async () => {
        const outcome = await call(readActivatedTool, {}, inputWith([]));
        assert.equal(outcome.ok, true);
        assert.match(text(outcome), /No world-info entries were activated for this turn/);
    });

    it('refuses with worldinfo.activation_unavailable when the activation was not captured', async () => {
        const notCaptured = inputWith([entry('Eldoria', 1, 'x')], false);
        assert.equal(errorOf(await call(readActivatedTool, {}, notCaptured)).code, 'worldinfo.activation_unavailable');
        assert.equal(errorOf(await call(readActivatedTool, { entries: [{ ref: 'worldinfo:Eldoria#1' }] }, notCaptured)).code, 'worldinfo.activation_unavailable');
    });

    it('reads whole entries and ranges, with refs and where to continue', async () => {
        const result = text(
            await call(
                readActivatedTool,
                { entries: [{ ref: 'worldinfo:Eldoria#12' }, { ref: 'worldinfo:Eldoria#3', start_char: 4, max_chars: 7 }, { ref: 'worldinfo:Seraphina Lore#7', start_char: 3 }] },
                LORE,
            ),
        );
        assert.match(result, /^3 world-info entries read, 71 chars of content\./);
        assert.ok(result.includes('=== worldinfo:Eldoria#12 · title "Dragons" · book "Eldoria" · 62 chars, whole ===\nDragons sleep under the northern mountains.\nThey hoard silver.'));
        assert.ok(result.includes('=== worldinfo:Eldoria#3 · title "Capital" · book "Eldoria" · chars 4–10 of 21, continue at start_char 11 ===\ncapital\n'));
        assert.ok(result.endsWith('=== worldinfo:Seraphina Lore#7 · title (untitled) · book "Seraphina Lore" · chars 3–4 of 5, to the end ===\n護者'));
    });

    it('accepts a ref without the worldinfo: prefix', async () => {
        assert.match(text(await call(readActivatedTool, { entries: [{ ref: 'Eldoria#3' }] }, LORE)), /The capital is Aster\.$/);
    });

    it('refuses an unknown ref, listing valid refs', async () => {
        const error = errorOf(await call(readActivatedTool, { entries: [{ ref: 'worldinfo:Eldoria#3' }, { ref: 'worldinfo:Eldoria#99' }] }, LORE));
        assert.equal(error.code, 'worldinfo.entry_not_found');
        assert.match(error.message, /"worldinfo:Eldoria#99"/);
        assert.match(error.hint, /"worldinfo:Eldoria#12", "worldinfo:Eldoria#3", "worldinfo:Seraphina Lore#7"/);
        const none = errorOf(await call(readActivatedTool, { entries: [{ ref: 'worldinfo:Eldoria#3' }] }, inputWith([])));
        assert.equal(none.code, 'worldinfo.entry_not_found');
        assert.match(none.hint, /No entries were activated/);
        const many = inputWith(Array.from({ length: 12 }, (_, uid) => entry('Big', uid, 'x')));
        const hint = errorOf(await call(readActivatedTool, { entries: [{ ref: 'nope' }] }, many)).hint;
        assert.equal(hint.match(/worldinfo:Big#/g)?.length, 5);
        assert.match(hint, /without arguments/);
    });

    it('refuses bad ranges with worldinfo.invalid_range', async () => {
        for (const request of [{ start_char: 21 }, { start_char: -1 }, { max_chars: 0 }]) {
            const error = errorOf(await call(readActivatedTool, { entries: [{ ref: 'worldinfo:Eldoria#3', ...request }] }, LORE));
            assert.equal(error.code, 'worldinfo.invalid_range', JSON.stringify(request));
            assert.match(error.message, /worldinfo:Eldoria#3 has 21 chars/);
        }
    });

    it('refuses more than 20 entries, naming their lengths', async () => {
        const many = inputWith(Array.from({ length: 25 }, (_, uid) => entry('Big', uid, 'y'.repeat(uid + 1))));
        const twenty = await call(readActivatedTool, { entries: Array.from({ length: 20 }, (_, uid) => ({ ref: `worldinfo:Big#${uid}` })) }, many);
        assert.match(text(twenty), /^20 world-info entries read/);
        const error = errorOf(await call(readActivatedTool, { entries: Array.from({ length: 21 }, (_, uid) => ({ ref: `worldinfo:Big#${uid}` })) }, many));
        assert.equal(error.code, 'worldinfo.read_too_large');
        assert.match(error.message, /21 entries requested, at most 20 a call/);
        assert.match(error.message, /worldinfo:Big#0 1 char, worldinfo:Big#1 2 chars, .*worldinfo:Big#20 21 chars/);
    });

    it('refuses max_chars over 8000 and a whole entry over 8000, suggesting ranges', async () => {
        const big = inputWith([entry('Big', 1, 'z'.repeat(9000)), entry('Big', 2, 'short')]);
        const overMax = errorOf(await call(readActivatedTool, { entries: [{ ref: 'worldinfo:Big#2', max_chars: 8001 }] }, big));
        assert.equal(overMax.code, 'worldinfo.read_too_large');
        assert.match(overMax.message, /max_chars 8001 for worldinfo:Big#2/);
        assert.match(overMax.message, /Lengths: worldinfo:Big#2 5 chars/);
        assert.equal(readActivatedTool.args.safeParse({ entries: [{ ref: 'worldinfo:Big#2', max_chars: 8001 }] }).success, true);

        const whole = errorOf(await call(readActivatedTool, { entries: [{ ref: 'worldinfo:Big#1' }] }, big));
        assert.equal(whole.code, 'worldinfo.read_too_large');
        assert.match(whole.message, /worldinfo:Big#1 is 9000 chars/);
        assert.match(whole.hint, /\{"ref":"worldinfo:Big#1","start_char":0,"max_chars":8000\}, then start_char 8000/);

        const ranged = text(await call(readActivatedTool, { entries: [{ ref: 'worldinfo:Big#1', max_chars: 8000 }, { ref: 'worldinfo:Big#1', start_char: 8000 }] }, big));
        assert.match(ranged, /chars 0–7999 of 9000, continue at start_char 8000/);
        assert.match(ranged, /chars 8000–8999 of 9000, to the end/);
    });

    it('refuses more than 20000 chars a call', async () => {
        const big = inputWith([entry('Big', 1, 'a'.repeat(8000)), entry('Big', 2, 'b'.repeat(8000)), entry('Big', 3, 'c'.repeat(4001))]);
        const refs = [{ ref: 'worldinfo:Big#1' }, { ref: 'worldinfo:Big#2' }, { ref: 'worldinfo:Big#3' }];
        const error = errorOf(await call(readActivatedTool, { entries: refs }, big));
        assert.equal(error.code, 'worldinfo.read_too_large');
        assert.match(error.message, /this call would return 20001 chars, at most 20000 a call/);
        assert.match(error.message, /Lengths: worldinfo:Big#1 8000 chars, worldinfo:Big#2 8000 chars, worldinfo:Big#3 4001 chars/);
        const fits = await call(readActivatedTool, { entries: [...refs.slice(0, 2), { ref: 'worldinfo:Big#3', max_chars: 4000 }] }, big);
        assert.match(text(fits), /^3 world-info entries read, 20000 chars of content/);
    });

    it('reads only the frozen activation of the run', async () => {
        const input = LORE;
        const other = inputWith([entry('Other', 1, 'elsewhere')]);
        assert.doesNotMatch(text(await call(readActivatedTool, {}, input)), /Other/);
        assert.equal(errorOf(await call(readActivatedTool, { entries: [{ ref: 'worldinfo:Other#1' }] }, input)).code, 'worldinfo.entry_not_found');
        assert.match(text(await call(readActivatedTool, {}, other)), /worldinfo:Other#1/);
    });
});
