// The journal's stored format, old and new side by side (issue 17, figure 3). From database version 4 one
// journal write is one record of `events` (a group, with its small hidden files inline); runs stored before
// hold one record per event and every file in `files`. Both must open, list, read, export, import, resume
// and shrink under retention, alone and mixed in one run (an old run resumed by the new code).
// Run: node --import tsx --test tests/unit/stored-format.test.ts
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openDB, type IDBPDatabase } from 'idb';
import type { CheckpointRecord, RunRecord, WorkspaceFile } from '../../src/contract/records';
import type { StoredEventRecord } from '../../src/contract/events';
import type { JournalEvent } from '../../src/contract/events';
import { databaseNameFor, DATABASE_VERSION, openTavernAgentDb, type TavernAgentDb } from '../../src/store/db';
import { groupRecord, INLINE_FILE_MAX_CHARS, isEventGroup } from '../../src/store/event-groups';
import { Journal } from '../../src/engine/journal/journal';
import { createIdbRunStorage } from '../../src/store/idb-run-storage';
import type { EventWrite, RunStorage } from '../../src/store/run-storage';
import { exportRun, importRun, listRunFiles, readRunFile } from '../../src/engine/archive/run-archive';
import { pruneRuns } from '../../src/engine/archive/retention';
import { cutAndResume, referenceRun, RELIABILITY_RUN_ID } from '../fixtures/reliability';
import { payloadsOf } from '../fixtures/run-harness';
import { anyEnvelope } from '../fixtures/journal-events';

let databases = 0;
const handle = () => `stored-format-${process.pid}-${(databases += 1)}`;

const run = (runId: string): RunRecord => ({
    v: 1, runId, chatKey: 'chat-1', chatId: 'Alice', profileId: 'writer', generationType: 'normal', state: 'completed', messageId: 2, error: null, createdAt: 1, updatedAt: 1,
});
const event = (runId: string, seq: number, type = `step-${seq}`): JournalEvent => anyEnvelope({ runId, seq, at: 10 + seq, type, payload: { n: seq } });
const file = (runId: string, path: string, content = `text of ${path}`): WorkspaceFile => ({ v: 1, runId, path, content, version: 0, updatedAt: 1 });
const checkpoint = (runId: string, seq: number): CheckpointRecord => ({ v: 1, runId, seq, path: 'output/main.md', delta: null, full: `v${seq}`, at: 1 });

/** A database as version 3 of the extension left it: the same stores, no group indexes. */
async function openVersion3(name: string): Promise<IDBPDatabase> {
    return openDB(databaseNameFor(name), 3, {
        upgrade(db) {
            db.createObjectStore('runs', { keyPath: 'runId' }).createIndex('byChat', 'chatKey');
            db.createObjectStore('events', { keyPath: ['runId', 'seq'] });
            db.createObjectStore('files', { keyPath: ['runId', 'path'] });
            db.createObjectStore('checkpoints', { keyPath: ['runId', 'seq'] }).createIndex('byPath', ['runId', 'path']);
            db.createObjectStore('persistStates', { keyPath: 'runId' });
            db.createObjectStore('skillBundles', { keyPath: 'hash' });
            db.createObjectStore('chunks', { keyPath: 'hash' });
            db.createObjectStore('chunkRefs', { keyPath: ['runId', 'path'] });
        },
    });
}

/** A database as version 4 of the extension left it: version 3's stores, and the events store's two indexes. */
async function openVersion4(name: string): Promise<IDBPDatabase> {
    const v3 = await openVersion3(name);
    v3.close();
    return openDB(databaseNameFor(name), 4, {
        upgrade(_db, _old, _new, transaction) {
            const events = transaction.objectStore('events');
            events.createIndex('bySeq', 'seqs', { unique: true, multiEntry: true });
            events.createIndex('byFile', 'fileKeys', { multiEntry: true });
        },
    });
}

/** appendEvents as version 3 wrote it: one record per event, every attached file a record of `files`. */
async function appendOldFormat(db: IDBPDatabase<TavernAgentDb> | IDBPDatabase, writes: readonly EventWrite[]): Promise<void> {
    const tx = (db as IDBPDatabase).transaction(['events', 'files', 'checkpoints'], 'readwrite');
    await Promise.all([
        ...writes.map((w) => tx.objectStore('events').add(w.event)),
        ...writes.flatMap((w) => (w.attachments?.files ?? []).map((f) => tx.objectStore('files').put(f))),
        ...writes.flatMap((w) => (w.attachments?.checkpoints ?? []).map((c) => tx.objectStore('checkpoints').put(c))),
        tx.done,
    ]);
}

/** A round as the journal writes it: model response, a read-only call's start and result, the next request. */
function round(runId: string, first: number, n: number): EventWrite[] {
    return [
        { event: event(runId, first, 'model-response'), attachments: { files: [file(runId, `model-responses/round-${n}.json`, `{"round":${n}}`)] } },
        { event: event(runId, first + 1, 'tool-call-start'), attachments: { files: [file(runId, `tool-args/c${n}.json`, '{}')] } },
        { event: event(runId, first + 2, 'tool-call-complete'), attachments: { files: [file(runId, `tool-results/c${n}.json`, `{"ok":true,"n":${n}}`)] } },
        { event: event(runId, first + 3, 'model-request') },
    ];
}

async function records(db: IDBPDatabase<TavernAgentDb>, runId: string): Promise<StoredEventRecord[]> {
    return db.getAll('events', IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER]));
}

describe('the stored journal format', () => {
    it('a journal write is one record: the events of the batch with their small hidden files inline', async () => {
        const db = await openTavernAgentDb(handle());
        const storage = createIdbRunStorage(db);
        const big = 'x'.repeat(INLINE_FILE_MAX_CHARS + 1);
        await storage.appendEvents([
            ...round('run-1', 0, 1),
            { event: event('run-1', 4, 'file-write'), attachments: { files: [file('run-1', 'output/main.md', 'draft')], checkpoints: [checkpoint('run-1', 0)] } },
            { event: event('run-1', 5, 'tool-call-complete'), attachments: { files: [file('run-1', 'tool-results/big.json', big)] } },
        ]);
        const stored = await records(db, 'run-1');
        assert.equal(stored.length, 1);
        const group = stored[0]!;
        assert.ok(isEventGroup(group));
        assert.deepEqual(group.group.map((e) => e.seq), [0, 1, 2, 3, 4, 5]);
        // Hidden files small enough ride inline; a visible file and a large result stay records of `files`.
        assert.deepEqual(group.files?.map((f) => f.path), ['model-responses/round-1.json', 'tool-args/c1.json', 'tool-results/c1.json']);
        assert.deepEqual((await db.getAll('files')).map((f) => f.path), ['output/main.md', 'tool-results/big.json']);
        assert.deepEqual((await storage.listFiles('run-1')).map((f) => f.path), ['model-responses/round-1.json', 'output/main.md', 'tool-args/c1.json', 'tool-results/big.json', 'tool-results/c1.json']);
        assert.equal((await storage.getFile('run-1', 'tool-results/c1.json'))?.content, '{"ok":true,"n":1}');
        assert.equal((await storage.getFile('run-1', 'tool-results/big.json'))?.content, big);
        assert.equal(await storage.getFile('run-1', 'tool-results/none.json'), undefined);
        assert.equal(await storage.getFile('run-2', 'tool-results/c1.json'), undefined);
        db.close();
    });

    it('lists events from any seq, inside a group or at its start, and refuses a write whose first seq is taken', async () => {
        const db = await openTavernAgentDb(handle());
        const storage = createIdbRunStorage(db);
        await storage.appendEvents(round('run-1', 0, 1));
        await storage.appendEvents(round('run-1', 4, 2));
        await storage.appendEvents(round('run-10', 0, 1));
        assert.deepEqual((await storage.listEvents('run-1')).map((e) => e.seq), [0, 1, 2, 3, 4, 5, 6, 7]);
        assert.deepEqual((await storage.listEvents('run-1', 2)).map((e) => e.seq), [2, 3, 4, 5, 6, 7]);
        assert.deepEqual((await storage.listEvents('run-1', 4)).map((e) => e.seq), [4, 5, 6, 7]);
        assert.deepEqual((await storage.listEvents('run-1', 7)).map((e) => e.seq), [7]);
        assert.deepEqual(await storage.listEvents('run-1', 8), []);
        // Starting where a stored group starts (as a second journal of the run would): refused whole, nothing lands.
        for (const first of [4, 0]) {
            await assert.rejects(storage.appendEvents([{ event: event('run-1', first), attachments: { files: [file('run-1', 'tool-args/dup.json')] } }, { event: event('run-1', first + 10) }]), { name: 'ConstraintError' });
        }
        assert.deepEqual((await storage.listEvents('run-1')).map((e) => e.seq), [0, 1, 2, 3, 4, 5, 6, 7]);
        assert.equal(await storage.getFile('run-1', 'tool-args/dup.json'), undefined);
        // The records carry no per-seq index keys (database version 5).
        for (const record of await records(db, 'run-1')) assert.ok(isEventGroup(record) && record.seqs === undefined);
        db.close();
    });

    it('a whole run written at once (an import) is stored as groups of consecutive events, read as one journal', async () => {
        const db = await openTavernAgentDb(handle());
        const storage = createIdbRunStorage(db);
        // Out of order on purpose: the groups still hold consecutive seqs.
        const events = [...Array(200).keys()].map((seq) => event('run-1', seq)).reverse();
        await storage.putWholeRun(run('run-1'), events, [file('run-1', 'tool-results/c1.json')], [checkpoint('run-1', 3)]);
        const stored = await records(db, 'run-1');
        assert.deepEqual(stored.map((r) => (isEventGroup(r) ? `${r.seq}+${r.group.length}` : `event@${r.seq}`)), ['0+64', '64+64', '128+64', '192+8']);
        assert.deepEqual((await storage.listEvents('run-1')).map((e) => e.seq), [...Array(200).keys()]);
        assert.deepEqual((await storage.listEvents('run-1', 100)).map((e) => e.seq), [...Array(100).keys()].map((k) => k + 100));
        assert.deepEqual(await storage.listEvents('run-1', 200), []);
        assert.equal((await storage.getFile('run-1', 'tool-results/c1.json'))?.content, 'text of tool-results/c1.json');
        // Its groups' keys are taken: a write starting at one is refused, as after a journal write.
        await assert.rejects(storage.appendEvents([{ event: event('run-1', 128) }]), { name: 'ConstraintError' });
        await storage.deleteRun('run-1');
        assert.deepEqual(await records(db, 'run-1'), []);
        db.close();
    });

    it('a version 3 database upgrades in place: its runs read as before, and new writes follow them', async () => {
        const name = handle();
        const old = await openVersion3(name);
        await old.put('runs', run('old-run'));
        await appendOldFormat(old, round('old-run', 0, 1));
        await appendOldFormat(old, [{ event: event('old-run', 4, 'file-write'), attachments: { files: [file('old-run', 'output/main.md', 'draft')], checkpoints: [checkpoint('old-run', 0)] } }]);
        old.close();

        const db = await openTavernAgentDb(name);
        assert.equal(db.version, DATABASE_VERSION);
        const storage = createIdbRunStorage(db);
        assert.equal((await records(db, 'old-run')).some(isEventGroup), false);
        // Resumed by the new code: its new events are groups after the old single records.
        await storage.appendEvents(round('old-run', 5, 2));
        const stored = await records(db, 'old-run');
        assert.deepEqual(stored.map((r) => (isEventGroup(r) ? `group@${r.seq}` : `event@${r.seq}`)), ['event@0', 'event@1', 'event@2', 'event@3', 'event@4', 'group@5']);
        assert.deepEqual((await storage.listEvents('old-run')).map((e) => e.seq), [...Array(9).keys()]);
        assert.deepEqual((await storage.listEvents('old-run', 3)).map((e) => e.seq), [3, 4, 5, 6, 7, 8]);
        assert.deepEqual((await storage.listEvents('old-run', 6)).map((e) => e.seq), [6, 7, 8]);
        const paths = (await storage.listFiles('old-run')).map((f) => f.path);
        assert.deepEqual(paths, ['model-responses/round-1.json', 'model-responses/round-2.json', 'output/main.md', 'tool-args/c1.json', 'tool-args/c2.json', 'tool-results/c1.json', 'tool-results/c2.json']);
        for (const path of ['tool-results/c1.json', 'tool-results/c2.json', 'output/main.md']) assert.ok(await storage.getFile('old-run', path), path);
        // A new group may not take a seq an old record holds as its key.
        await assert.rejects(storage.appendEvents([{ event: event('old-run', 4) }]), { name: 'ConstraintError' });
        db.close();
    });

    it('a version 4 database upgrades in place: its per-seq index goes, its groups read as before', async () => {
        const name = handle();
        const old = await openVersion4(name);
        await old.put('runs', run('v4-run'));
        // Groups as version 4 wrote them, each with its seqs for the unique index.
        for (const first of [0, 4]) {
            const { record } = groupRecord(round('v4-run', first, first / 4 + 1));
            await old.add('events', { ...record, seqs: record.group.map((e) => [e.runId, e.seq]) });
        }
        old.close();

        const db = await openTavernAgentDb(name);
        assert.equal(db.version, DATABASE_VERSION);
        assert.deepEqual([...db.transaction('events').store.indexNames], ['byFile']);
        const storage = createIdbRunStorage(db);
        assert.deepEqual((await storage.listEvents('v4-run', 2)).map((e) => e.seq), [2, 3, 4, 5, 6, 7]);
        assert.equal((await storage.getFile('v4-run', 'tool-results/c2.json'))?.content, '{"ok":true,"n":2}');
        // Resumed by the new code: its next group follows, without seqs; a group at a taken first seq is refused.
        await storage.appendEvents(round('v4-run', 8, 3));
        await assert.rejects(storage.appendEvents(round('v4-run', 4, 9)), { name: 'ConstraintError' });
        const stored = await records(db, 'v4-run');
        assert.deepEqual(stored.map((r) => (isEventGroup(r) ? `${r.seq}+${r.group.length}:${r.seqs ? 'seqs' : '-'}` : 'event')), ['0+4:seqs', '4+4:seqs', '8+4:-']);
        assert.deepEqual((await storage.listEvents('v4-run')).map((e) => e.seq), [...Array(12).keys()]);
        db.close();
    });

    it('two journals of one run, both started where the stored journal ends: the second to write is refused', async () => {
        const db = await openTavernAgentDb(handle());
        const storage = createIdbRunStorage(db);
        await storage.appendEvents(round('run-1', 0, 1));
        const next = (await storage.listEvents('run-1')).length;
        const first = new Journal('run-1', storage, () => undefined, () => 1, next);
        const second = new Journal('run-1', storage, () => undefined, () => 2, next);
        // The first writes two steps (its second write lands after the other journal began); the other is refused at once.
        const note = (reason: string) => ({ reason });
        await first.append('run-cancel', note('a'));
        await assert.rejects(second.append('run-cancel', note('b')), { code: 'store.write_failed' });
        await first.append('run-cancel', note('c'));
        // Refused again on its next step: it never takes a seq of the first journal's.
        await assert.rejects(second.append('run-cancel', note('d')), { code: 'store.write_failed' });
        const events = await storage.listEvents('run-1');
        assert.deepEqual(events.map((e) => e.seq), [0, 1, 2, 3, 4, 5]);
        assert.deepEqual(payloadsOf(events.slice(4), 'run-cancel').map((p) => p.reason), ['a', 'c']);
        db.close();
    });

    it('readers see the same run whichever format stored it: the timeline\'s file list and views, export and import', async () => {
        // The same scripted run (its clock fixed), stored the old way in one database and the new way in another.
        const oldDb = await openTavernAgentDb(handle());
        const newDb = await openTavernAgentDb(handle());
        const stores = { old: oldUntil(oldDb, Number.POSITIVE_INFINITY), new: createIdbRunStorage(newDb) };
        for (const storage of Object.values(stores)) assert.equal((await referenceRun(storage)).outcome.state, 'completed');
        assert.equal((await records(oldDb, RELIABILITY_RUN_ID)).some(isEventGroup), false);
        const counts = [(await records(newDb, RELIABILITY_RUN_ID)).length, (await records(oldDb, RELIABILITY_RUN_ID)).length];
        assert.ok(counts[0]! < counts[1]!, String(counts));
        const files = await listRunFiles(stores.new, RELIABILITY_RUN_ID);
        assert.deepEqual(files, await listRunFiles(stores.old, RELIABILITY_RUN_ID));
        assert.ok(files.some((f) => f.path.startsWith('tool-results/')) && files.some((f) => f.path.startsWith('model-responses/')));
        for (const { path } of files) assert.deepEqual(await readRunFile(stores.new, RELIABILITY_RUN_ID, path), await readRunFile(stores.old, RELIABILITY_RUN_ID, path), path);
        const exported = { old: await exportRun(stores.old, RELIABILITY_RUN_ID), new: await exportRun(stores.new, RELIABILITY_RUN_ID) };
        assert.ok(exported.old.ok && exported.new.ok);
        // The same document: an export never shows how the run was stored.
        assert.equal(exported.new.value, exported.old.value);
        // Each imports into the other database and reads back the same.
        for (const [from, to] of [['old', 'new'], ['new', 'old']] as const) {
            const imported = await importRun(stores[to], (exported[from] as { value: string }).value, `imported-${from}`);
            assert.ok(imported.ok);
            assert.deepEqual(await stores[to].listEvents(`imported-${from}`), (await stores[from].listEvents(RELIABILITY_RUN_ID)).map((e) => ({ ...e, runId: `imported-${from}` })));
            assert.deepEqual(await listRunFiles(stores[to], `imported-${from}`), files);
        }
        oldDb.close();
        newDb.close();
    });

    it('retention keeps a summary of either format: the journal stays, its files (inline ones too) go', async () => {
        const db = await openTavernAgentDb(handle());
        const storage = createIdbRunStorage(db);
        const writes = round('x', 0, 1);
        for (const [index, runId] of ['old', 'new', 'newest'].entries()) await storage.putRun({ ...run(runId), createdAt: index, updatedAt: index });
        await appendOldFormat(db, writes.map((w) => rekey(w, 'old')));
        await storage.appendEvents(writes.map((w) => rekey(w, 'new')));
        await pruneRuns(storage, { action: 'retention', chatKeys: ['chat-1'], policy: { keepFull: 1, keepSummaries: 10 } } as never, () => false);
        for (const runId of ['old', 'new']) {
            assert.equal((await storage.getRun(runId))?.summary, true, runId);
            assert.equal((await storage.listEvents(runId)).length, 4, runId);
            assert.deepEqual(await storage.listFiles(runId), [], runId);
            assert.equal(await storage.getFile(runId, 'tool-results/c1.json'), undefined, runId);
        }
        assert.deepEqual(await db.getAllKeysFromIndex('events', 'byFile'), []);
        db.close();
    });

    it('a run cut off while stored the old way resumes with the new code: one reply, every call answered once', async () => {
        const reference = await referenceRun(createIdbRunStorage(await openTavernAgentDb(handle())));
        for (const limit of [9, 20, 45, 89, 120, 160]) {
            const db = await openTavernAgentDb(handle());
            const result = await cutAndResume(oldUntil(db, limit), limit);
            const where = `cut after ${limit}`;
            assert.equal(result.ending, 'completed', `${where}: ${result.code}`);
            assert.equal(result.replies, 1, where);
            assert.equal(result.main, reference.main, where);
            assert.deepEqual(result.events.map((e) => e.seq), result.events.map((_, i) => i), `${where}: journal numbering`);
            const stored = await records(db, RELIABILITY_RUN_ID);
            assert.ok(stored.some(isEventGroup) && stored.some((r) => !isEventGroup(r)), `${where}: both formats in one journal`);
            db.close();
        }
    });
});

function rekey(write: EventWrite, runId: string): EventWrite {
    return {
        event: { ...write.event, runId },
        ...(write.attachments ? { attachments: { files: write.attachments.files?.map((f) => ({ ...f, runId })), checkpoints: write.attachments.checkpoints?.map((c) => ({ ...c, runId })) } } : {}),
    } as EventWrite;
}

/** The new storage, except that journal writes holding only seqs below `limit` are stored the old way. */
function oldUntil(db: IDBPDatabase<TavernAgentDb>, limit: number): RunStorage {
    const storage = createIdbRunStorage(db);
    const appendEvents = (writes: EventWrite[]) => (writes.every((w) => w.event.seq < limit) ? appendOldFormat(db, writes) : storage.appendEvents(writes));
    return { ...storage, appendEvents, appendEvent: (event, attachments) => appendEvents([{ event, ...(attachments ? { attachments } : {}) }]) };
}
