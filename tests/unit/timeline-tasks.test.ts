import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventPayloads, EventType } from '../../src/contract/events';
import type { JournalEvent } from '../../src/contract/events';
import type { FileChange, ToolRow } from '../../src/ui/timeline/rows';
import { shownTaskCounts, shownTaskStatus, taskCountsText, taskFigures } from '../../src/ui/timeline/task-status';
import { TimelineModel } from '../../src/ui/timeline/timeline-model';
import { journalEvent } from '../fixtures/journal-events';

/** Synthetic journal of one run; `at` grows by 10 ms per event. */
function journal(runId = 'r1') {
    let seq = 0;
    return <T extends EventType>(type: T, payload: EventPayloads[T] & Partial<{ taskId: string; parentCallId: string }>): JournalEvent => {
        seq += 1;
        return journalEvent(runId, seq - 1, type, payload, 1000 + seq * 10);
    };
}

const stamp = (n: 1 | 2) => ({ taskId: `task-${n}`, parentCallId: `call-000${n}` });

const usage = (input: number, output: number) => ({ input, output });

function response(round: number, u: { input: number; output: number } | null, toolCalls: Array<{ id: string; name: string }> = []) {
    return { round, durationMs: 300, usage: u, text: '', reasoning: '', toolCalls, finishReason: 'tool_calls', stored: `model-responses/round-${round}.json` };
}

function taskEnd(n: 1 | 2, status: 'completed' | 'failed' | 'cancelled', extra: Partial<EventPayloads['task-end']> = {}): EventPayloads['task-end'] {
    return {
        ...stamp(n), agentId: n === 1 ? 'researcher' : 'editor', status, summary: '', reason: null, resultPath: null, summaryPath: null,
        rounds: 1, calls: 1, tokensIn: 0, tokensOut: 0, durationMs: 40, ...extra,
    };
}

/** The writer delegates to the researcher and the editor in one turn; the children's steps interleave. */
function twoTasks(): JournalEvent[] {
    const e = journal();
    return [
        e('run-create', { chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', foreground: true }),
        e('run-state', { from: 'created', to: 'running' }),
        e('model-request', { round: 1, messageCount: 3, tools: [], wrapUp: false }),
        e('model-response', response(1, usage(100, 10), [{ id: 'call-0001', name: 'agent_delegate' }, { id: 'call-0002', name: 'agent_delegate' }])),
        e('tool-call-start', { callId: 'call-0001', name: 'agent_delegate', canonical: 'agent.delegate', argsPath: 'tool-args/call-0001.json' }),
        e('task-start', { ...stamp(1), agentId: 'researcher', agentName: 'Researcher', title: 'Dig', objective: 'Find the lantern', }),
        e('tool-call-complete', { callId: 'call-0001', name: 'agent_delegate', durationMs: 2, summary: 'task-1', resultPath: 'tool-results/call-0001.json' }),
        e('tool-call-start', { callId: 'call-0002', name: 'agent_delegate', canonical: 'agent.delegate', argsPath: 'tool-args/call-0002.json' }),
        e('task-start', { ...stamp(2), agentId: 'editor', agentName: 'Editor', title: '', objective: 'Review the draft' }),
        e('tool-call-complete', { callId: 'call-0002', name: 'agent_delegate', durationMs: 2, summary: 'task-2', resultPath: 'tool-results/call-0002.json' }),
        // both children ask their model; the parent awaits
        e('model-request', { round: 1, messageCount: 2, tools: [], wrapUp: false, ...stamp(1) }),
        e('model-request', { round: 1, messageCount: 2, tools: [], wrapUp: false, ...stamp(2) }),
        e('model-request', { round: 2, messageCount: 6, tools: [], wrapUp: false }),
        e('model-response', response(2, usage(200, 20), [{ id: 'call-0003', name: 'agent_await' }])),
        e('tool-call-start', { callId: 'call-0003', name: 'agent_await', canonical: 'agent.await', argsPath: 'tool-args/call-0003.json' }),
        e('model-response', { ...response(1, usage(50, 5), [{ id: 'call-0004', name: 'workspace_write_file' }]), ...stamp(1) }),
        e('tool-call-start', { callId: 'call-0004', name: 'workspace_write_file', canonical: 'workspace.write_file', argsPath: 'tool-args/call-0004.json', ...stamp(1) }),
        e('file-write', { path: 'scratch/notes.md', mode: 'replace', version: 1, chars: 9, ...stamp(1) }),
        e('checkpoint', { seq: 0, path: 'scratch/notes.md', version: 1, full: true, ...stamp(1) }),
        e('tool-call-complete', { callId: 'call-0004', name: 'workspace_write_file', durationMs: 3, summary: 'Wrote', resultPath: 'tool-results/call-0004.json', ...stamp(1) }),
        e('model-response', { ...response(1, usage(70, 7), [{ id: 'call-0005', name: 'workspace_read_file' }]), ...stamp(2) }),
        e('tool-call-start', { callId: 'call-0005', name: 'workspace_read_file', canonical: 'workspace.read_file', argsPath: 'tool-args/call-0005.json', ...stamp(2) }),
        e('tool-call-fail', { callId: 'call-0005', name: 'workspace_read_file', durationMs: 1, code: 'workspace.file_not_found', message: 'No file', hint: 'List first', resultPath: 'tool-results/call-0005.json', ...stamp(2) }),
        e('task-end', taskEnd(1, 'completed', { summary: 'The lantern is in the ruins.', resultPath: 'agent-results/task-1.json', summaryPath: 'summaries/researcher-result.md', rounds: 2, calls: 2, tokensIn: 50, tokensOut: 5, durationMs: 150 })),
        e('task-end', taskEnd(2, 'failed', { reason: 'Budget used up without task.return', rounds: 1, calls: 1, tokensIn: 70, tokensOut: 7, durationMs: 170 })),
        e('tool-call-complete', { callId: 'call-0003', name: 'agent_await', durationMs: 90, summary: '2 tasks', resultPath: 'tool-results/call-0003.json' }),
    ];
}

test('each task nests under its own delegate call, with its own rows, and the parent keeps its own', () => {
    const model = new TimelineModel('r1');
    model.apply(twoTasks());
    assert.deepEqual(
        model.rows.map((r) => (r.kind === 'tool' ? `tool:${r.callId}` : r.kind)),
        ['model', 'tool:call-0001', 'tool:call-0002', 'model', 'tool:call-0003'],
        'no child step leaks into the parent timeline',
    );
    const first = model.nestedOf('call-0001')!;
    const second = model.nestedOf('call-0002')!;
    assert.deepEqual(first.rows.map((r) => (r.kind === 'tool' ? `tool:${r.callId}=${r.status}` : r.kind)), ['model', 'tool:call-0004=completed']);
    assert.deepEqual(second.rows.map((r) => (r.kind === 'tool' ? `tool:${r.callId}=${r.status}` : r.kind)), ['model', 'tool:call-0005=error']);
    const write = first.rows[1] as ToolRow;
    assert.deepEqual(write.changes, [{ path: 'scratch/notes.md', action: 'replace', version: 1, checkpointSeq: 0, chars: 9, replacements: null } satisfies FileChange]);
    assert.equal((model.rows[1] as ToolRow).nestedCount, 2);
    assert.equal(model.nestedOf('call-0003'), undefined, 'await starts no task');
});

test('a task carries its agent, status, result, and figures from its task-end', () => {
    const model = new TimelineModel('r1');
    model.apply(twoTasks());
    const researcher = model.nestedOf('call-0001')!.task!;
    assert.equal(researcher.agentName, 'Researcher');
    assert.equal(researcher.title, 'Dig');
    assert.equal(researcher.status, 'completed');
    assert.equal(researcher.summary, 'The lantern is in the ruins.');
    assert.equal(researcher.summaryPath, 'summaries/researcher-result.md');
    assert.equal(researcher.reason, null);
    const editor = model.nestedOf('call-0002')!.task!;
    assert.equal(editor.status, 'failed');
    assert.equal(editor.reason, 'Budget used up without task.return');
    const figures = taskFigures(editor, model.nestedOf('call-0002')!.summary, 99_999, null);
    assert.deepEqual(figures, { elapsedMs: 170, rounds: 1, calls: 1, tokensIn: 70, tokensOut: 7 });
});

test('a running task counts live: elapsed from its start, tokens and rounds from its own model turns', () => {
    const events = twoTasks();
    const model = new TimelineModel('r1');
    const cut = events.findIndex((e) => e.type === 'task-end');
    model.apply(events.slice(0, cut));
    const nested = model.nestedOf('call-0001')!;
    const task = nested.task!;
    assert.equal(task.status, 'running');
    const started = events.find((e) => e.type === 'task-start')!.at;
    assert.deepEqual(taskFigures(task, nested.summary, started + 2500, null), { elapsedMs: 2500, rounds: 1, calls: 1, tokensIn: 50, tokensOut: 5 });
    assert.equal(taskFigures(task, nested.summary, started + 9000, started + 700).elapsedMs, 700, 'the clock stops with the run');
    assert.deepEqual(model.summary.tasks, { running: 2, completed: 0, failed: 0, cancelled: 0 });
    assert.equal(taskCountsText(model.summary), '2 running · 0 done · 0 failed');
});

test('the header counts tasks by status, and the run totals include the children', () => {
    const model = new TimelineModel('r1');
    model.apply(twoTasks());
    const s = model.summary;
    assert.deepEqual(s.tasks, { running: 0, completed: 1, failed: 1, cancelled: 0 });
    assert.equal(taskCountsText(s), '0 running · 1 done · 1 failed');
    assert.equal(s.tokensIn, 100 + 200 + 50 + 70, 'parent and children model usage');
    assert.equal(s.tokensOut, 10 + 20 + 5 + 7);
    assert.equal(s.calls, 3 + 2, "the parent's three calls and the children's two");
    assert.equal(s.failedCalls, 1, "the editor's failed read");
    assert.equal(s.rounds, 2, 'model turns stay the parent’s own (its budget)');
});

test('a run without tasks shows no counters; the counters survive replayed events', () => {
    const model = new TimelineModel('r1');
    const events = twoTasks();
    assert.equal(taskCountsText(model.summary), '');
    model.apply(events);
    model.apply(events); // the stored journal and the pushed events overlap
    assert.deepEqual(model.summary.tasks, { running: 0, completed: 1, failed: 1, cancelled: 0 });
    assert.equal(model.summary.tokensIn, 420);
});

test('Stop: cancelled tasks count as cancelled; a task left running by an ended run is shown stopped', () => {
    const e = journal();
    const model = new TimelineModel('r1');
    model.apply([
        e('model-request', { round: 1, messageCount: 1, tools: [], wrapUp: false }),
        e('model-response', response(1, null, [{ id: 'call-0001', name: 'agent_delegate' }, { id: 'call-0002', name: 'agent_delegate' }])),
        e('tool-call-start', { callId: 'call-0001', name: 'agent_delegate', canonical: 'agent.delegate', argsPath: 'a' }),
        e('task-start', { ...stamp(1), agentId: 'researcher', agentName: 'Researcher', title: '', objective: 'x' }),
        e('tool-call-complete', { callId: 'call-0001', name: 'agent_delegate', durationMs: 1, summary: '', resultPath: 'b' }),
        e('tool-call-start', { callId: 'call-0002', name: 'agent_delegate', canonical: 'agent.delegate', argsPath: 'a' }),
        e('task-start', { ...stamp(2), agentId: 'editor', agentName: 'Editor', title: '', objective: 'y' }),
        e('tool-call-complete', { callId: 'call-0002', name: 'agent_delegate', durationMs: 1, summary: '', resultPath: 'b' }),
        e('task-end', taskEnd(1, 'cancelled', { reason: 'run.cancelled' })),
        e('run-cancel', { reason: 'Stopped by the user' }),
        e('run-state', { from: 'running', to: 'cancelled' }),
    ]);
    assert.deepEqual(model.summary.tasks, { running: 1, completed: 0, failed: 0, cancelled: 1 }, 'the journal as written');
    assert.deepEqual(shownTaskCounts(model.summary), { running: 0, completed: 0, failed: 0, cancelled: 2 });
    assert.equal(taskCountsText(model.summary), '0 running · 0 done · 0 failed · 2 cancelled');
    assert.equal(shownTaskStatus(model.nestedOf('call-0002')!.task!, model.summary.state), 'cancelled');
    assert.equal(shownTaskStatus(model.nestedOf('call-0002')!.task!, 'interrupted'), 'interrupted');
    assert.equal(shownTaskStatus(model.nestedOf('call-0001')!.task!, 'running'), 'cancelled');
});

test('results handed to the parent get a row; a task-end without its start still tells its outcome', () => {
    const e = journal();
    const model = new TimelineModel('r1');
    model.apply([
        e('model-request', { round: 1, messageCount: 1, tools: [], wrapUp: false }),
        e('model-response', response(1, null, [{ id: 'call-0001', name: 'agent_delegate' }])),
        e('tool-call-start', { callId: 'call-0001', name: 'agent_delegate', canonical: 'agent.delegate', argsPath: 'a' }),
        e('tool-call-complete', { callId: 'call-0001', name: 'agent_delegate', durationMs: 1, summary: '', resultPath: 'b' }),
        e('task-end', taskEnd(1, 'completed', { summary: 'Found it.' })),
        e('task-inject', { taskIds: ['task-1'] }),
        e('model-request', { round: 2, messageCount: 4, tools: [], wrapUp: false }),
    ]);
    const task = model.nestedOf('call-0001')!.task!;
    assert.equal(task.status, 'completed');
    assert.equal(task.agentName, 'researcher');
    assert.equal(task.summary, 'Found it.');
    assert.deepEqual(model.summary.tasks, { running: 0, completed: 1, failed: 0, cancelled: 0 });
    const inject = model.rows.find((r) => r.eventType === 'task-inject');
    assert.ok(inject && inject.kind === 'note');
    assert.deepEqual(inject.payload.taskIds, ['task-1']);
});

test("a call announced by the provider's id becomes the row of the run-unique call that names it; reused provider ids get rows of their own", () => {
    const e = journal();
    const model = new TimelineModel('r1');
    const round = (n: number, first: number) => [
        e('model-request', { round: n, messageCount: 1, tools: [], wrapUp: false }),
        e('model-response', response(n, null, [{ id: 'call_0', name: 'agent_delegate' }, { id: 'call_1', name: 'workspace_list_files' }])),
        e('tool-call-start', { callId: `call-000${first}`, providerCallId: 'call_0', name: 'agent_delegate', canonical: 'agent.delegate', argsPath: 'a' }),
        e('tool-call-complete', { callId: `call-000${first}`, name: 'agent_delegate', durationMs: 1, summary: '', resultPath: 'b' }),
        e('tool-call-start', { callId: `call-000${first + 1}`, providerCallId: 'call_1', name: 'workspace_list_files', canonical: 'workspace.list_files', argsPath: 'a' }),
        e('tool-call-complete', { callId: `call-000${first + 1}`, name: 'workspace_list_files', durationMs: 1, summary: '', resultPath: 'b' }),
    ];
    model.apply([...round(1, 1), e('task-start', { ...stamp(1), agentId: 'researcher', agentName: 'Researcher', title: '', objective: 'x' }), ...round(2, 3)]);
    const tools = model.rows.filter((r): r is ToolRow => r.kind === 'tool');
    assert.deepEqual(tools.map((r) => `${r.callId}=${r.status}`), ['call-0001=completed', 'call-0002=completed', 'call-0003=completed', 'call-0004=completed'], 'no announced row is left pending');
    assert.equal(new Set(model.rows.map((r) => r.key)).size, model.rows.length, 'row keys stay unique');
    assert.equal(model.nestedOf('call-0001')?.task?.agentName, 'Researcher', 'the task nests under the adopted row');
});
