import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventPayloads, EventType } from '../../src/contract/events';
import type { JournalEvent } from '../../src/contract/events';
import { TimelineModel } from '../../src/ui/timeline/timeline-model';
import type { ToolRow } from '../../src/ui/timeline/rows';
import { anyEnvelope } from '../fixtures/journal-events';

function journal(runId = 'r1') {
    let seq = 0;
    // Any payload: the timeline must also take a journal from elsewhere that holds one it does not expect.
    return <T extends EventType>(type: T, payload: EventPayloads[T] | Record<string, unknown>): JournalEvent => {
        seq += 1;
        return anyEnvelope({ runId, seq: seq - 1, at: 1000 + seq * 10, type, payload });
    };
}

function scriptedRun(): JournalEvent[] {
    const e = journal();
    return [
        e('run-create', { chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', foreground: true }),
        e('run-state', { from: 'created', to: 'running' }),
        e('model-request', { round: 1, messageCount: 3, tools: [], wrapUp: false }),
        e('model-response', {
            round: 1, durationMs: 120, usage: { input: 100, output: 20 }, text: 'Let me write.', reasoning: 'think',
            toolCalls: [{ id: 'a', name: 'workspace_write_file' }, { id: 'b', name: 'workspace_apply_patch' }], finishReason: 'tool_calls', stored: 'model-responses/round-001.json',
        }),
        e('tool-call-start', { callId: 'a', name: 'workspace_write_file', canonical: 'workspace.write_file', argsPath: 'tool-args/a.json' }),
        e('file-write', { path: 'output/main.md', mode: 'replace', version: 1, chars: 5 }),
        e('checkpoint', { seq: 0, path: 'output/main.md', version: 1, full: true }),
        e('tool-call-complete', { callId: 'a', name: 'workspace_write_file', durationMs: 4, summary: 'Wrote', resultPath: 'tool-results/a.json' }),
        e('tool-call-start', { callId: 'b', name: 'workspace_apply_patch', canonical: 'workspace.apply_patch', argsPath: 'tool-args/b.json' }),
        e('tool-call-fail', { callId: 'b', name: 'workspace_apply_patch', durationMs: 2, code: 'workspace.patch_not_found', message: 'No match', hint: 'Read first', resultPath: 'tool-results/b.json' }),
        e('model-request', { round: 2, messageCount: 6, tools: [], wrapUp: false }),
        e('model-retry', { round: 2, attempt: 1, delayMs: 500, status: 429, message: 'slow down' }),
        e('model-response', {
            round: 2, durationMs: 80, usage: { input: 150, output: 10 }, text: '', reasoning: '',
            toolCalls: [{ id: 'c', name: 'workspace_commit' }], finishReason: 'tool_calls', stored: 'model-responses/round-002.json',
        }),
        e('tool-call-start', { callId: 'c', name: 'workspace_commit', canonical: 'workspace.commit', argsPath: 'tool-args/c.json' }),
        e('commit', { path: 'output/main.md', mode: 'replace', messageId: 3, chars: 5, reason: null }),
        e('checkpoint', { seq: 1, path: 'output/main.md', version: 1, full: false }),
        e('tool-call-complete', { callId: 'c', name: 'workspace_commit', durationMs: 30, summary: 'Committed', resultPath: 'tool-results/c.json' }),
        e('run-finish', { reason: 'done' }),
        e('run-state', { from: 'finishing', to: 'completed' }),
    ];
}

test('a run becomes one row per model turn and per tool call, in order, with statuses and totals', () => {
    const model = new TimelineModel('r1');
    model.apply(scriptedRun());
    assert.deepEqual(
        model.rows.map((row) => `${row.kind}:${row.kind === 'tool' ? `${row.name}=${row.status}` : (row.eventType ?? '')}`),
        [
            'model:model-response',
            'tool:workspace_write_file=completed',
            'tool:workspace_apply_patch=error',
            'model:model-response',
            'note:model-retry',
            'tool:workspace_commit=completed',
            'commit:commit',
            'note:run-finish',
        ],
    );
    const write = model.rows[1] as ToolRow;
    assert.deepEqual(write.changes, [{ path: 'output/main.md', action: 'replace', version: 1, checkpointSeq: 0, chars: 5, replacements: null }]);
    assert.deepEqual((model.rows[2] as ToolRow).error, { code: 'workspace.patch_not_found', message: 'No match', hint: 'Read first' });
    const s = model.summary;
    assert.equal(s.state, 'completed');
    assert.equal(s.tokensIn, 250);
    assert.equal(s.tokensOut, 30);
    assert.equal(s.rounds, 2);
    assert.equal(s.calls, 3);
    assert.equal(s.failedCalls, 1);
    assert.equal(s.messageId, 3);
    assert.deepEqual(s.outputPaths, ['output/main.md']);
    assert.ok(s.endedAt !== null);
});

test('calls are pending when announced, running when started, and replayed events are ignored', () => {
    const events = scriptedRun();
    const model = new TimelineModel('r1');
    model.apply(events.slice(0, 4));
    assert.deepEqual(model.rows.filter((r): r is ToolRow => r.kind === 'tool').map((r) => r.status), ['pending', 'pending']);
    model.apply(events.slice(4, 5));
    assert.equal((model.rows[1] as ToolRow).status, 'running');
    const before = model.rows.length;
    model.apply(events.slice(0, 5)); // the same events again (stored + pushed)
    assert.equal(model.rows.length, before);
});

test('an update replaces only its own row; earlier rows stay the same objects', () => {
    const events = scriptedRun();
    const model = new TimelineModel('r1');
    model.apply(events.slice(0, 8));
    const snapshot = [...model.rows];
    model.apply(events.slice(8, 10));
    assert.equal(model.rows[0], snapshot[0]);
    assert.equal(model.rows[1], snapshot[1]);
    assert.notEqual(model.rows[2], snapshot[2], 'the patch call changed');
});

test('plain text and restores outside a call get rows of their own; a failure lands in the summary', () => {
    const e = journal();
    const model = new TimelineModel('r1');
    model.apply([
        e('model-request', { round: 1, messageCount: 1, tools: [], wrapUp: false }),
        e('model-response', { round: 1, durationMs: 5, usage: null, text: 'Just text', reasoning: '', toolCalls: [], finishReason: 'stop', stored: 'x' }),
        e('file-write', { path: 'output/direct_output.md', mode: 'direct_output', version: 1, chars: 9 }),
        e('checkpoint', { seq: 0, path: 'output/direct_output.md', version: 1, full: true }),
        e('run-fail', { code: 'model.tool_call_required', message: 'Plain text', detail: null }),
        e('run-state', { from: 'running', to: 'failed' }),
        e('checkpoint-restore', { seq: 0, path: 'output/direct_output.md', version: 2 }),
    ]);
    assert.deepEqual(model.rows.map((r) => r.kind), ['model', 'file', 'note', 'note']);
    const file = model.rows[1]!;
    assert.ok(file.kind === 'file' && file.change.checkpointSeq === 0 && file.change.action === 'direct_output');
    assert.deepEqual(model.summary.error, { code: 'model.tool_call_required', message: 'Plain text' });
    assert.deepEqual(model.summary.outputPaths, ['output/direct_output.md']);
});

test('sub-agent events nest under the call that started them', () => {
    const e = journal();
    const model = new TimelineModel('r1');
    model.apply([
        e('model-request', { round: 1, messageCount: 1, tools: [], wrapUp: false }),
        e('model-response', { round: 1, durationMs: 5, usage: null, text: '', reasoning: '', toolCalls: [{ id: 'd', name: 'agent_delegate' }], finishReason: 'tool_calls', stored: 'x' }),
        e('tool-call-start', { callId: 'd', name: 'agent_delegate', canonical: 'agent.delegate', argsPath: 'tool-args/d.json' }),
        e('model-request', { round: 1, messageCount: 1, tools: [], wrapUp: false, parentCallId: 'd' }),
        e('tool-call-start', { callId: 's1', name: 'chat_search', canonical: 'chat.search', argsPath: 'x', parentCallId: 'd' }),
        e('tool-call-complete', { callId: 'd', name: 'agent_delegate', durationMs: 9, summary: 'task-1', resultPath: 'y' }),
    ]);
    assert.deepEqual(model.rows.map((r) => r.kind), ['model', 'tool']);
    const call = model.rows[1] as ToolRow;
    assert.equal(call.nestedCount, 2);
    assert.equal(call.status, 'completed');
    assert.deepEqual(model.nestedOf('d')!.rows.map((r) => r.kind), ['model', 'tool']);
});

test('the outcome of a run that failed before its first event still reaches the header', () => {
    const model = new TimelineModel('r9');
    model.applyOutcome({ state: 'failed', messageId: null, error: { code: 'host.no_chat', message: 'Open a chat first.' } }, 5);
    assert.equal(model.summary.state, 'failed');
    assert.equal(model.summary.error?.code, 'host.no_chat');
    assert.equal(model.summary.endedAt, 5);
});

test('a memory promotion of no files adds no row; one with files does', () => {
    const e = journal();
    const model = new TimelineModel('r1');
    model.apply([e('persist-promote', { files: 0 }), e('run-finish', { reason: null })]);
    assert.deepEqual(model.rows.map((r) => (r.kind === 'note' ? r.eventType : r.kind)), ['run-finish']);
    const other = new TimelineModel('r2');
    other.apply([journal('r2')('persist-promote', { files: 2 })]);
    assert.deepEqual(other.rows.map((r) => r.eventType), ['persist-promote']);
});

test('tools are named by their dotted names everywhere, the provider alias included', async () => {
    const { toolDisplayName } = await import('../../src/ui/timeline/format');
    assert.equal(toolDisplayName('workspace_write_file'), 'workspace.write_file');
    assert.equal(toolDisplayName('worldinfo_read_activated'), 'worldinfo.read_activated');
    assert.equal(toolDisplayName('chat.search'), 'chat.search');
    assert.equal(toolDisplayName('my_tool'), 'my_tool', 'an unknown name is left as it is');
});

test('elapsed time is measured from the run-create event, live and after a reload alike', () => {
    const events = scriptedRun();
    const live = new TimelineModel('r1');
    live.summary = { ...live.summary, startedAt: 1 }; // the page's provisional start, before any event
    live.apply(events);
    const stored = new TimelineModel('r1');
    stored.apply(events);
    assert.equal(live.summary.startedAt, events[0]!.at);
    assert.equal(live.summary.startedAt, stored.summary.startedAt);
    assert.equal(live.summary.endedAt, stored.summary.endedAt);
});
