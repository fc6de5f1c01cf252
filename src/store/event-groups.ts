import { RECORD_VERSION, type WorkspaceFile } from '../contract/records';
import type { EventGroupRecord, StoredEventRecord } from '../contract/events';
import type { JournalEvent } from '../contract/events';
import type { EventWrite } from './run-storage';

/**
 * The journal's writes as IndexedDB records (database version 4). One write of the journal (a batch of
 * events and the small hidden files they describe) is ONE record in the `events` store, keyed by its first
 * event: in Chromium each put costs about as much as a small transaction's own overhead, and a read-only
 * tool round used to store 7 records (4 events, 3 files) where 1 now does (bench/loop-overhead.ts floors).
 *
 * Records written before version 4 (one event per record, every file in `files`) stay as they are and
 * read as before: a record is a group when it has `group`, else it is one event.
 */

/**
 * Hidden, write-once files (a call's arguments and result, a raw model response) up to this size travel
 * inside their event's group. Larger ones, visible files (which later writes replace) and chat snapshots
 * (input/, chunked) stay records of `files`. The cap bounds what reading a run's journal pulls in besides
 * its events (the timeline reads whole journals).
 */
export const INLINE_FILE_MAX_CHARS = 4096;
const INLINE_ROOTS = ['tool-args/', 'tool-results/', 'model-responses/'];

export function isInlineFile(file: WorkspaceFile): boolean {
    return file.content.length <= INLINE_FILE_MAX_CHARS && mayBeInline(file.path);
}

export function isEventGroup(record: StoredEventRecord): record is EventGroupRecord {
    return 'group' in record && Array.isArray(record.group);
}

/**
 * A batch of writes (one run's consecutive events) as one group record, and the files that must still be
 * stored on their own.
 *
 * The record's key, its first event's [runId, seq], is what keeps two writers of one run apart: it is
 * added, never put, so a group whose first seq is taken is refused whole. That is enough because a journal
 * starts where the stored journal ends and writes consecutive seqs: two journals of one run (a run resumed
 * in a second tab while the first still writes) both write next at the seq after the last stored event,
 * and the one that lands second is refused. Database version 4 also indexed every seq of a group
 * (unique), which refused a write starting inside a stored group too; no journal writes one, and those
 * index entries made each round's write about a fifth dearer (bench 3).
 */
export function groupRecord(batch: readonly EventWrite[]): { record: EventGroupRecord; files: WorkspaceFile[] } {
    // The journal writes in seq order; a caller that does not still gets its group keyed by its first seq.
    const ascending = batch.every((w, i) => i === 0 || w.event.seq > batch[i - 1]!.event.seq);
    const writes = ascending ? batch : [...batch].sort((a, b) => a.event.seq - b.event.seq);
    const first = writes[0]!.event;
    const inline: WorkspaceFile[] = [];
    const files: WorkspaceFile[] = [];
    for (const write of writes) for (const file of write.attachments?.files ?? []) (isInlineFile(file) ? inline : files).push(file);
    const record: EventGroupRecord = {
        v: RECORD_VERSION,
        runId: first.runId,
        seq: first.seq,
        group: writes.map((w) => w.event),
        ...(inline.length > 0 ? { files: inline, fileKeys: inline.map((f) => [f.runId, f.path]) } : {}),
    };
    return { record, files };
}

/** The events stored records hold, in order, from `fromSeq` on. */
export function eventsOf(records: readonly StoredEventRecord[], fromSeq = 0): JournalEvent[] {
    const events: JournalEvent[] = [];
    for (const record of records) {
        if (!isEventGroup(record)) {
            if (record.seq >= fromSeq) events.push(record);
            continue;
        }
        for (const event of record.group) if (event.seq >= fromSeq) events.push(event);
    }
    return events;
}

/** The files stored inside group records. */
export function inlineFilesOf(records: readonly StoredEventRecord[]): WorkspaceFile[] {
    return records.flatMap((record) => (isEventGroup(record) ? (record.files ?? []) : []));
}

/** A group without its inline files (what retention keeps of a run: its journal, not its data). */
export function withoutFiles(record: EventGroupRecord): EventGroupRecord {
    const { files: _files, fileKeys: _keys, ...rest } = record;
    return rest;
}

/** Whether a file at this path may be stored inline (then getFile looks in the journal too). */
export function mayBeInline(path: string): boolean {
    return INLINE_ROOTS.some((root) => path.startsWith(root));
}
