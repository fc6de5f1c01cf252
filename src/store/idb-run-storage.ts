import { unwrap, type IDBPDatabase, type IDBPObjectStore } from 'idb';
import type { RunRecord, WorkspaceFile } from '../contract/records';
import type { StoredEventRecord } from '../contract/events';
import type { JournalEvent } from '../contract/events';
import { chunkHash, isChunkedPath, splitIntoChunks } from './content-chunks';
import { eventsOf, groupRecord, inlineFilesOf, isEventGroup, mayBeInline, withoutFiles } from './event-groups';
import type { ChunkRef, TavernAgentDb } from './db';
import { claimInDb, releaseInDb, runClaimsRange } from './idb-lore-claims';
import type { EventWrite, RunStorage, RunsUpdate } from './run-storage';

type Db = IDBPDatabase<TavernAgentDb>;
const runRange = (runId: string) => IDBKeyRange.bound([runId, ''], [runId, '\uffff']);

/** A file ready to store: chunked ones go in as an empty record, a chunk ref and the chunks it lacks. */
function prepareFile(file: WorkspaceFile): { record: WorkspaceFile; ref: ChunkRef | null; chunks: Array<{ hash: string; text: string }> } {
    if (!isChunkedPath(file.path, file.content)) return { record: file, ref: null, chunks: [] };
    const chunks = splitIntoChunks(file.content).map((text) => ({ hash: chunkHash(text), text }));
    return { record: { ...file, content: '' }, ref: { runId: file.runId, path: file.path, hashes: chunks.map((c) => c.hash) }, chunks };
}

/** Queues a file's writes in a transaction over files, chunks and chunkRefs (a chunk already stored is not rewritten). */
function queueFile(
    tx: { objectStore(name: 'files' | 'chunks' | 'chunkRefs'): { put(value: never): Promise<unknown>; delete(key: never): Promise<unknown>; getKey(key: never): Promise<unknown> } },
    file: WorkspaceFile,
    write: (request: Promise<unknown>) => void,
): void {
    const prepared = prepareFile(file);
    write(tx.objectStore('files').put(prepared.record as never));
    if (prepared.ref) {
        write(tx.objectStore('chunkRefs').put(prepared.ref as never));
        const seen = new Set<string>();
        for (const chunk of prepared.chunks) {
            if (seen.has(chunk.hash)) continue;
            seen.add(chunk.hash);
            const chunks = tx.objectStore('chunks');
            write(chunks.getKey(chunk.hash as never).then((key) => (key === undefined ? chunks.put(chunk as never) : undefined)));
        }
    } else if (file.path.startsWith('input/')) {
        // Written whole now: a chunk ref left from an earlier version would override it.
        write(tx.objectStore('chunkRefs').delete([file.runId, file.path] as never));
    }
}

/** A file as stored, with a chunked one put back together. */
async function assemble(db: Db, file: WorkspaceFile, ref: ChunkRef | undefined): Promise<WorkspaceFile> {
    if (!ref) return file;
    const tx = db.transaction('chunks', 'readonly');
    const parts = await Promise.all(ref.hashes.map((hash) => tx.store.get(hash)));
    await tx.done;
    if (parts.some((part) => part === undefined)) throw new DOMException(`A stored chunk of ${file.path} is missing.`, 'NotFoundError');
    return { ...file, content: parts.map((part) => part!.text).join('') };
}

/**
 * Removes the chunk refs of a run (all of them, or those of one path) and every chunk no other run
 * still refers to, inside the caller's transaction.
 */
async function dropChunks(tx: { objectStore(name: 'chunks' | 'chunkRefs'): any }, runId: string): Promise<void> {
    // `any` above: idb types each transaction by its exact store list; this runs inside several.
    const refs = tx.objectStore('chunkRefs');
    const mine: ChunkRef[] = await refs.getAll(runRange(runId));
    if (mine.length === 0) return;
    await refs.delete(runRange(runId));
    const others: ChunkRef[] = await refs.getAll();
    const used = new Set(others.flatMap((ref) => ref.hashes));
    const chunks = tx.objectStore('chunks');
    for (const hash of new Set(mine.flatMap((ref) => ref.hashes))) if (!used.has(hash)) await chunks.delete(hash);
}

/**
 * Queues a transaction's writes and waits for it. A record that cannot even be queued (it fails to clone,
 * or has a bad key) throws while queuing: the transaction is aborted then, so the writes queued before it
 * never land — all or nothing, as a failing write inside the transaction already is.
 */
async function allOrNothing(tx: { abort(): void; done: Promise<void> }, queue: (write: (request: Promise<unknown>) => void) => void): Promise<void> {
    const writes: Array<Promise<unknown>> = [];
    try {
        queue((request) => writes.push(request));
    } catch (error) {
        // The queued requests and the transaction reject with AbortError now; that is expected, not unhandled.
        for (const write of writes) write.catch(() => undefined);
        tx.done.catch(() => undefined);
        tx.abort();
        throw error;
    }
    await Promise.all([...writes, tx.done]);
}

/**
 * One readwrite transaction in plain IndexedDB, settled by the transaction alone: the journal's hot path
 * (every round writes one), where idb's per-request promises cost more than the puts they wrap. A failing
 * request aborts the transaction (nothing lands) and the returned promise rejects with its error, as
 * allOrNothing does; a record that cannot be queued aborts it too.
 */
function plainTransaction(db: IDBDatabase, stores: string[], queue: (tx: IDBTransaction) => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
        const tx = db.transaction(stores, 'readwrite');
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error ?? new DOMException('The write was aborted.', 'AbortError'));
        try {
            queue(tx);
        } catch (error) {
            // Reject with the queuing error, not the AbortError that follows.
            tx.onabort = null;
            tx.abort();
            reject(error);
        }
    });
}

/** Events sorted by seq, unless they already are (the journal writes in order, so they almost always are). */
function inSeqOrder(events: JournalEvent[]): JournalEvent[] {
    for (let i = 1; i < events.length; i += 1) if (events[i]!.seq < events[i - 1]!.seq) return events.sort((a, b) => a.seq - b.seq);
    return events;
}

/** Rewrites a run's groups without their inline files, inside the caller's transaction (its journal stays). */
async function dropInlineFiles(
    events: { index(name: 'byFile'): { getAllKeys(range: IDBKeyRange): Promise<Array<[string, number]>> }; get(key: [string, number]): Promise<StoredEventRecord | undefined>; put(value: StoredEventRecord): Promise<unknown> },
    runId: string,
): Promise<void> {
    const keys = await events.index('byFile').getAllKeys(IDBKeyRange.bound([runId, ''], [runId, '\uffff']));
    const unique = new Map(keys.map((key) => [key[1], key]));
    for (const key of unique.values()) {
        const record = await events.get(key);
        if (record && isEventGroup(record)) await events.put(withoutFiles(record));
    }
}

/** Events a group record of a whole-run write holds at most: few records to read, none of them large. */
const WHOLE_RUN_GROUP_EVENTS = 64;

/** A whole run's events (one run, in seq order) as group records of consecutive events. */
function importGroups(events: readonly JournalEvent[]): StoredEventRecord[] {
    const ordered = inSeqOrder([...events]);
    const groups: StoredEventRecord[] = [];
    for (let start = 0; start < ordered.length; start += WHOLE_RUN_GROUP_EVENTS) {
        groups.push(groupRecord(ordered.slice(start, start + WHOLE_RUN_GROUP_EVENTS).map((event) => ({ event }))).record);
    }
    return groups;
}

export function createIdbRunStorage(db: Db): RunStorage {
    const plain = unwrap(db) as IDBDatabase;
    async function appendEvents(writes: EventWrite[]): Promise<void> {
        if (writes.length === 0) return;
        // One record per run's consecutive writes (the journal's batch is always one run's).
        const groups: Array<ReturnType<typeof groupRecord>> = [];
        let start = 0;
        for (let i = 1; i <= writes.length; i += 1) {
            if (i < writes.length && writes[i]!.event.runId === writes[start]!.event.runId) continue;
            groups.push(groupRecord(writes.slice(start, i)));
            start = i;
        }
        const files = groups.flatMap((g) => g.files);
        const checkpoints = writes.flatMap((w) => w.attachments?.checkpoints ?? []);
        // Only the stores the batch writes: a transaction over fewer stores is cheaper to schedule.
        const stores: Array<'events' | 'files' | 'checkpoints'> = ['events'];
        if (files.length > 0) stores.push('files');
        if (checkpoints.length > 0) stores.push('checkpoints');
        await plainTransaction(plain, stores, (tx) => {
            // add: a group whose first seq is taken fails on its key, and the whole write with it (event-groups.ts).
            const events = tx.objectStore('events');
            for (const group of groups) events.add(group.record);
            if (files.length > 0) {
                const store = tx.objectStore('files');
                for (const file of files) store.put(file);
            }
            if (checkpoints.length > 0) {
                const store = tx.objectStore('checkpoints');
                for (const checkpoint of checkpoints) store.put(checkpoint);
            }
        });
    }
    /**
     * A run's events from `fromSeq` on. A group starting before `fromSeq` may hold later events, so the one
     * record before the range is read too.
     */
    async function listEvents(runId: string, fromSeq = 0): Promise<JournalEvent[]> {
        const upper = [runId, Number.MAX_SAFE_INTEGER];
        if (fromSeq <= 0) return inSeqOrder(eventsOf(await db.getAll('events', IDBKeyRange.bound([runId, 0], upper))));
        const tx = db.transaction('events', 'readonly');
        const [before, rest] = await Promise.all([
            tx.store.openCursor(IDBKeyRange.bound([runId, 0], [runId, fromSeq], false, true), 'prev'),
            tx.store.getAll(IDBKeyRange.bound([runId, fromSeq], upper)),
        ]);
        const records: StoredEventRecord[] = before ? [before.value, ...rest] : rest;
        await tx.done;
        return inSeqOrder(eventsOf(records, fromSeq));
    }
    /** Reads run records and puts what `decide` makes of them, in one readwrite transaction (run-storage.ts). */
    async function updateRuns<T>(read: (store: IDBPObjectStore<TavernAgentDb, ['runs'], 'runs', 'readwrite'>) => Promise<RunRecord[]>, decide: (stored: RunRecord[]) => RunsUpdate<T>): Promise<T> {
        const tx = db.transaction('runs', 'readwrite');
        let update: RunsUpdate<T>;
        try {
            update = decide(await read(tx.store));
        } catch (error) {
            // Nothing was queued: the transaction ends empty.
            tx.done.catch(() => undefined);
            throw error;
        }
        await allOrNothing(tx, (write) => {
            for (const record of update.put ?? []) write(tx.store.put(record));
        });
        return update.value;
    }
    return {
        async putRun(run) { await db.put('runs', run); },
        getRun: (runId) => db.get('runs', runId),
        listRuns: (chatKey) => db.getAllFromIndex('runs', 'byChat', chatKey),
        listAllRuns: () => db.getAll('runs'),
        updateRun: (runId, decide) => updateRuns(async (store) => {
            const run = await store.get(runId);
            return run ? [run] : [];
        }, (stored) => decide(stored[0])),
        updateChatRuns: (chatKey, decide) => updateRuns((store) => store.index('byChat').getAll(chatKey), decide),
        appendEvent: (event, attachments) => appendEvents([{ event, ...(attachments ? { attachments } : {}) }]),
        appendEvents,
        listEvents,
        async putFile(file) {
            if (!file.path.startsWith('input/')) {
                await db.put('files', file);
                return;
            }
            const tx = db.transaction(['files', 'chunks', 'chunkRefs'], 'readwrite');
            await allOrNothing(tx, (write) => queueFile(tx as never, file, write));
        },
        async putFiles(files) {
            if (files.length === 0) return;
            const tx = db.transaction(['files', 'chunks', 'chunkRefs'], 'readwrite');
            await allOrNothing(tx, (write) => {
                for (const file of files) queueFile(tx as never, file, write);
            });
        },
        async listFiles(runId) {
            const [files, refs, records] = await Promise.all([
                db.getAll('files', runRange(runId)),
                db.getAll('chunkRefs', runRange(runId)),
                db.getAll('events', IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER])),
            ]);
            const byPath = new Map(refs.map((ref) => [ref.path, ref]));
            const whole = await Promise.all(files.map((file) => assemble(db, file, byPath.get(file.path))));
            // A record of `files` is the latest put of its path: it wins over an inline copy.
            const stored = new Set(whole.map((file) => file.path));
            const inline = new Map<string, WorkspaceFile>();
            for (const file of inlineFilesOf(records)) if (!stored.has(file.path)) inline.set(file.path, file);
            if (inline.size === 0) return whole;
            return [...whole, ...inline.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
        },
        async getFile(runId, path) {
            if (mayBeInline(path)) {
                const tx = db.transaction(['files', 'events'], 'readonly');
                const [file, groups] = await Promise.all([tx.objectStore('files').get([runId, path]), tx.objectStore('events').index('byFile').getAll([runId, path]), tx.done]);
                if (file) return file;
                // The latest group holding the path (a path is written once; the last write would win).
                for (const group of groups.reverse()) {
                    const inline = isEventGroup(group) ? group.files?.find((f) => f.path === path) : undefined;
                    if (inline) return inline;
                }
                return undefined;
            }
            const file = await db.get('files', [runId, path]);
            if (!file || !path.startsWith('input/')) return file;
            return assemble(db, file, await db.get('chunkRefs', [runId, path]));
        },
        async listCheckpoints(runId, path) {
            if (path === undefined) return db.getAll('checkpoints', IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER]));
            return db.getAllFromIndex('checkpoints', 'byPath', [runId, path]);
        },
        async putPersistState(state) { await db.put('persistStates', state); },
        getPersistState: (runId) => db.get('persistStates', runId),
        claimLoreProposal: (claim) => claimInDb(db, claim),
        releaseLoreClaim: (runId, proposalId, token) => releaseInDb(db, runId, proposalId, token),
        async putWholeRun(run, events, files, checkpoints) {
            const tx = db.transaction(['runs', 'events', 'files', 'checkpoints', 'chunks', 'chunkRefs'], 'readwrite');
            await allOrNothing(tx, (write) => {
                write(tx.objectStore('runs').put(run));
                // As groups, as the journal stores them: one record per event made opening a 5,000-event
                // import cost 5,000 record reads in the browser's IndexedDB backend (bench 7).
                for (const group of importGroups(events)) write(tx.objectStore('events').put(group));
                for (const file of files) queueFile(tx as never, file, write);
                for (const checkpoint of checkpoints) write(tx.objectStore('checkpoints').put(checkpoint));
            });
        },
        async dropRunData(runId) {
            const tx = db.transaction(['files', 'checkpoints', 'chunks', 'chunkRefs', 'events'], 'readwrite');
            await Promise.all([
                tx.objectStore('files').delete(runRange(runId)),
                tx.objectStore('checkpoints').delete(IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER])),
                dropChunks(tx, runId),
                dropInlineFiles(tx.objectStore('events'), runId),
                tx.done,
            ]);
        },
        async deleteRun(runId) {
            // One transaction: a run is deleted whole or not at all.
            const tx = db.transaction(['runs', 'events', 'files', 'checkpoints', 'persistStates', 'chunks', 'chunkRefs', 'loreClaims'], 'readwrite');
            await Promise.all([
                tx.objectStore('loreClaims').delete(runClaimsRange(runId)),
                dropChunks(tx, runId),
                tx.objectStore('runs').delete(runId),
                tx.objectStore('persistStates').delete(runId),
                tx.objectStore('events').delete(IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER])),
                tx.objectStore('files').delete(IDBKeyRange.bound([runId, ''], [runId, '\uffff'])),
                tx.objectStore('checkpoints').delete(IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER])),
                tx.done,
            ]);
        },
    };
}
