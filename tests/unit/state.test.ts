// The state formats and tools (issue 36): JSON Pointer, MVU's patch dialect, its stored pairs, schema and
// update block, the branch-aware chat-variable log, and the four tools over a frozen state.
// Run: node --import tsx --test tests/unit/state.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EMPTY_STATE, type CapturedState, type StateChange } from '../../src/contract/state';
import type { EventPayloads, EventType } from '../../src/contract/events';
import { parsePointer } from '../../src/state/json-pointer';
import { applyPatch } from '../../src/state/patch';
import { pairDescriptions, rewrapValues, unwrapValues } from '../../src/state/mvu-data';
import { checkMvuSchema, schemaOutline } from '../../src/state/mvu-schema';
import { mvuRelativeOps } from '../../src/state/mvu-block';
import { branchVariables, EMPTY_META, recordWrite, replayPlan, type ChatOps, type ChatStateMeta } from '../../src/state/chat-log';
import { stateWrites } from '../../src/state/state-view';
import { STATE_TOOLS } from '../../src/tools/state';
import type { ToolContext, ToolOutcome } from '../../src/tools/tool';
import { sampleRunInput } from '../fixtures/run-input';

describe('JSON Pointer and the patch dialect', () => {
    it('parses pointers, tolerates a missing slash, unescapes, refuses prototype keys and deep paths', () => {
        assert.deepEqual(parsePointer('/a~1b/c~0d'), { ok: true, value: ['a/b', 'c~d'] });
        assert.deepEqual(parsePointer('hp'), { ok: true, value: ['hp'] });
        assert.equal(parsePointer('/__proto__/x').ok, false);
        assert.equal(parsePointer(`/${Array(40).fill('a').join('/')}`).ok, false);
    });

    it('replace, delta (a numeric string too), insert with "-", remove and move; the input is never changed', () => {
        const state = { hp: 10, gold: '5', bag: ['rope'], where: { town: 'Mill' } };
        const patched = applyPatch(state, [
            { op: 'replace', path: '/where/town', value: 'Ford' },
            { op: 'delta', path: '/hp', value: -3 },
            { op: 'delta', path: '/gold', value: 2 },
            { op: 'insert', path: '/bag/-', value: 'torch' },
            { op: 'add', path: '/bag/0', value: 'map' },
            { op: 'remove', path: '/bag/1' },
            { op: 'move', from: '/where', path: '/was' },
        ]);
        assert.ok(patched.ok);
        assert.deepEqual(patched.value.value, { hp: 7, gold: 7, bag: ['map', 'torch'], was: { town: 'Ford' } });
        assert.deepEqual(state, { hp: 10, gold: '5', bag: ['rope'], where: { town: 'Mill' } });
    });

    it('names the failing op and why, with a code the model can act on', () => {
        const missing = applyPatch({ a: 1 }, [{ op: 'delta', path: '/a', value: 1 }, { op: 'remove', path: '/b' }]);
        assert.ok(!missing.ok);
        assert.equal(missing.error.code, 'state.path_not_found');
        assert.match(missing.error.message, /^Change 2 \(remove\)/);
        const notNumber = applyPatch({ a: 'x' }, [{ op: 'delta', path: '/a', value: 1 }]);
        assert.ok(!notNumber.ok && notNumber.error.code === 'state.invalid_op');
        const outOfList = applyPatch({ l: [1] }, [{ op: 'replace', path: '/l/3', value: 2 }]);
        assert.ok(!outOfList.ok && outOfList.error.code === 'state.invalid_path');
        const intoItself = applyPatch({ a: { b: 1 } }, [{ op: 'move', from: '/a', path: '/a/c' }]);
        assert.ok(!intoItself.ok && intoItself.error.code === 'state.invalid_op');
    });
});

describe('MVU formats', () => {
    const stored = { hp: [10, 'health points'], $meta: { extensible: false }, bag: [['rope', 'what you carry']], name: 'Ann' };

    it('shows values alone and writes them back into their description pairs, keeping $ keys', () => {
        assert.deepEqual(unwrapValues(stored), { hp: 10, bag: ['rope'], name: 'Ann' });
        const back = rewrapValues(stored, { hp: 7, bag: ['rope'], name: 'Ann', mood: 'calm' });
        assert.deepEqual(back, { $meta: { extensible: false }, hp: [7, 'health points'], bag: [['rope', 'what you carry']], name: 'Ann', mood: 'calm' });
        assert.deepEqual(pairDescriptions(stored), { '/hp': 'health points', '/bag/0': 'what you carry' });
    });

    const schema = {
        type: 'object',
        properties: { hp: { type: 'number' }, bag: { type: 'array', elementType: { type: 'string' }, extensible: true }, name: { type: 'string', required: true } },
    };

    it('refuses what the schema refuses: a new key, a wrong type, a required key removed', () => {
        const before = { hp: 10, bag: [], name: 'Ann' };
        assert.equal(checkMvuSchema(schema, before, { ...before, hp: 7, bag: ['torch'] }).ok, true);
        const newKey = checkMvuSchema(schema, before, { ...before, mana: 3 });
        assert.ok(!newKey.ok && newKey.error.code === 'state.schema_rejected' && /\/mana/.test(newKey.error.message));
        assert.equal(checkMvuSchema(schema, before, { ...before, hp: 'seven' }).ok, false);
        const { name: _dropped, ...withoutName } = before;
        assert.equal(checkMvuSchema(schema, before, withoutName).ok, false);
    });

    it('outlines the schema with descriptions, bounded', () => {
        const outline = schemaOutline(schema, { '/hp': 'health points' }, 6000);
        assert.match(outline, /\/stat_data\/hp: number — health points/);
        assert.match(outline, /\/stat_data\/bag: array, may grow/);
        assert.match(schemaOutline(schema, {}, 60), /outline cut/);
    });

    it('keeps ops under /stat_data and writes them relative to it', () => {
        const relative = mvuRelativeOps([{ op: 'delta', path: '/stat_data/hp', value: -3 }, { op: 'move', from: '/stat_data/a', to: '/stat_data/b' }]);
        assert.deepEqual(relative, { ok: true, value: [{ op: 'delta', path: '/hp', value: -3 }, { op: 'move', from: '/a', path: '/b' }] });
        assert.equal(mvuRelativeOps([{ op: 'replace', path: '/schema', value: 1 }]).ok, false);
    });
});

describe('branch-aware chat variables', () => {
    const ops = (key: string, v: string | number | null, e = 1): ChatOps => ({ [key]: { v, e } });

    it('a reply sets a variable; its swipe and its deletion go back to the value before; swiping back restores it', () => {
        const table = { hp: '10' };
        const written = recordWrite(EMPTY_META, table, { hp: '10' }, { hp: 7 });
        assert.deepEqual(written.ops, { hp: { v: 7, e: 1 } });
        const onReply = replayPlan(written.meta, table, [null, null, written.ops]);
        assert.deepEqual(onReply.sets, { hp: 7 });
        const live = { hp: 7 };
        // The reply shows another swipe (its ops are not on the path), or it was deleted.
        const swiped = replayPlan(onReply.meta, live, [null, null, null]);
        assert.deepEqual(swiped.sets, { hp: '10' });
        const back = replayPlan(swiped.meta, { hp: '10' }, [null, null, written.ops]);
        assert.deepEqual(back.sets, { hp: 7 });
    });

    it("a value someone else set wins: the variable is no longer managed, and the user's value stays", () => {
        const written = recordWrite(EMPTY_META, {}, {}, { hp: 7 });
        const applied = replayPlan(written.meta, {}, [written.ops]).meta;
        const outside = replayPlan(applied, { hp: '3' }, []);
        assert.deepEqual(outside.sets, {});
        assert.equal(outside.meta.keys.hp!.off, true);
        // A later write of ours starts a new epoch: the old reply's op no longer counts.
        const again = recordWrite(outside.meta, { hp: '3' }, { hp: '3' }, { hp: 9 });
        assert.equal(again.ops.hp!.e, 2);
        assert.deepEqual(replayPlan(again.meta, { hp: '3' }, [written.ops, null]).sets, {});
    });

    it('a run reads the branch before its reply, not the live value a replaced reply left', () => {
        const meta: ChatStateMeta = { v: 1, keys: { hp: { base: '10', epoch: 1, applied: 7 } } };
        assert.deepEqual(branchVariables(meta, { hp: 7, other: 'x' }, [null, null]), { hp: '10', other: 'x' });
        assert.deepEqual(branchVariables(meta, { hp: 7 }, [ops('hp', 7)]), { hp: 7 });
        assert.deepEqual(branchVariables({ v: 1, keys: { hp: { base: null, epoch: 1, applied: 7 } } }, { hp: 7 }, []), {});
    });
});

/** A tool context over a frozen state, with the journal's staged changes and a scripted approval. */
function stateContext(state: CapturedState, approve = true): { context: ToolContext; staged: StateChange[]; asked: string[] } {
    const staged: StateChange[] = [];
    const asked: string[] = [];
    const journal = {
        async append<T extends EventType>(type: T, payload: EventPayloads[T]) {
            if (type === 'state-change') staged.push(payload as StateChange); // the one event these tools append
            return {} as never;
        },
    };
    const context = {
        input: sampleRunInput({ state }),
        journal,
        state: {
            changes: () => staged,
            approve: async (name: string) => {
                asked.push(name);
                return approve;
            },
        },
    } as unknown as ToolContext; // the state tools read only input, journal and state
    return { context, staged, asked };
}

const tool = (name: string) => STATE_TOOLS.find((t) => t.alias === name)!;
const run = (context: ToolContext, name: string, args: unknown): Promise<ToolOutcome> => tool(name).execute(tool(name).args.parse(args), context);
const textOf = (outcome: ToolOutcome) => (outcome.ok ? outcome.result.content : `${outcome.error.code}: ${outcome.error.message}`);

const MVU_STATE: CapturedState = {
    ...EMPTY_STATE,
    chat: { values: { hp: '10', inv: '["rope"]' } },
    global: { values: {} },
    mvu: {
        statData: { hp: [10, 'health'], place: 'Mill' },
        schema: { type: 'object', properties: { hp: { type: 'number' }, place: { type: 'string' } } },
        messageIndex: 2,
        loaded: false,
        descriptions: { '/hp': 'health' },
    },
    tracker: { value: { time: 'dusk' }, messageIndex: 3 },
};

describe('the state tools', () => {
    it('state_scopes names what the chat keeps, with the MVU outline', async () => {
        const { context } = stateContext(MVU_STATE);
        const text = textOf(await run(context, 'state_scopes', {}));
        assert.match(text, /^chat — /m);
        assert.match(text, /^mvu — .*snapshot of message #2/m);
        assert.match(text, /\/stat_data\/hp: number — health/);
        assert.match(text, /^tracker — .*Read-only/m);
        assert.doesNotMatch(text, /^message — /m);
    });

    it('state_get reads a path, JSON text of a variable as its value, and sees staged writes', async () => {
        const { context } = stateContext(MVU_STATE);
        assert.match(textOf(await run(context, 'state_get', { scope: 'chat', path: '/inv/0' })), /"rope"/);
        assert.match(textOf(await run(context, 'state_get', { scope: 'mvu', path: '/stat_data/hp' })), /\n10$/);
        assert.match(textOf(await run(context, 'state_set', { scope: 'mvu', path: '/stat_data/hp', value: 7 })), /\/stat_data\/hp: 10 → 7/);
        assert.match(textOf(await run(context, 'state_get', { scope: 'mvu', path: '/stat_data/hp' })), /\n7$/);
        assert.match(textOf(await run(context, 'state_get', { scope: 'message' })), /^state\.scope_unavailable/);
        assert.match(textOf(await run(context, 'state_get', { scope: 'chat', path: '/nope' })), /^state\.path_not_found/);
    });

    it('refuses a read over 20,000 characters and says what would fit', async () => {
        const big = { ...EMPTY_STATE, chat: { values: { a: 'x'.repeat(15_000), b: 'y'.repeat(15_000) } } };
        const { context } = stateContext(big);
        const outcome = await run(context, 'state_get', { scope: 'chat' });
        assert.ok(!outcome.ok);
        assert.equal(outcome.error.code, 'state.read_too_large');
        assert.match(outcome.error.hint, /\/a \(15002 chars\), \/b/);
    });

    it('refuses tracker writes, MVU schema breaks and paths outside /stat_data, staging nothing', async () => {
        const { context, staged } = stateContext(MVU_STATE);
        assert.match(textOf(await run(context, 'state_set', { scope: 'tracker', path: '/time', value: 'night' })), /^state\.read_only/);
        assert.match(textOf(await run(context, 'state_set', { scope: 'mvu', path: '/stat_data/hp', value: 'lots' })), /^state\.schema_rejected/);
        assert.match(textOf(await run(context, 'state_patch', { scope: 'mvu', ops: [{ op: 'replace', path: '/schema', value: {} }] })), /^state\.invalid_path/);
        assert.match(textOf(await run(context, 'state_set', { scope: 'chat', path: '/', value: 1 })), /^state\.invalid_path/);
        assert.equal(staged.length, 0);
    });

    it('a global write asks the user; Deny is tool.denied_by_user and stages nothing', async () => {
        const denied = stateContext(MVU_STATE, false);
        const outcome = await run(denied.context, 'state_set', { scope: 'global', path: '/weather', value: 'rain' });
        assert.ok(!outcome.ok && outcome.error.code === 'tool.denied_by_user');
        assert.deepEqual(denied.asked, ['state.set']);
        assert.equal(denied.staged.length, 0);
        const approved = stateContext(MVU_STATE, true);
        assert.ok((await run(approved.context, 'state_set', { scope: 'global', path: '/weather', value: 'rain' })).ok);
        assert.equal(approved.staged.length, 1);
    });

    it("the commit's writes: changed chat variables in stored form, and MVU's values back in their pairs with a block", async () => {
        const { context, staged } = stateContext(MVU_STATE);
        await run(context, 'state_set', { scope: 'chat', path: '/hp', value: 7 });
        await run(context, 'state_patch', { scope: 'chat', ops: [{ op: 'insert', path: '/inv/-', value: 'torch' }] });
        await run(context, 'state_patch', { scope: 'mvu', ops: [{ op: 'delta', path: '/stat_data/hp', value: -3 }], reason: 'The wolf bit her.' });
        const writes = stateWrites(MVU_STATE, staged);
        assert.deepEqual(writes.find((w) => w.scope === 'chat'), {
            scope: 'chat',
            ops: [{ op: 'replace', path: '/hp', value: 7 }, { op: 'insert', path: '/inv/-', value: 'torch' }],
            values: { hp: 7, inv: '["rope","torch"]' },
        });
        const mvu = writes.find((w) => w.scope === 'mvu');
        assert.ok(mvu && mvu.scope === 'mvu');
        assert.deepEqual(mvu.statData, { hp: [7, 'health'], place: 'Mill' });
        assert.match(mvu.block, /^<UpdateVariable>\n<Analyze>The wolf bit her\.<\/Analyze>\n<JSONPatch>\n[\s\S]*"op": "delta"[\s\S]*"path": "\/hp"[\s\S]*<\/JSONPatch>\n<\/UpdateVariable>$/);
    });
});
