import { eventFact, type EventPayloads, type EventType } from '../../src/contract/events';
import { RECORD_VERSION, type CheckpointRecord, type RunRecord, type WorkspaceFile } from '../../src/contract/records';
import type { JournalEvent } from '../../src/contract/events';

/**
 * A run export (the format the timeline's "Import a run" reads, engine/run-archive.ts) of about `target`
 * events, shaped like a long real run: per round a model call with three tool calls (list, write, read),
 * each write journaled with its file-write and checkpoint events. Payloads are typed by the contract.
 */
export function syntheticRunExport(target: number, runId = 'bench-long-run'): { text: string; events: number; rows: number } {
    const events: JournalEvent[] = [];
    const start = Date.UTC(2026, 0, 1, 12, 0, 0);
    let at = start;
    const push = <T extends EventType>(type: T, payload: EventPayloads[T]) => {
        at += 3;
        events.push({ v: RECORD_VERSION, runId, seq: events.length, at, ...eventFact(type, payload) });
    };
    push('run-create', { chatKey: 'bench-chat', chatId: 'Seraphina - bench', profileId: 'writer', generationType: 'normal', foreground: true });
    push('run-state', { from: 'created', to: 'preparing' });
    push('run-state', { from: 'preparing', to: 'running' });
    let rows = 0;
    let round = 0;
    let checkpoint = 0;
    let version = 0;
    // 10 events per round, then 7 for the commit and the end: at least `target` in all.
    while (events.length + 7 < target) {
        round += 1;
        push('model-request', { round, messageCount: 3 + round * 4, tools: ['workspace_list_files', 'workspace_write_file', 'workspace_read_file'], wrapUp: false });
        const ids = [`call_${round}_0`, `call_${round}_1`, `call_${round}_2`];
        push('model-response', {
            round,
            durationMs: 800 + (round % 7) * 90,
            usage: { input: 2000 + round * 40, output: 120 },
            text: round % 5 === 0 ? `Round ${round}: checking the draft again before I go on.` : '',
            reasoning: '',
            toolCalls: [
                { id: ids[0]!, name: 'workspace_list_files' },
                { id: ids[1]!, name: 'workspace_write_file' },
                { id: ids[2]!, name: 'workspace_read_file' },
            ],
            finishReason: 'tool_calls',
            stored: `model-responses/round-${String(round).padStart(3, '0')}.json`,
        });
        push('tool-call-start', { callId: ids[0]!, name: 'workspace_list_files', canonical: 'workspace.list_files', argsPath: `tool-args/${ids[0]}.json` });
        push('tool-call-complete', { callId: ids[0]!, name: 'workspace_list_files', durationMs: 2, summary: 'output/ (1 file)\n  output/main.md  1,204 chars', resultPath: `tool-results/${ids[0]}.json` });
        push('tool-call-start', { callId: ids[1]!, name: 'workspace_write_file', canonical: 'workspace.write_file', argsPath: `tool-args/${ids[1]}.json` });
        version += 1;
        push('file-write', { path: 'output/main.md', mode: 'replace', version, chars: 1200 + round });
        push('checkpoint', { seq: checkpoint++, path: 'output/main.md', version, full: (checkpoint - 1) % 25 === 0 });
        push('tool-call-complete', { callId: ids[1]!, name: 'workspace_write_file', durationMs: 4, summary: `Wrote output/main.md (v${version}, ${1200 + round} chars).`, resultPath: `tool-results/${ids[1]}.json` });
        push('tool-call-start', { callId: ids[2]!, name: 'workspace_read_file', canonical: 'workspace.read_file', argsPath: `tool-args/${ids[2]}.json` });
        push('tool-call-complete', { callId: ids[2]!, name: 'workspace_read_file', durationMs: 1, summary: 'output/main.md v' + version + ' (lines 1–24 of 24)', resultPath: `tool-results/${ids[2]}.json` });
        rows += 4;
    }
    push('run-state', { from: 'running', to: 'awaiting_commit' });
    push('commit', { path: 'output/main.md', mode: 'replace', messageId: 3, chars: 1200 + round, reason: null });
    push('run-state', { from: 'awaiting_commit', to: 'running' });
    push('run-state', { from: 'running', to: 'finishing' });
    push('persist-promote', { files: 0 });
    push('run-finish', { reason: 'done' });
    push('run-state', { from: 'finishing', to: 'completed' });
    rows += 3;
    const run: RunRecord = {
        v: RECORD_VERSION,
        runId,
        chatKey: 'bench-chat',
        chatId: 'Seraphina - bench',
        profileId: 'writer',
        generationType: 'normal',
        state: 'completed',
        messageId: 3,
        error: null,
        createdAt: start,
        updatedAt: at,
    };
    const files: WorkspaceFile[] = [{ v: RECORD_VERSION, runId, path: 'output/main.md', content: 'The forest is quiet tonight.', version, updatedAt: at }];
    const checkpoints: CheckpointRecord[] = [];
    const text = JSON.stringify({ kind: 'tavern-agent.run', version: RECORD_VERSION, run, events, files, checkpoints });
    return { text, events: events.length, rows };
}
