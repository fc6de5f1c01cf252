// The script tools in a run (issue 35): skill.run_script (TauriTavern's application cases, SKILL-SCRIPTS.md
// §4.2–§4.3) and script.run, with the sandbox in-process.
// Run: node --import tsx --test tests/unit/script-tools.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import type { RunSkill, SkillFile } from '../../src/contract/skills';
import { Journal } from '../../src/engine/journal/journal';
import { createMemoryRunStorage } from '../../src/store/run-storage';
import { skillRunScriptTool } from '../../src/tools/skill/run-script';
import type { RunControls, ScriptAccess, ToolContext } from '../../src/tools/tool';
import { DEFAULT_ROOT_POLICY } from '../../src/workspace/roots';
import { Workspace } from '../../src/workspace/workspace';
import { payloadsOf, rawCall, runHarness, toolTurn } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

const HASH = 'a'.repeat(64);

function skillWith(files: Record<string, string>): { skill: RunSkill; skillFiles: (hash: string, path: string) => Promise<SkillFile | undefined> } {
    const all = { 'SKILL.md': '---\nname: stats\ndescription: Stat tables.\n---\nRun scripts/sum.js with {a, b}.', ...files };
    const skill: RunSkill = { name: 'stats', description: 'Stat tables.', scope: 'global', hash: HASH, files: Object.entries(all).map(([path, text]) => ({ path, bytes: text.length })) };
    return { skill, skillFiles: async (hash, path) => (hash === HASH && path in all ? { path, encoding: 'utf8', content: all[path as keyof typeof all]!, bytes: all[path as keyof typeof all]!.length } : undefined) };
}

const lastToolText = (h: ReturnType<typeof runHarness>, index = -1) => {
    const messages = h.requests.at(index)!.messages.filter((m) => m.role === 'tool');
    return messages.at(-1)?.content ?? '';
};

const finishing = [toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Done.' }), rawCall('c', 'workspace_commit', {}), rawCall('f', 'workspace_finish', {}))];

describe('skill.run_script', () => {
    const { skill, skillFiles } = skillWith({
        'scripts/sum.js': "import { workspace } from '@tauritavern/runtime'; import { double } from './lib/util.js'; export default (args) => { const base = Number(workspace.readText('scratch/base.md')); workspace.writeText('scratch/total.md', String(base + double(args.a))); return { total: base + double(args.a) }; };",
        'scripts/lib/util.js': 'export const double = (x) => x * 2;',
        'scripts/boom.js': 'export default () => { throw new Error("stat table missing"); };',
        'scripts/stale.js': "import { workspace } from '@tauritavern/runtime'; export default async () => { await null; workspace.writeText('scratch/base.md', '0'); return null; };",
        'scripts/sneaky.js': "import { workspace } from '@tauritavern/runtime'; export default () => { workspace.writeText('input/x.md', 'x'); return null; };",
    });

    it('runs a skill script over the workspace: its result reaches the model, its write is journaled and readable', async () => {
        const h = runHarness({
            skillFiles,
            script: [
                toolTurn(rawCall('b', 'workspace_write_file', { path: 'scratch/base.md', content: '10' })),
                toolTurn(rawCall('s', 'skill_run_script', { skill: 'stats', script: 'sum', args: { a: 16 } })),
                toolTurn(rawCall('r', 'workspace_read_file', { path: 'scratch/total.md' })),
                ...finishing,
            ],
        });
        const outcome = await h.run(sampleRunInput({ runId: 'sum', skills: [skill] }));
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        assert.match(lastToolText(h, 2), /^Executed skill script `stats\/scripts\/sum\.js`\. Result:\n\{"total":42\}\nWrote: scratch\/total\.md\./);
        assert.match(lastToolText(h, 3), /42/);
        const writes = payloadsOf(await h.journal('sum'), 'file-write').map((p) => p.path);
        assert.deepEqual(writes, ['scratch/base.md', 'scratch/total.md', 'output/main.md']);
        assert.ok(payloadsOf(await h.journal('sum'), 'checkpoint').some((p) => p.path === 'scratch/total.md'), 'checkpointed like a write');
    });

    it('names the problem: a bad name, an invisible skill, a missing script, a thrown error with its stack, a write where it may not', async () => {
        const h = runHarness({
            skillFiles,
            script: [
                toolTurn(
                    rawCall('1', 'skill_run_script', { skill: 'stats', script: 'Bad_Name' }),
                    rawCall('2', 'skill_run_script', { skill: 'secret', script: 'sum' }),
                    rawCall('3', 'skill_run_script', { skill: 'stats', script: 'nope' }),
                    rawCall('4', 'skill_run_script', { skill: 'stats', script: 'boom' }),
                    rawCall('5', 'skill_run_script', { skill: 'stats', script: 'sneaky' }),
                    rawCall('6', 'skill_run_script', { skill: 'stats', script: 'sum', extra: 1 }),
                ),
                ...finishing,
            ],
        });
        await h.run(sampleRunInput({ runId: 'errors', skills: [skill], hiddenSkills: ['secret'] }));
        const fails = payloadsOf(await h.journal('errors'), 'tool-call-fail');
        assert.deepEqual(fails.map((f) => f.code), ['skill.run_script_invalid_name', 'skill.run_script_skill_not_visible', 'skill.run_script_not_found', 'skill.run_script_execution_failed', 'skill.run_script_execution_failed', 'tool.invalid_arguments']);
        assert.match(fails[0]!.hint, /SKILL\.md/);
        assert.match(fails[3]!.message, /stat table missing/);
        assert.match(fails[3]!.message, /boom\.js/);
        assert.match(fails[4]!.message, /input\/x\.md/, 'a write where the agent may not write fails the script, naming the path');
    });

    it('a write to a file that changed while the script ran is refused whole, naming the file', async () => {
        const storage = createMemoryRunStorage();
        const journal = new Journal('stale', storage, () => undefined, () => 1000);
        const workspace = new Workspace('stale', DEFAULT_ROOT_POLICY, storage, journal, () => 1000);
        await workspace.write('scratch/base.md', '10', 'replace');
        const scripts: ScriptAccess = {
            // Meanwhile another agent of the run writes the file the script also writes.
            run: async () => {
                await workspace.write('scratch/base.md', '11', 'replace');
                return { ok: true, json: 'null', writes: [{ path: 'scratch/a.md', content: 'a' }, { path: 'scratch/base.md', content: '0' }], lastWritePath: 'scratch/base.md', logs: [], console: '' };
            },
            programTools: { names: [], refused: [], call: async () => ({ ok: false, code: 'tool.not_allowed', message: '' }) },
        };
        const run: RunControls = { foreground: true, hasCommitted: () => false, commit: async () => ({ messageId: 1 }), finish: () => undefined };
        const context: ToolContext = { input: sampleRunInput({ skills: [skill] }), workspace, run, skills: { readFile: skillFiles, charsRead: 0 }, signal: new AbortController().signal, scripts };
        const outcome = await skillRunScriptTool.execute(skillRunScriptTool.args.parse({ skill: 'stats', script: 'sum' }), context);
        assert.ok(!outcome.ok && outcome.error.code === 'skill.run_script_write_failed', JSON.stringify(outcome));
        assert.match(outcome.error.message, /scratch\/base\.md/);
        assert.equal(workspace.get('scratch/a.md'), undefined, 'none of its writes were applied');
        assert.equal(workspace.get('scratch/base.md')?.content, '11');
    });

    it('a profile with scripts off is offered neither script tool; `skills` offers only skill.run_script', async () => {
        for (const [scripts, expected] of [['off', []], ['skills', ['skill_run_script']], ['all', ['skill_run_script', 'script_run']]] as const) {
            const h = runHarness({ script: finishing });
            const profile: Profile = { ...WRITER_PROFILE, scripts };
            await h.run(sampleRunInput({ runId: `scripts-${scripts}`, profile }), profile);
            const offered = h.requests[0]!.tools.map((t) => t.function.name).filter((name) => name === 'skill_run_script' || name === 'script_run');
            assert.deepEqual(offered, [...expected], scripts);
        }
    });
});

describe('script.run', () => {
    const chat = Array.from({ length: 2000 }, (_, i) => ({ index: i, role: (i % 2 ? 'user' : 'assistant') as 'user' | 'assistant', name: i % 2 ? 'Tester' : 'Seraphina', text: i % 40 === 0 ? `We rested at the bridge (${i}).` : i % 7 === 0 ? `The glade was quiet (${i}).` : `Nothing happened (${i}).`, hidden: false, agentRunId: null }));

    it('50 searches in one program: one model request, a tally back, each inner call journaled and counted', async () => {
        const code = `const tally = {}; for (let i = 0; i < 25; i++) for (const place of args.places) { const text = await tools.chat_search({ query: place, limit: 1 }); const m = /(\\d+) (?:hits?|matches?)/.exec(text); tally[place] = m ? Number(m[1]) : text.length; } return tally;`;
        const h = runHarness({ script: [toolTurn(rawCall('p', 'script_run', { code, args: { places: ['bridge', 'glade'] } })), ...finishing] });
        await h.run(sampleRunInput({ runId: 'tally', prefix: chat }));
        assert.equal(h.requests.length, 2, 'the program is one call: the model is asked once for it, then for the reply');
        assert.match(lastToolText(h, 1), /^Program result:\n\{"bridge":\d+,"glade":\d+\}/);
        const inner = payloadsOf(await h.journal('tally'), 'script-call');
        assert.equal(inner.length, 50);
        assert.ok(inner.every((call) => call.programCallId === 'call-0001' && call.canonical === 'chat.search' && call.counted && call.code === null));
    });

    it('inner calls count against the run\'s tool budget', async () => {
        const profile: Profile = { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxCallsPerRun: 10 } };
        const code = 'let n = 0; try { for (;;) { await tools.chat_search({ query: "bridge" }); n++; } } catch (e) { return [n, e.code]; }';
        const h = runHarness({ script: [toolTurn(rawCall('p', 'script_run', { code })), ...finishing] });
        await h.run(sampleRunInput({ runId: 'budget', profile }), profile);
        // The program's own call counts when its result lands, after the ten inner calls the budget allowed.
        assert.match(lastToolText(h, 1), /\[10,"tool\.budget_exhausted"\]/);
        assert.equal(payloadsOf(await h.journal('budget'), 'script-call').filter((call) => call.counted).length, 10);
    });

    it('a program that calls a write tool gets an error with a code; a throwing program fails with script.execution_failed', async () => {
        const h = runHarness({
            script: [
                toolTurn(
                    rawCall('1', 'script_run', { code: 'try { await tools.workspace_write_file({ path: "scratch/x.md", content: "x" }); } catch (e) { return e.code; }' }),
                    rawCall('2', 'script_run', { code: 'await tools.workspace_write_file({ path: "scratch/x.md", content: "x" });' }),
                ),
                ...finishing,
            ],
        });
        await h.run(sampleRunInput({ runId: 'writes' }));
        const text = JSON.stringify(h.requests[1]!.messages.filter((m) => m.role === 'tool'));
        assert.match(text, /Program result:\\n\\"tool\.not_allowed\\"/);
        assert.equal(payloadsOf(await h.journal('writes'), 'tool-call-fail')[0]!.code, 'script.execution_failed');
        assert.ok(!payloadsOf(await h.journal('writes'), 'file-write').some((p) => p.path === 'scratch/x.md'));
    });
});
