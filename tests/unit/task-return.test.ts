// task.return (SPEC §3, issue 39 §10): artifacts name their kind and role and must be files in the workspace;
// findings may be texts or small objects, which reach the caller as lines.
// Run: node --import tsx --test tests/unit/task-return.test.ts
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Journal } from '../../src/engine/journal/journal';
import type { AgentAccess } from '../../src/tools/agent-access';
import { taskReturnTool } from '../../src/tools/agent/task-return';
import { taskAccess } from '../../src/engine/agents/task-access';
import { newTaskEntry } from '../../src/engine/agents/task-board';
import type { RunControls, ToolContext, ToolOutcome } from '../../src/tools/tool';
import { DEFAULT_ROOT_POLICY } from '../../src/workspace/roots';
import { Workspace } from '../../src/workspace/workspace';
import { noSkills, sampleRunInput } from '../fixtures/run-input';
import { suitesPerStorageKind } from '../fixtures/storage-kinds';

const { newStorage } = suitesPerStorageKind();

async function setup() {
    const storage = newStorage();
    const journal = new Journal('run-t', storage, () => undefined, () => 1000);
    const workspace = new Workspace('run-t', DEFAULT_ROOT_POLICY, storage, journal, () => 1000);
    await workspace.write('summaries/places.md', '# Places', 'replace');
    const returned: unknown[] = [];
    const agents = {
        async returnResult(result: unknown) {
            returned.push(result);
            return { ok: true, resultPath: 'summaries/.r.json', summaryPath: 'summaries/task-1.md' };
        },
    } as unknown as AgentAccess; // task.return calls returnResult only
    const context: ToolContext = { input: sampleRunInput(), workspace, run: {} as RunControls, skills: noSkills(), signal: new AbortController().signal, agents };
    const call = (raw: Record<string, unknown>): Promise<ToolOutcome> => taskReturnTool.execute(taskReturnTool.args.parse(raw), context);
    return { call, returned };
}

it('an artifact needs its kind and role', () => {
    assert.equal(taskReturnTool.args.safeParse({ summary: 'x', artifacts: [{ path: 'summaries/places.md' }] }).success, false);
    assert.equal(taskReturnTool.args.safeParse({ summary: 'x', artifacts: [{ path: 'summaries/places.md', kind: 'notes', role: 'the places' }] }).success, true);
});

it('an artifact that is not a file of the workspace is refused with a code the model can act on; nothing is returned', async () => {
    const { call, returned } = await setup();
    const missing = await call({ summary: 'Done.', artifacts: [{ path: 'summaries/nowhere.md', kind: 'notes', role: 'x' }] });
    assert.ok(!missing.ok && missing.error.code === 'tool.invalid_arguments');
    const hidden = await call({ summary: 'Done.', artifacts: [{ path: 'tool-results/x.json', kind: 'notes', role: 'x' }] });
    assert.ok(!hidden.ok);
    assert.equal(returned.length, 0);
});

it('structured findings reach the caller as lines, with their refs', async () => {
    const { call, returned } = await setup();
    const outcome = await call({
        summary: 'Found the bridge.',
        artifacts: [{ path: 'summaries/places.md', kind: 'notes', role: 'where things are' }],
        findings: ['The mill is east.', { text: 'The bridge is north.', ref: 'chat:current#12' }, { distance: 3 }],
    });
    assert.ok(outcome.ok);
    assert.deepEqual((returned[0] as { findings: string[] }).findings, ['The mill is east.', 'The bridge is north. (chat:current#12)', '{"distance":3}']);
});

it('two tasks of one agent returning at the same moment never share a summary file', async () => {
    const storage = newStorage();
    const journal = new Journal('run-t', storage, () => undefined, () => 1000);
    const workspace = new Workspace('run-t', DEFAULT_ROOT_POLICY, storage, journal, () => 1000);
    const entry = (taskId: string) => newTaskEntry({ taskId, agentId: 'researcher', agentName: 'Researcher', title: taskId, parentCallId: `call-${taskId}`, startedAt: 0 });
    const result = { summary: 'Done.', status: 'completed' as const, artifacts: [], findings: [], warnings: [], suggestedNextActions: [], questionsForCaller: [] };
    const [a, b] = await Promise.all([taskAccess(entry('task-1'), workspace).returnResult(result), taskAccess(entry('task-2'), workspace).returnResult(result)]);
    assert.ok(a.ok && b.ok);
    assert.deepEqual([a.summaryPath, b.summaryPath].sort(), ['summaries/researcher-result-2.md', 'summaries/researcher-result.md']);
});
