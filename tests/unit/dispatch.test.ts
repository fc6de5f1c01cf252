// Unit tests of the dispatcher: name resolution, profile policy, argument checks, budgets, result text.
// Run: node --import tsx --test tests/unit/dispatch.test.ts
import { noSkills } from '../fixtures/run-input';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { toolError } from '../../src/contract/errors';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import type { RunInput } from '../../src/contract/run-input';
import { Budget } from '../../src/engine/agents/budget';
import { Dispatcher } from '../../src/engine/agents/dispatch';
import { toolResultText } from '../../src/contract/tool-result-text';
import type { ToolOutcome } from '../../src/tools/tool';

interface Dispatched {
    canonical: string | null;
    /** The validated arguments the tool got, when the call was ready to run. */
    args?: unknown;
    outcome: ToolOutcome;
}
import { Journal } from '../../src/engine/journal/journal';
import { createMemoryRunStorage } from '../../src/store/run-storage';
import { ALL_TOOLS } from '../../src/tools/registry';
import { aliasOf, defineTool, failure, success, type RunControls, type ToolContext, type ToolDefinition } from '../../src/tools/tool';
import { DEFAULT_ROOT_POLICY } from '../../src/workspace/roots';
import { Workspace } from '../../src/workspace/workspace';

/** Small tools in three namespaces; each counts its executions so a refused call is seen not to run. */
function fakeTools() {
    const executed: string[] = [];
    const make = (name: string, args: z.ZodObject = z.object({})) =>
        defineTool({
            name,
            alias: aliasOf(name),
            description: `The ${name} tool.`,
            args,
            readOnly: true,
            async execute(input) {
                executed.push(name);
                return success(`${name} ran with ${JSON.stringify(input)}`);
            },
        });
    const tools: ToolDefinition[] = [
        make('ns.alpha', z.object({ count: z.number().int().min(1).max(5), label: z.string().optional() })),
        make('ns.beta'),
        make('nsx.gamma'),
        make('other.delta', z.object({ items: z.array(z.object({ index: z.number().int() })) })),
    ];
    return { tools, executed };
}

function profileWith(tools: Partial<Profile['tools']>): Profile {
    return { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxCallsPerTool: {}, ...tools } };
}

function context(): ToolContext {
    const storage = createMemoryRunStorage();
    const journal = new Journal('run-d', storage, () => {}, () => 1);
    const workspace = new Workspace('run-d', DEFAULT_ROOT_POLICY, storage, journal, () => 1);
    const run: RunControls = {
        foreground: true,
        hasCommitted: () => false,
        async commit() {
            return { messageId: 1 };
        },
        finish() {},
    };
    const input: RunInput = {
        runId: 'run-d',
        generationType: 'normal',
        chat: { chatId: 'chat-d', integrity: 'integrity-d', characterId: '0', groupId: null, characterName: 'Alice', userName: 'Bob' },
        prefix: [],
        prompt: [{ role: 'user', content: 'Hi' }],
        worldInfo: { captured: true, entries: [] },
        profile: WRITER_PROFILE,
        source: 'custom',
        retry: { maxRetries: 0, baseDelayMs: 0 },
        skills: [],
        hiddenSkills: [],
    };
    return { input, workspace, run, skills: noSkills(), signal: new AbortController().signal };
}

function setup(tools: Partial<Profile['tools']>, registry?: readonly ToolDefinition[]) {
    const fake = fakeTools();
    const profile = profileWith(tools);
    const budget = new Budget(profile.tools);
    const dispatcher = new Dispatcher(registry ?? fake.tools, profile, budget);
    const ctx = context();
    let n = 0;
    const dispatch = async (name: string, args: Record<string, unknown> | string = {}, wrapUp = false): Promise<Dispatched> => {
        const prepared = dispatcher.prepare({ id: `c${(n += 1)}`, name, argumentsText: typeof args === 'string' ? args : JSON.stringify(args) }, wrapUp);
        // As the engine does: the call's start is journaled with `counts`, and the run's projection counts it.
        if (prepared.counts && prepared.canonical) budget.countCall(prepared.canonical);
        return { canonical: prepared.canonical, ...(prepared.ready ? { args: prepared.args } : {}), outcome: await dispatcher.execute(prepared, ctx) };
    };
    return { dispatcher, budget, dispatch, executed: fake.executed, workspace: ctx.workspace };
}

function errorOf(dispatched: Dispatched) {
    if (dispatched.outcome.ok) assert.fail(`expected an error, got: ${dispatched.outcome.result.content}`);
    return dispatched.outcome.error;
}

function contentOf(dispatched: Dispatched): string {
    if (!dispatched.outcome.ok) assert.fail(`expected success, got ${dispatched.outcome.error.code}: ${dispatched.outcome.error.message}`);
    return dispatched.outcome.result.content;
}

describe('Dispatcher: names', () => {
    it('resolves both the canonical name and the alias', async () => {
        const { dispatcher, dispatch, executed } = setup({ allow: ['*'] });
        assert.equal(dispatcher.canonicalName('ns.beta'), 'ns.beta');
        assert.equal(dispatcher.canonicalName('ns_beta'), 'ns.beta');
        assert.equal(dispatcher.canonicalName('ns-beta'), null);
        assert.equal(dispatcher.canonicalName('nope'), null);

        const byAlias = await dispatch('ns_beta');
        const byName = await dispatch('ns.beta');
        assert.equal(byAlias.canonical, 'ns.beta');
        assert.equal(byName.canonical, 'ns.beta');
        assert.match(contentOf(byAlias), /^ns\.beta ran/);
        assert.match(contentOf(byName), /^ns\.beta ran/);
        assert.deepEqual(executed, ['ns.beta', 'ns.beta']);
    });

    it('resolves the real workspace tools by alias and by canonical name', () => {
        const { dispatcher } = setup({}, ALL_TOOLS);
        for (const tool of ALL_TOOLS) {
            assert.equal(dispatcher.canonicalName(tool.alias), tool.name);
            assert.equal(dispatcher.canonicalName(tool.name), tool.name);
        }
    });

    it('shows providers aliases only, with the tool descriptions', () => {
        const { dispatcher } = setup({ allow: ['ns.*'] });
        const wire = dispatcher.wireTools(false);
        assert.deepEqual(wire.map((t) => t.function.name), ['ns_alpha', 'ns_beta']);
        assert.equal(wire[0]!.function.description, 'The ns.alpha tool.');
        assert.deepEqual(Object.keys(wire[0]!.function.parameters.properties as object).sort(), ['count', 'label']);
    });
});

describe('Dispatcher: policy', () => {
    it('"*" allows every tool', () => {
        const { dispatcher } = setup({ allow: ['*'] });
        assert.deepEqual(dispatcher.visibleTools(false).map((t) => t.name), ['ns.alpha', 'ns.beta', 'nsx.gamma', 'other.delta']);
    });

    it('"ns.*" allows one namespace only (not a namespace that merely starts with the same letters)', async () => {
        const { dispatcher, dispatch, executed } = setup({ allow: ['ns.*'] });
        assert.deepEqual(dispatcher.visibleTools(false).map((t) => t.name), ['ns.alpha', 'ns.beta']);
        assert.equal(errorOf(await dispatch('nsx_gamma')).code, 'tool.not_allowed');
        assert.equal(errorOf(await dispatch('other.delta', { items: [] })).code, 'tool.not_allowed');
        assert.deepEqual(executed, []);
    });

    it('deny wins over allow, for exact names and patterns, whatever name the model uses', async () => {
        const exact = setup({ allow: ['*'], deny: ['ns.beta'] });
        assert.deepEqual(exact.dispatcher.visibleTools(false).map((t) => t.name), ['ns.alpha', 'nsx.gamma', 'other.delta']);
        assert.equal(errorOf(await exact.dispatch('ns.beta')).code, 'tool.not_allowed');
        assert.equal(errorOf(await exact.dispatch('ns_beta')).code, 'tool.not_allowed');

        const pattern = setup({ allow: ['ns.alpha', 'ns.beta', 'other.*'], deny: ['ns.*'] });
        assert.deepEqual(pattern.dispatcher.visibleTools(false).map((t) => t.name), ['other.delta']);
        assert.equal(errorOf(await pattern.dispatch('ns_alpha', { count: 1 })).code, 'tool.not_allowed');

        const everything = setup({ allow: ['*'], deny: ['*'] });
        assert.deepEqual(everything.dispatcher.visibleTools(false), []);
        assert.deepEqual([...exact.executed, ...pattern.executed, ...everything.executed], []);
    });

    it('answers unknown and not-allowed tools with tool.not_allowed and a hint listing what is available', async () => {
        const { dispatch, executed } = setup({ allow: ['ns.*'], deny: ['ns.beta'] });
        const unknown = errorOf(await dispatch('shell_exec', { cmd: 'rm -rf /' }));
        assert.equal(unknown.code, 'tool.not_allowed');
        assert.match(unknown.message, /shell_exec/);
        assert.match(unknown.hint, /ns_alpha/);
        assert.doesNotMatch(unknown.hint, /ns_beta|nsx_gamma|other_delta/);
        const denied = await dispatch('ns_beta');
        assert.equal(denied.canonical, 'ns.beta');
        assert.equal(errorOf(denied).code, 'tool.not_allowed');
        assert.equal((await dispatch('shell_exec')).canonical, null);
        assert.deepEqual(executed, []);
    });

    it('checks policy before arguments: a denied tool with bad arguments is still tool.not_allowed', async () => {
        const { dispatch } = setup({ allow: ['ns.beta'] });
        assert.equal(errorOf(await dispatch('ns_alpha', '{not json')).code, 'tool.not_allowed');
    });
});

describe('Dispatcher: arguments', () => {
    it('rejects arguments that are not JSON', async () => {
        const { dispatch, executed } = setup({ allow: ['*'] });
        const error = errorOf(await dispatch('ns_alpha', '{"count": 1'));
        assert.equal(error.code, 'tool.invalid_arguments');
        assert.match(error.message, /not valid JSON/);
        assert.match(error.message, /ns_alpha/);
        assert.ok(error.hint.length > 0);
        assert.deepEqual(executed, []);
    });

    it('treats empty argument text as {}', async () => {
        const { dispatch } = setup({ allow: ['*'] });
        assert.match(contentOf(await dispatch('ns_beta', '')), /ran with \{\}/);
        assert.match(errorOf(await dispatch('ns_alpha', '')).message, /count/);
    });

    it('names the field of a schema violation: missing, wrong type, out of range, nested', async () => {
        const { dispatch, executed } = setup({ allow: ['*'] });
        const cases: Array<[string, Record<string, unknown> | string, RegExp]> = [
            ['ns_alpha', {}, /\bcount\b/],
            ['ns_alpha', { count: 'three' }, /\bcount\b/],
            ['ns_alpha', { count: 9 }, /\bcount\b/],
            ['ns_alpha', { count: 2, label: 7 }, /\blabel\b/],
            ['other_delta', { items: [{ index: 0 }, { index: 'x' }] }, /items\.1\.index/],
        ];
        for (const [name, args, field] of cases) {
            const error = errorOf(await dispatch(name, args));
            assert.equal(error.code, 'tool.invalid_arguments', JSON.stringify(args));
            assert.match(error.message, field, `${JSON.stringify(args)} → ${error.message}`);
        }
        const notObject = errorOf(await dispatch('ns_alpha', '[1,2]'));
        assert.equal(notObject.code, 'tool.invalid_arguments');
        assert.deepEqual(executed, []);
    });

    it('passes the parsed arguments (with defaults) to the tool', async () => {
        const { dispatch } = setup({}, ALL_TOOLS);
        const listed = await dispatch('workspace_list_files', {});
        assert.equal(listed.canonical, 'workspace.list_files');
        assert.deepEqual(listed.args, { path: '', depth: 2 });
        const bad = errorOf(await dispatch('workspace_list_files', { depth: 9 }));
        assert.equal(bad.code, 'tool.invalid_arguments');
        assert.match(bad.message, /depth/);
        const missing = errorOf(await dispatch('workspace.write_file', { path: 'output/main.md' }));
        assert.equal(missing.code, 'tool.invalid_arguments');
        assert.match(missing.message, /content/);
    });
});

describe('Dispatcher: budgets', () => {
    it('refuses a tool over maxCallsPerTool without running it', async () => {
        const { dispatch, executed, budget } = setup({ allow: ['*'], maxCallsPerTool: { 'ns.beta': 2 } });
        contentOf(await dispatch('ns_beta'));
        contentOf(await dispatch('ns.beta'));
        const third = errorOf(await dispatch('ns_beta'));
        assert.equal(third.code, 'tool.budget_exhausted');
        assert.match(third.message, /ns\.beta/);
        assert.match(third.message, /\b2\b/);
        contentOf(await dispatch('nsx_gamma'));
        assert.deepEqual(executed, ['ns.beta', 'ns.beta', 'nsx.gamma']);
        assert.equal(budget.calls, 3);
    });

    it('a per-tool limit of 0 blocks the tool from the start', async () => {
        const { dispatch, executed } = setup({ allow: ['*'], maxCallsPerTool: { 'ns.beta': 0 } });
        assert.equal(errorOf(await dispatch('ns_beta')).code, 'tool.budget_exhausted');
        assert.deepEqual(executed, []);
    });

    it('refuses every call but commit and finish once maxCallsPerRun is used up', async () => {
        const { dispatch, workspace } = setup({ maxCallsPerRun: 1 }, ALL_TOOLS);
        contentOf(await dispatch('workspace_list_files'));
        const refused = errorOf(await dispatch('workspace_write_file', { path: 'output/main.md', content: 'hi' }));
        assert.equal(refused.code, 'tool.budget_exhausted');
        assert.match(refused.message, /\b1\b/);
        // Finish still reaches the tool (which refuses for its own reason: nothing committed yet).
        assert.equal(errorOf(await dispatch('workspace_finish')).code, 'workspace.commit_required');
        assert.equal(errorOf(await dispatch('workspace_commit')).code, 'workspace.empty_artifact');
        assert.equal(workspace.get('output/main.md'), undefined, 'the refused write did not run');
    });

    it('does not count denied or refused calls', async () => {
        const { dispatch, executed, budget } = setup({ allow: ['ns.*'], deny: ['ns.beta'], maxCallsPerRun: 3, maxCallsPerTool: { 'ns.alpha': 1 } });
        contentOf(await dispatch('ns_alpha', { count: 1 }));
        for (let i = 0; i < 3; i += 1) {
            assert.equal(errorOf(await dispatch('ns_alpha', { count: 2 })).code, 'tool.budget_exhausted');
            assert.equal(errorOf(await dispatch('ns_beta')).code, 'tool.not_allowed');
            assert.equal(errorOf(await dispatch('unknown_tool')).code, 'tool.not_allowed');
        }
        assert.equal(budget.calls, 1);
        const more = setup({ allow: ['*'], deny: ['ns.beta'], maxCallsPerRun: 2 });
        for (let i = 0; i < 5; i += 1) errorOf(await more.dispatch('ns_beta'));
        contentOf(await more.dispatch('nsx_gamma'));
        contentOf(await more.dispatch('nsx_gamma'));
        assert.equal(errorOf(await more.dispatch('nsx_gamma')).code, 'tool.budget_exhausted');
        assert.deepEqual(executed, ['ns.alpha']);
        assert.deepEqual(more.executed, ['nsx.gamma', 'nsx.gamma']);
    });

    it('during wrap-up shows and runs only commit and finish', async () => {
        const { dispatcher, dispatch } = setup({}, ALL_TOOLS);
        assert.deepEqual(dispatcher.wireTools(true).map((t) => t.function.name), ['workspace_commit', 'workspace_finish']);
        const normal = dispatcher.wireTools(false).map((t) => t.function.name);
        for (const alias of ['workspace_list_files', 'workspace_write_file', 'workspace_commit', 'workspace_finish']) assert.ok(normal.includes(alias), alias);
        const refused = errorOf(await dispatch('workspace_list_files', {}, true));
        assert.equal(refused.code, 'tool.budget_exhausted');
        assert.match(refused.hint, /workspace_commit/);
        assert.equal(errorOf(await dispatch('workspace_finish', {}, true)).code, 'workspace.commit_required');
    });
});

describe('toolResultText', () => {
    it('is the content of a success, verbatim', () => {
        assert.equal(toolResultText(success('line 1\nline 2', { x: 1 })), 'line 1\nline 2');
    });

    it('formats an error as "ERROR <code>: <message>\\nHint: <hint>"', () => {
        const outcome = failure(toolError('workspace.file_not_found', 'No file "scratch/a.md".', 'List the folder first.'));
        assert.equal(toolResultText(outcome), 'ERROR workspace.file_not_found: No file "scratch/a.md".\nHint: List the folder first.');
    });

    it('formats a dispatcher refusal the same way', async () => {
        const { dispatch } = setup({ allow: ['ns.*'] });
        const dispatched = await dispatch('nsx_gamma');
        const error = errorOf(dispatched);
        assert.equal(toolResultText(dispatched.outcome), `ERROR tool.not_allowed: ${error.message}\nHint: ${error.hint}`);
    });
});
