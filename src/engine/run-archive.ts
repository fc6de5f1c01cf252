import * as z from 'zod';
import { RECORD_VERSION, CheckpointRecordSchema, JournalEventSchema, RunRecordSchema, WorkspaceFileSchema } from '../contract/records';
import { fail, ok, type Result } from '../contract/result';
import type { RunStorage } from '../store/run-storage';
import { lineDiff, MAX_DELTAS_PER_REBUILD, rebuildCheckpoint } from '../workspace/checkpoints';
import { eventPayloadProblem } from '../contract/event-schemas';
import { isHiddenPath } from '../workspace/roots';
import { Journal } from './journal';
import { IMPORTED_CHAT_KEY, type CheckpointDiff, type CheckpointInfo, type RunFileInfo } from '../contract/archive';

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

export async function listCheckpoints(storage: RunStorage, runId: string): Promise<CheckpointInfo[]> {
    return (await storage.listCheckpoints(runId))
        .sort((a, b) => a.seq - b.seq)
        .map((c) => ({ seq: c.seq, path: c.path, at: c.at, full: c.full !== null }));
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
        return ok({ seq, path: target.path, before, after, ops: lineDiff(before, after) });
    } catch (error) {
        return fail('checkpoint.corrupt', 'This checkpoint could not be rebuilt.', error instanceof Error ? error.message : String(error));
    }
}

/**
 * Writes a checkpoint's text back as the file's current version (journaled), e.g. to recover a draft or to
 * roll back persist/ memory. Only for runs that have ended, so a live run never has its files changed
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
    return ok({ path: diff.value.path, version });
}

export async function exportRun(storage: RunStorage, runId: string): Promise<Result<string>> {
    const run = await storage.getRun(runId);
    if (!run) return fail('run.not_found', 'This run no longer exists.');
    const [events, files, checkpoints] = await Promise.all([storage.listEvents(runId), storage.listFiles(runId), storage.listCheckpoints(runId)]);
    return ok(JSON.stringify({ kind: RUN_EXPORT_KIND, version: RECORD_VERSION, run, events, files, checkpoints }));
}

/** The largest run export accepted (characters of JSON; the panel checks the file's bytes first). */
export const RUN_IMPORT_MAX_CHARS = 50 * 1024 * 1024;
/** The largest checkpoint text (a full copy or a delta): bigger than any file a run can write. */
const CHECKPOINT_MAX_CHARS = 8 * 1024 * 1024;

/**
 * What the schema cannot say about an export: every event payload typed, seqs unique, and every checkpoint
 * rebuildable within bounded work (a full copy within MAX_DELTAS_PER_REBUILD deltas before it).
 */
function importProblem(data: z.infer<typeof RunExportSchema>): string | null {
    const seqs = new Set<number>();
    for (const event of data.events) {
        if (seqs.has(event.seq)) return `event ${event.seq} appears twice`;
        seqs.add(event.seq);
        const problem = eventPayloadProblem(event.type, event.payload);
        if (problem) return `event ${event.seq} (${event.type.slice(0, 60)}): ${problem}`;
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
    const problem = importProblem(parsed.data);
    if (problem) return fail('run.import_invalid', `This run export is damaged (${problem}).`);
    const { run, events, files, checkpoints } = parsed.data;
    const rekey = <T extends { runId: string }>(record: T): T => ({ ...record, runId: newRunId });
    await storage.putWholeRun({ ...run, runId: newRunId, chatKey: IMPORTED_CHAT_KEY }, events.map(rekey), files.map(rekey), checkpoints.map(rekey));
    return ok({ runId: newRunId, events: events.length });
}
