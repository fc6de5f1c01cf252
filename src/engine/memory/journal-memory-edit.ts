import { newId } from '../../contract/new-id';
import { ok, type Result } from '../../contract/result';
import { RECORD_VERSION, type RunRecord, type WorkspaceFile } from '../../contract/records';
import type { MemoryEditJournal } from '../../contract/wire';
import type { RunStorage } from '../../store/run-storage';
import { makeCheckpoint } from '../../workspace/checkpoints';
import { Journal } from '../journal/journal';

/** The generation type that names a user's memory edit in History (ui/timeline/format.ts). */
export const MEMORY_EDIT_TYPE = 'memory-edit';
/** The profile a user's memory edit is recorded under: nobody's, the user's own hand. */
export const USER_PROFILE_ID = 'user';

/**
 * A user's change to the chat's memory from the Memory view (issue 37 §1), journaled as a completed run of its
 * own, as the page already wrote it into the chat: History lists it beside the agents' runs, its timeline shows
 * each changed file with its diff (a checkpoint of the text before and after), and the memory it left is this
 * browser's cache of that memory like any run's. The chat stays the truth: the journal tells what was done.
 */
export async function journalMemoryEdit(storage: RunStorage, edit: MemoryEditJournal, now: () => number = Date.now): Promise<Result<{ runId: string }>> {
    const runId = newId();
    const at = now();
    const record: RunRecord = {
        v: RECORD_VERSION,
        runId,
        chatKey: edit.chatKey,
        chatId: edit.chatId,
        profileId: USER_PROFILE_ID,
        generationType: MEMORY_EDIT_TYPE,
        state: 'completed',
        messageId: null,
        error: null,
        createdAt: at,
        updatedAt: at,
        memory: { carried: true, bytes: edit.bytes },
    };
    const journal = new Journal(runId, storage, () => undefined, now);
    await journal.append('run-create', { chatKey: edit.chatKey, chatId: edit.chatId, profileId: USER_PROFILE_ID, generationType: MEMORY_EDIT_TYPE, foreground: false });
    let seq = 0;
    for (const path of changedPaths(edit.before, edit.after)) {
        const next = edit.after[path];
        if (next === undefined) continue;
        const previous = edit.before[path] ?? null;
        const file: WorkspaceFile = { v: RECORD_VERSION, runId, path, content: next, version: 1, updatedAt: at };
        await journal.append('file-write', { path, mode: 'replace', version: 1, chars: next.length }, { files: [file] });
        // The text before (a full copy) and after, so the file's row opens on the diff of the user's change.
        const checkpoints = [
            ...(previous === null ? [] : [makeCheckpoint({ runId, seq, path, previous: null, next: previous, indexForPath: 0, at })]),
            makeCheckpoint({ runId, seq: seq + (previous === null ? 0 : 1), path, previous, next, indexForPath: previous === null ? 0 : 1, at }),
        ];
        seq += checkpoints.length;
        await journal.append('checkpoint', { seq: checkpoints.at(-1)!.seq, path, version: 1, full: checkpoints.at(-1)!.full !== null, kind: 'write' }, { checkpoints });
    }
    await storage.putPersistState({ v: RECORD_VERSION, runId, chatKey: edit.chatKey, files: edit.after, at });
    await journal.append('persist-promote', { files: Object.keys(edit.after).length });
    await journal.append('memory-attach', { stored: true, mode: 'full', bytes: edit.bytes, reason: null });
    await journal.append('run-finish', { reason: describe(edit) });
    await journal.append('run-state', { from: 'created', to: 'completed' });
    await storage.putRun(record);
    return ok({ runId });
}

function changedPaths(before: Record<string, string>, after: Record<string, string>): string[] {
    const paths = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...paths].filter((path) => before[path] !== after[path]).sort();
}

/** The run's end note: what the user did, and where the memory went. */
function describe(edit: MemoryEditJournal): string {
    const { change, into } = edit;
    const what = change.kind === 'delete' ? `deleted ${change.path}` : change.kind === 'pin' ? `${change.pinned ? 'pinned' : 'unpinned'} ${change.path}` : `edited ${change.path}`;
    const where = into.kind === 'seed' ? "the chat's memory seed" : `message #${into.messageId}`;
    return `Memory edited in the panel: ${what}; written into ${where}.`;
}
