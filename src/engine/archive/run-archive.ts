import * as z from 'zod';
import { RECORD_VERSION, CheckpointRecordSchema, JournalEventSchema, RunRecordSchema, WorkspaceFileSchema } from '../../contract/records';
import { fail, ok, type Result } from '../../contract/result';
import type { RunStorage } from '../../store/run-storage';
import { lineDiff, DIFF_LIMITS, makeCheckpoint, MAX_DELTAS_PER_REBUILD, rebuildCheckpoint } from '../../workspace/checkpoints';
import { checkedEvent, type JournalEvent } from '../../contract/events';
import { isHiddenPath } from '../../workspace/roots';
import { Journal } from '../journal/journal';
import { IMPORTED_CHAT_KEY, type CheckpointDiff, type CheckpointInfo, type RunFileInfo } from '../../contract/archive';
import type { CheckpointKind } from '../../contract/events';

export { IMPORTED_CHAT_KEY };

/** What the timeline reads and does with stored runs: files, checkpoints, diffs, restore, export, import. */

export const RUN_EXPORT_KIND = 'tavern-agent.run';

const RunExportSchema = z.object({
    kind: z.literal(RUN_EXPORT_KIND),
    version: z.literal(RECORD_VERSION),
    run: RunRecordSchema,
    events: z.array(JournalEventSchema),
    files: z.array(WorkspaceFileSchema),
    checkpoints: z.array(CheckpointRecordSchema),
});


export async function listRunFiles(storage: RunStorage, runId: string): Promise<RunFileInfo[]> {
    const files = await storage.listFiles(runId);
    return files
        .map((file) => ({ path: file.path, version: file.version, chars: file.content.length, hidden: isHiddenPath(file.path) }))
        .sort((a, b) => Number(a.hidden) - Number(b.hidden) || a.path.localeCompare(b.path));
}

export async function readRunFile(storage: RunStorage, runId: string, path: string): Promise<Result<{ path: string; content: string; version: number }>> {
    const file = await storage.getFile(runId, path);
    return file ? ok({ path, content: file.content, version: file.version }) : fail('workspace.file_not_found', `No file ${path} in this run.`);
}

/**
 * What made each checkpoint, from the journal. A checkpoint event names its kind when it was journaled with
 * one (restores); otherwise the write or patch event of the same path and version made it, and a second
 * checkpoint of a version already checkpointed is the one workspace.commit takes of the committed text.
 * Matching by path and version (not by the event just before) holds while sub-agents append at once.
 */
export function checkpointKinds(events: readonly JournalEvent[]): Map<number, { kind: CheckpointKind; version: number }> {
    const made = new Map<string, CheckpointKind>();
    const seen = new Set<string>();
    const kinds = new Map<number, { kind: CheckpointKind; version: number }>();
    const keyOf = (p: { path: string; version: number }) => `${p.path}\u0000${p.version}`;
    for (const event of events) {
        switch (event.type) {
            case 'file-write':
                made.set(keyOf(event.payload), 'write');
                break;
            case 'patch-apply':
                made.set(keyOf(event.payload), 'patch');
                break;
            case 'checkpoint-restore':
                made.set(keyOf(event.payload), 'restore');
                break;
            case 'checkpoint': {
                const key = keyOf(event.payload);
                const kind = event.payload.kind ?? (seen.has(key) ? 'commit' : (made.get(key) ?? 'write'));
                seen.add(key);
                kinds.set(event.payload.seq, { kind, version: event.payload.version });
                break;
            }
        }
    }
    return kinds;
}

export async function listCheckpoints(storage: RunStorage, runId: string): Promise<CheckpointInfo[]> {
    const [checkpoints, events] = await Promise.all([storage.listCheckpoints(runId), storage.listEvents(runId)]);
    const kinds = checkpointKinds(events);
    return checkpoints
        .sort((a, b) => a.seq - b.seq)
        .map((c) => ({ seq: c.seq, path: c.path, at: c.at, full: c.full !== null, kind: kinds.get(c.seq)?.kind ?? 'write', version: kinds.get(c.seq)?.version ?? 0 }));
}

/** The change a checkpoint recorded: the text before it (the previous checkpoint of the path) and after. */
export async function checkpointDiff(storage: RunStorage, runId: string, seq: number): Promise<Result<CheckpointDiff>> {
    const all = await storage.listCheckpoints(runId);
    const target = all.find((c) => c.seq === seq);
    if (!target) return fail('checkpoint.not_found', `No checkpoint ${seq} in this run.`);
    const chain = all.filter((c) => c.path === target.path).sort((a, b) => a.seq - b.seq);
    const index = chain.findIndex((c) => c.seq === seq);
    try {
        const after = rebuildCheckpoint(chain, seq);
        const before = index > 0 ? rebuildCheckpoint(chain, chain[index - 1]!.seq) : '';
        const kind = checkpointKinds(await storage.listEvents(runId)).get(seq)?.kind ?? 'write';
        const ops = lineDiff(before, after);
        // Past the diff's bounds the new text is shown as it is, without a diff (cut to what the panel shows).
        if (!ops) return ok({ seq, path: target.path, before, after, kind, ops: [{ op: 0, text: after.slice(0, DIFF_LIMITS.maxChars / 2) }], tooLarge: true });
        return ok({ seq, path: target.path, before, after, kind, ops });
    } catch (error) {
        return fail('checkpoint.corrupt', 'This checkpoint could not be rebuilt.', error instanceof Error ? error.message : String(error));
    }
}

/**
 * Writes a checkpoint's text back as the file's current version (journaled, with a checkpoint of kind
 * "restore" so the restored version is in the list too), e.g. to recover a draft or to roll back persist/
 * memory. It changes the run's workspace only, never the chat (the panel's "put this version in the chat"
 * does that, through the host's commit path). Only for runs that have ended, so a live run never has its files changed
 * under it. A restored persist/ file of a completed run becomes the memory later runs start from.
 */
export async function restoreCheckpoint(storage: RunStorage, runId: string, seq: number, running: boolean): Promise<Result<{ path: string; version: number }>> {
    if (running) return fail('run.running', 'Stop the run before restoring one of its checkpoints.');
    const run = await storage.getRun(runId);
    if (!run) return fail('run.not_found', 'This run no longer exists.');
    if (run.chatKey === IMPORTED_CHAT_KEY) return fail('run.read_only', 'Imported runs are read-only.');
    const diff = await checkpointDiff(storage, runId, seq);
    if (!diff.ok) return diff;
    const files = await storage.listFiles(runId);
    const current = files.find((f) => f.path === diff.value.path);
    const version = (current?.version ?? 0) + 1;
    const now = Date.now();
    const events = await storage.listEvents(runId);
    const journal = new Journal(runId, storage, () => undefined, Date.now, (events.at(-1)?.seq ?? -1) + 1);
    await storage.putFile({ v: RECORD_VERSION, runId, path: diff.value.path, content: diff.value.after, version, updatedAt: now });
    if (diff.value.path.startsWith('persist/')) {
        const persist = await storage.getPersistState(runId);
        if (persist) await storage.putPersistState({ ...persist, files: { ...persist.files, [diff.value.path]: diff.value.after }, at: now });
    }
    await journal.append('checkpoint-restore', { seq, path: diff.value.path, version });
    const all = await storage.listCheckpoints(runId);
    const chain = all.filter((c) => c.path === diff.value.path).sort((a, b) => a.seq - b.seq);
    const previous = chain.length ? rebuildCheckpoint(chain, chain.at(-1)!.seq) : null;
    const next = Math.max(-1, ...all.map((c) => c.seq)) + 1;
    const record = makeCheckpoint({ runId, seq: next, path: diff.value.path, previous, next: diff.value.after, indexForPath: chain.length, at: now });
    await journal.append('checkpoint', { seq: next, path: diff.value.path, version, full: record.full !== null, kind: 'restore' }, { checkpoints: [record] });
    return ok({ path: diff.value.path, version });
}

export async function exportRun(storage: RunStorage, runId: string): Promise<Result<string>> {
    const run = await storage.getRun(runId);
    if (!run) return fail('run.not_found', 'This run no longer exists.');
    const [events, files, checkpoints] = await Promise.all([storage.listEvents(runId), storage.listFiles(runId), storage.listCheckpoints(runId)]);
    const shared = { ...run, error: run.error ? { ...run.error, message: withoutUrls(run.error.message) } : run.error };
    return ok(JSON.stringify({ kind: RUN_EXPORT_KIND, version: RECORD_VERSION, run: shared, events: events.map(sharedEvent), files, checkpoints }));
}

/**
 * What an export may not carry (issue 39 §5): a failure's stack trace (it names this machine's paths and the
 * extension's code) and the addresses of servers (a local model's host and port, a proxy) in error texts.
 * The story, the model's words and the tool results are the run itself and stay as they are.
 */
function sharedEvent(event: JournalEvent): JournalEvent {
    switch (event.type) {
        case 'run-fail':
            return { ...event, payload: { ...event.payload, message: withoutUrls(event.payload.message), detail: event.payload.detail === null ? null : withoutUrls(withoutStack(event.payload.detail)) } };
        case 'model-retry':
            return { ...event, payload: { ...event.payload, message: withoutUrls(event.payload.message) } };
        default:
            return event;
    }
}

function withoutStack(text: string): string {
    return text
        .split('\n')
        .filter((line) => !/^\s*at\s/.test(line) && !/^\s*[\w$.<>]*@\S+:\d+(:\d+)?\s*$/.test(line))
        .join('\n');
}

function withoutUrls(text: string): string {
    return text.replace(/\b(?:https?|wss?):\/\/[^\s"'<>]+/gi, '<address removed>');
}

/** The largest run export accepted (characters of JSON; the panel checks the file's bytes first). */
export const RUN_IMPORT_MAX_CHARS = 50 * 1024 * 1024;
/** The largest checkpoint text (a full copy or a delta): bigger than any file a run can write. */
const CHECKPOINT_MAX_CHARS = 8 * 1024 * 1024;

/**
 * What the schema cannot say about an export: every event payload typed, seqs unique, and every checkpoint
 * rebuildable within bounded work (a full copy within MAX_DELTAS_PER_REBUILD deltas before it).
 */
function importProblem(data: z.infer<typeof RunExportSchema>, events: JournalEvent[]): string | null {
    const seqs = new Set<number>();
    for (const raw of data.events) {
        if (seqs.has(raw.seq)) return `event ${raw.seq} appears twice`;
        seqs.add(raw.seq);
        const checked = checkedEvent(raw);
        if (!checked.ok) return `event ${raw.seq} (${raw.type.slice(0, 60)}): ${checked.problem}`;
        events.push(checked.event);
    }
    const checkpointSeqs = new Set<number>();
    const sinceFull = new Map<string, number>();
    for (const checkpoint of [...data.checkpoints].sort((a, b) => a.seq - b.seq)) {
        if (checkpointSeqs.has(checkpoint.seq)) return `checkpoint ${checkpoint.seq} appears twice`;
        checkpointSeqs.add(checkpoint.seq);
        if ((checkpoint.full === null) === (checkpoint.delta === null)) return `checkpoint ${checkpoint.seq} must hold either a full copy or a delta`;
        if ((checkpoint.full ?? checkpoint.delta ?? '').length > CHECKPOINT_MAX_CHARS) return `checkpoint ${checkpoint.seq} is too large`;
        if (checkpoint.full !== null) {
            sinceFull.set(checkpoint.path, 0);
            continue;
        }
        const deltas = sinceFull.get(checkpoint.path);
        if (deltas === undefined) return `checkpoint ${checkpoint.seq} of ${checkpoint.path.slice(0, 100)} has no full copy before it`;
        if (deltas + 1 > MAX_DELTAS_PER_REBUILD) return `checkpoint ${checkpoint.seq} is more than ${MAX_DELTAS_PER_REBUILD} deltas from a full copy`;
        sinceFull.set(checkpoint.path, deltas + 1);
    }
    return null;
}

/** Stores an exported run for viewing, read-only, under a fresh id so it never overwrites a real run. */
export async function importRun(storage: RunStorage, text: string, newRunId: string): Promise<Result<{ runId: string; events: number }>> {
    if (text.length > RUN_IMPORT_MAX_CHARS) {
        return fail('run.import_invalid', `This file is too large to import (over ${RUN_IMPORT_MAX_CHARS / 1024 / 1024} MiB).`);
    }
    let data: unknown;
    try {
        data = JSON.parse(text);
    } catch (error) {
        return fail('run.import_invalid', 'This file is not valid JSON.', error instanceof Error ? error.message : String(error));
    }
    const parsed = RunExportSchema.safeParse(data);
    if (!parsed.success) {
        const issue = parsed.error.issues[0];
        return fail('run.import_invalid', `This is not a Tavern Agent run export (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unknown shape'}).`);
    }
    const events: JournalEvent[] = [];
    const problem = importProblem(parsed.data, events);
    if (problem) return fail('run.import_invalid', `This run export is damaged (${problem}).`);
    const { run, files, checkpoints } = parsed.data;
    const rekey = <T extends { runId: string }>(record: T): T => ({ ...record, runId: newRunId });
    await storage.putWholeRun({ ...run, runId: newRunId, chatKey: IMPORTED_CHAT_KEY }, events.map(rekey), files.map(rekey), checkpoints.map(rekey));
    return ok({ runId: newRunId, events: events.length });
}
