import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EventPayloads, EventType } from '../../src/contract/events';
import type { RunRecord } from '../../src/contract/records';
import type { JournalEvent } from '../../src/contract/events';
import { TimelineModel } from '../../src/ui/timeline/timeline-model';
import { anyEnvelope } from '../fixtures/journal-events';

function journal(runId = 'r1') {
    let seq = 0;
    // Any payload: the timeline must also take a journal from elsewhere that holds one it does not expect.
    return <T extends EventType>(type: T, payload: EventPayloads[T] | Record<string, unknown>): JournalEvent => {
        seq += 1;
        return anyEnvelope({ runId, seq: seq - 1, at: 1000 + seq * 10, type, payload });
    };
}

/** A run stopped while a call runs, another waits, and (next round) the model has not answered yet. */
function openRun(): JournalEvent[] {
    const e = journal();
    return [
        e('run-create', { chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', foreground: true }),
        e('run-state', { from: 'created', to: 'running' }),
        e('model-request', { round: 1, messageCount: 3, tools: [], wrapUp: false }),
        e('model-response', {
            round: 1, durationMs: 10, usage: { input: 1, output: 1 }, text: '', reasoning: '',
            toolCalls: [{ id: 'a', name: 'workspace_read_file' }, { id: 'b', name: 'workspace_write_file' }], finishReason: 'tool_calls', stored: null,
        }),
        e('tool-call-start', { callId: 'a', name: 'workspace_read_file', canonical: 'workspace.read_file', argsPath: 'tool-args/a.json' }),
    ];
}

const open = (model: TimelineModel) =>
    model.rows.filter((row) => (row.kind === 'model' || row.kind === 'tool') && (row.status === 'running' || row.status === 'pending')).map((row) => row.key);

test('the outcome of a run stopped mid-call settles every open row', () => {
    const model = new TimelineModel('r1');
    const events = openRun();
    model.apply(events);
    assert.equal(open(model).length, 2, 'a running call and a pending one before the end');
    const e = journal();
    const tail = [e('run-cancel', { reason: 'Stopped by the user.' }), e('run-state', { from: 'running', to: 'cancelled' })].map((event, i) => ({ ...event, seq: events.length + i }));
    model.apply(tail);
    model.applyOutcome({ state: 'cancelled', messageId: null, error: { code: 'run.cancelled', message: 'Stopped.' } }, 3000);
    assert.deepEqual(open(model), []);
    assert.deepEqual(
        model.rows.filter((row) => row.kind === 'tool').map((row) => row.kind === 'tool' && row.status),
        ['stopped', 'stopped'],
    );
});

test('a call announced before the journal says completed still gets its own row when it starts (finish after commit)', () => {
    const model = new TimelineModel('r1');
    const e = journal();
    model.apply([
        e('run-create', { chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', foreground: true }),
        e('model-request', { round: 1, messageCount: 3, tools: [], wrapUp: false }),
        e('model-response', {
            round: 1, durationMs: 10, usage: { input: 1, output: 1 }, text: '', reasoning: '',
            toolCalls: [{ id: 'call_0', name: 'workspace_commit' }, { id: 'call_1', name: 'workspace_finish' }], finishReason: 'tool_calls', stored: null,
        }),
        e('tool-call-start', { callId: 'call-0001', providerCallId: 'call_0', name: 'workspace_commit', canonical: 'workspace.commit', argsPath: 'a' }),
        e('tool-call-complete', { callId: 'call-0001', name: 'workspace_commit', durationMs: 1, summary: 'Committed', resultPath: 'r' }),
        e('run-state', { from: 'finishing', to: 'completed' }),
        e('tool-call-start', { callId: 'call-0002', providerCallId: 'call_1', name: 'workspace_finish', canonical: 'workspace.finish', argsPath: 'b' }),
        e('tool-call-complete', { callId: 'call-0002', name: 'workspace_finish', durationMs: 1, summary: 'Finished', resultPath: 'r2' }),
    ]);
    model.applyOutcome({ state: 'completed', messageId: 1, error: null }, 3000);
    assert.deepEqual(
        model.rows.filter((row) => row.kind === 'tool').map((row) => row.kind === 'tool' && `${row.canonical}=${row.status}`),
        ['workspace.commit=completed', 'workspace.finish=completed'],
    );
});

test('a model turn waiting for its answer is settled by the live outcome', () => {
    const model = new TimelineModel('r1');
    const e = journal();
    model.apply([
        e('run-create', { chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', foreground: true }),
        e('model-request', { round: 1, messageCount: 3, tools: [], wrapUp: false }),
    ]);
    assert.equal(model.rows[0]!.kind === 'model' && model.rows[0]!.status, 'running');
    model.applyOutcome({ state: 'cancelled', messageId: null, error: { code: 'run.cancelled', message: 'Stopped.' } }, 2000);
    assert.equal(model.rows[0]!.kind === 'model' && model.rows[0]!.status, 'stopped');
});

test('a stored run whose journal was cut short (reload, crash) has no open row once its record is read', () => {
    const model = new TimelineModel('r1');
    model.apply(openRun());
    const record = { runId: 'r1', state: 'interrupted', chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', messageId: null, error: null, createdAt: 1, updatedAt: 2 } as unknown as RunRecord;
    model.applyRecord(record);
    assert.deepEqual(open(model), []);
});

test('a run still going keeps its open rows', () => {
    const model = new TimelineModel('r1');
    model.apply(openRun());
    model.applyOutcome({ state: 'running', messageId: null, error: null }, 2000);
    assert.equal(open(model).length, 2);
});

test('a call settled early by a record that already says completed is the same row when it then runs (no second finish row)', () => {
    const model = new TimelineModel('r1');
    const e = journal();
    model.apply([
        e('run-create', { chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', foreground: true }),
        e('model-request', { round: 1, messageCount: 3, tools: [], wrapUp: false }),
        e('model-response', {
            round: 1, durationMs: 10, usage: { input: 1, output: 1 }, text: '', reasoning: '',
            toolCalls: [{ id: 'call_0', name: 'workspace_commit' }, { id: 'call_1', name: 'workspace_finish' }], finishReason: 'tool_calls', stored: null,
        }),
        e('tool-call-start', { callId: 'call-0001', providerCallId: 'call_0', name: 'workspace_commit', canonical: 'workspace.commit', argsPath: 'a' }),
        e('tool-call-complete', { callId: 'call-0001', name: 'workspace_commit', durationMs: 1, summary: 'Committed', resultPath: 'r' }),
    ]);
    // The stored record is marked completed before workspace.finish runs; reading it then settles the pending call.
    model.applyRecord({ runId: 'r1', state: 'completed', chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', messageId: 1, error: null, createdAt: 1, updatedAt: 2 } as unknown as RunRecord);
    model.apply([
        e('tool-call-start', { callId: 'call-0002', providerCallId: 'call_1', name: 'workspace_finish', canonical: 'workspace.finish', argsPath: 'b' }),
        e('tool-call-complete', { callId: 'call-0002', name: 'workspace_finish', durationMs: 1, summary: 'Finished', resultPath: 'r2' }),
    ]);
    assert.deepEqual(
        model.rows.filter((row) => row.kind === 'tool').map((row) => row.kind === 'tool' && `${row.canonical}=${row.status}`),
        ['workspace.commit=completed', 'workspace.finish=completed'],
    );
});
