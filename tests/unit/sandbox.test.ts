// The script sandbox (issue 35): TauriTavern's skill-script engine cases (SKILL-SCRIPTS.md §4.1), ported to
// our API, and the program (script.run) runner. QuickJS runs in-process here, as in the sandbox worker.
// Run: node --import tsx --test tests/unit/sandbox.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SCRIPT_LIMITS, type ProgramRequest, type ScriptLimits, type ScriptResult, type SkillScriptRequest, type ToolCallAnswer } from '../../src/contract/scripts';
import { loadQuickJs } from '../../src/sandbox/load-quickjs';
import { runScript } from '../../src/sandbox/run-script';

const noTools = async (): Promise<ToolCallAnswer> => ({ ok: false, code: 'tool.not_allowed', message: 'none' });

function skill(main: string, extra: Partial<Omit<SkillScriptRequest, 'kind' | 'limits'>> & { limits?: Partial<ScriptLimits> } = {}): SkillScriptRequest {
    return {
        kind: 'skill',
        entry: 'scripts/helper.js',
        args: {},
        workspace: { files: { 'scratch/notes.md': 'hello' }, visible: ['output', 'scratch', 'plan', 'summaries', 'persist'], writable: ['output', 'scratch'] },
        context: { worldInfo: { entries: [] }, variables: { local: {}, global: {} } },
        ...extra,
        modules: { 'scripts/helper.js': main, ...(extra.modules ?? {}) },
        limits: { ...SCRIPT_LIMITS, ...extra.limits },
    };
}

async function run(request: SkillScriptRequest | ProgramRequest, callTool: (name: string, args: unknown) => Promise<ToolCallAnswer> = noTools): Promise<ScriptResult> {
    return runScript(await loadQuickJs(), request, callTool);
}

function value(result: ScriptResult): unknown {
    assert.ok(result.ok, result.ok ? '' : `${result.failure}: ${result.message}`);
    return JSON.parse(result.json);
}

function failed(result: ScriptResult): { failure: string; message: string } {
    assert.ok(!result.ok, `expected a failure, got ${result.ok && result.json}`);
    return result;
}

describe('skill scripts: entry function and return value', () => {
    it('executes the default export with args', async () => {
        assert.deepEqual(value(await run(skill('export default (args) => ({ sum: args.a + args.b });', { args: { a: 20, b: 22 } }))), { sum: 42 });
    });
    it('falls back to the main export', async () => {
        assert.deepEqual(value(await run(skill('export function main() { return "main"; }'))), 'main');
    });
    it('awaits an async entry function, and a top-level await that settles', async () => {
        assert.deepEqual(value(await run(skill('const x = await Promise.resolve(2); export default async () => { await null; return x * 21; };'))), 42);
    });
    it('fails a top-level await that never settles', async () => {
        assert.equal(failed(await run(skill('await new Promise(() => {}); export default () => 1;'))).failure, 'execution');
    });
    it('fails with a clear message when neither default nor main is a function', async () => {
        assert.match(failed(await run(skill('export const x = 1;'))).message, /default.*main/);
    });
    it('rejects undefined and a function as the result', async () => {
        assert.match(failed(await run(skill('export default () => undefined;'))).message, /undefined/);
        assert.match(failed(await run(skill('export default () => () => 1;'))).message, /function/);
    });
    it('fails a circular result instead of recursing', async () => {
        assert.match(failed(await run(skill('export default () => { const a = {}; a.a = a; return a; };'))).message, /circular/i);
    });
    it('serializes with the JSON it started with: a script replacing JSON.stringify changes nothing', async () => {
        assert.deepEqual(value(await run(skill('JSON.stringify = () => "hacked"; export default () => ({ ok: true });'))), { ok: true });
    });
});

describe('skill scripts: errors and limits', () => {
    it('propagates a thrown message and its stack, and an async rejection', async () => {
        const thrown = failed(await run(skill('export default () => { throw new Error("boom at 3"); };')));
        assert.match(thrown.message, /boom at 3/);
        assert.match(thrown.message, /helper\.js/);
        assert.match(failed(await run(skill('export default async () => { throw new Error("async boom"); };'))).message, /async boom/);
    });
    it('interrupts an infinite loop at its time limit', async () => {
        const started = Date.now();
        const result = failed(await run(skill('export default () => { while (true) {} };', { limits: { wallMs: 200 } })));
        assert.equal(result.failure, 'timeout');
        assert.match(result.message, /timed out after 0\.2s/);
        assert.ok(Date.now() - started < 2000);
    });
    it('limits the result size', async () => {
        const result = failed(await run(skill('export default () => "x".repeat(600);', { limits: { resultBytes: 512 } })));
        assert.equal(result.failure, 'result_too_large');
        assert.match(result.message, /workspace\.writeText/);
    });
    it('fails fast over the input budget', async () => {
        const result = failed(await run(skill('export default () => 1;', { args: { big: 'x'.repeat(2000) }, limits: { inputBytes: 1000 } })));
        assert.equal(result.failure, 'input_too_large');
        assert.match(result.message, /input/);
    });
    it('fails over the output budget, by writes or by logs; repeated writes to one path count once', async () => {
        const writes = failed(await run(skill(`import { workspace } from '@tauritavern/runtime'; export default () => { for (let i = 0; i < 20; i++) workspace.writeText('scratch/f' + i + '.txt', 'x'.repeat(32)); return null; };`, { limits: { outputBytes: 512 } })));
        assert.equal(writes.failure, 'output_too_large');
        assert.match(writes.message, /output/);
        assert.equal(failed(await run(skill(`import { log } from '@tauritavern/runtime'; export default () => { for (let i = 0; i < 50; i++) log.info('x'.repeat(32)); return null; };`, { limits: { outputBytes: 512 } }))).failure, 'output_too_large');
        assert.equal(value(await run(skill(`import { workspace } from '@tauritavern/runtime'; export default () => { for (let i = 0; i < 10; i++) workspace.writeText('scratch/one.txt', 'x'.repeat(32)); return null; };`, { limits: { outputBytes: 512 } }))), null);
    });
    it('a heap over its limit fails the script, not the sandbox', async () => {
        const result = failed(await run(skill('const s = "x".repeat(1 << 20); export default () => { const a = []; for (;;) a.push(s + a.length); };', { limits: { heapBytes: 8 * 1024 * 1024 } })));
        assert.equal(result.failure, 'execution');
        assert.match(result.message, /out of memory/);
        assert.deepEqual(value(await run(skill('export default () => 1;'))), 1, 'the next script runs');
    });
    it('runs many at once', async () => {
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => run(skill('export default async (args) => { await null; return args.i * 2; };', { args: { i } }))));
        assert.deepEqual(results.map(value), [0, 2, 4, 6, 8, 10, 12, 14]);
    });
});

describe('skill scripts: imports', () => {
    it('resolves relative imports within the skill\'s scripts', async () => {
        const modules = { 'scripts/lib/util.js': 'export const add = (a, b) => a + b;', 'scripts/lib/more.js': "export { add } from './util.js';" };
        assert.deepEqual(value(await run(skill("import { add } from './lib/more.js'; export default () => add(40, 2);", { modules }))), 42);
    });
    it('refuses imports outside the snapshot and unknown bare names', async () => {
        assert.match(failed(await run(skill("import x from '../outside.js'; export default () => x;"))).message, /outside\.js|Cannot find module/);
        assert.match(failed(await run(skill("import x from 'lodash'; export default () => x;"))).message, /Cannot find module "lodash"/);
    });
    it('fails when the entry module is missing', async () => {
        const request = skill('export default () => 1;');
        assert.equal(failed(await run({ ...request, entry: 'scripts/other.js' })).failure, 'execution');
    });
});

describe('skill scripts: the workspace', () => {
    it('reads and writes an overlay: a written file reads back, and one final write comes out', async () => {
        const result = await run(skill(`import { workspace } from '@tauritavern/runtime'; export default () => { workspace.writeText('output/out.md', workspace.readText('scratch/notes.md') + '!'); return workspace.readText('output/out.md'); };`));
        assert.equal(value(result), 'hello!');
        assert.ok(result.ok);
        assert.deepEqual(result.writes, [{ path: 'output/out.md', content: 'hello!' }]);
    });
    it('keeps the last write of a path, and the last written path apart from the path order', async () => {
        const result = await run(skill(`import { workspace } from '@tauritavern/runtime'; export default () => { workspace.writeText('scratch/z-debug.md', '1'); workspace.writeText('scratch/a-final.md', 'v1'); workspace.writeText('scratch/a-final.md', 'v2'); return null; };`));
        assert.ok(result.ok);
        assert.deepEqual(result.writes, [{ path: 'scratch/a-final.md', content: 'v2' }, { path: 'scratch/z-debug.md', content: '1' }]);
        assert.equal(result.lastWritePath, 'scratch/a-final.md');
    });
    it('refuses reads outside the visible roots and writes outside the writable ones, or to a root itself', async () => {
        assert.match(failed(await run(skill(`import { workspace } from '@tauritavern/runtime'; export default () => workspace.readText('input/secret.json');`))).message, /outside the workspace roots/);
        assert.match(failed(await run(skill(`import { workspace } from '@tauritavern/runtime'; export default () => workspace.writeText('persist/note.txt', 'x');`))).message, /not in a root this agent may write/);
        assert.match(failed(await run(skill(`import { workspace } from '@tauritavern/runtime'; export default () => workspace.writeText('output', 'x');`))).message, /root folder/);
    });
    it('exists: a folder and a file are true, a missing file and an invalid path false; listFiles lists', async () => {
        const result = value(await run(skill(`import { workspace } from '@tauritavern/runtime'; export default () => [workspace.exists('scratch'), workspace.exists('scratch/notes.md'), workspace.exists('scratch/nope.md'), workspace.exists('../x'), workspace.listFiles(), workspace.listFiles('scratch')];`)));
        assert.deepEqual(result, [true, true, false, false, ['scratch'], ['notes.md']]);
    });
});

describe('skill scripts: context, logs and globals', () => {
    it('reads the world info and the variables as given', async () => {
        const context = { worldInfo: { entries: [{ uid: '2', ref: 'worldinfo:Eldoria#2', content: 'A bridge.', constant: false, world: 'Eldoria' }] }, variables: { local: { hp: 12, flags: [true] }, global: {} } };
        const result = value(await run(skill(`import { context } from '@tauritavern/runtime'; export default () => [context.worldInfo.entries[0].ref, context.variables.local.hp, Object.hasOwn(context.variables.local, 'flags'), context.variables.local.missing];`, { context })));
        assert.deepEqual(result, ['worldinfo:Eldoria#2', 12, true, null]);
    });
    it('collects logs in order; log takes strings only', async () => {
        const result = await run(skill(`import { log } from '@tauritavern/runtime'; export default () => { log.info('one'); log.warn('two'); return null; };`));
        assert.ok(result.ok);
        assert.deepEqual(result.logs, [{ level: 'info', text: 'one' }, { level: 'warn', text: 'two' }]);
        assert.match(failed(await run(skill(`import { log } from '@tauritavern/runtime'; export default () => log.info(3);`))).message, /TypeError/);
    });
    it('injects no globals: the runtime is reached only through its module', async () => {
        const result = value(await run(skill(`import { workspace } from '@tauritavern/runtime'; export default () => [typeof $fs, typeof $log, typeof $worldInfo, typeof $variables, typeof globalThis.__tavernAgentRuntime, typeof fetch, typeof setTimeout, typeof require, typeof process, typeof workspace.readText];`)));
        assert.deepEqual(result, ['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'function']);
    });
});

describe('programs (script.run)', () => {
    const program = (code: string, extra: Partial<ProgramRequest> = {}): ProgramRequest => ({ kind: 'program', code, args: {}, tools: ['chat_search', 'workspace_read_file'], refusedTools: ['workspace_write_file'], limits: SCRIPT_LIMITS, ...extra });

    it('calls the tools it is given in a loop and returns only its result', async () => {
        const asked: unknown[] = [];
        const callTool = async (name: string, args: unknown): Promise<ToolCallAnswer> => {
            asked.push([name, args]);
            return { ok: true, text: `${(args as { query: string }).query}: 2 hits` };
        };
        const result = await run(program(`const tally = {}; for (const place of args.places) { const text = await tools.chat_search({ query: place }); tally[place] = Number(text.split(': ')[1].split(' ')[0]); } console.log('done', Object.keys(tally).length); return tally;`, { args: { places: ['bridge', 'glade'] } }), callTool);
        assert.deepEqual(value(result), { bridge: 2, glade: 2 });
        assert.deepEqual(asked, [['chat_search', { query: 'bridge' }], ['chat_search', { query: 'glade' }]]);
        assert.ok(result.ok);
        assert.equal(result.console, 'done 2\n');
    });
    it('a tool error throws, carrying the tool\'s code', async () => {
        const callTool = async (): Promise<ToolCallAnswer> => ({ ok: false, code: 'chat.message_not_found', message: 'no such message' });
        assert.deepEqual(value(await run(program('try { await tools.chat_search({}); } catch (e) { return e.code; }'), callTool)), 'chat.message_not_found');
    });
    it('a tool it may not call rejects with tool.not_allowed; one the agent does not have is not there', async () => {
        assert.deepEqual(value(await run(program('try { await tools.workspace_write_file({ path: "scratch/x", content: "y" }); } catch (e) { return e.code; }'))), 'tool.not_allowed');
        assert.match(failed(await run(program('return await tools.agent_delegate({});'))).message, /not a function/);
    });
    it('at most programCalls calls', async () => {
        const callTool = async (): Promise<ToolCallAnswer> => ({ ok: true, text: 'x' });
        const result = value(await run(program('let n = 0; try { for (;;) { await tools.chat_search({ query: "a" }); n++; } } catch (e) { return [n, e.code]; }', { limits: { ...SCRIPT_LIMITS, programCalls: 5 } }), callTool));
        assert.deepEqual(result, [5, 'script.too_many_calls']);
    });
    it('returns null for no value, and a syntax error fails with its message', async () => {
        assert.equal(value(await run(program('const x = 1;'))), null);
        assert.match(failed(await run(program('return (;'))).message, /SyntaxError/);
    });
    it('a loop at its time limit is stopped', async () => {
        assert.equal(failed(await run(program('for (;;) {}', { limits: { ...SCRIPT_LIMITS, wallMs: 150 } }))).failure, 'timeout');
    });
});
