// The RunStorage contract, run on both implementations: the in-memory twin the unit tests use and the
// product's IndexedDB storage (over fake-indexeddb). What one does and the other does not is a bug.
// Run: node --import tsx --test tests/unit/run-storage.test.ts
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CheckpointRecord, PersistState, RunRecord, WorkspaceFile } from '../../src/contract/records';
import type { JournalEvent } from '../../src/contract/events';
import { storeCheckpoint, suitesPerStorageKind } from '../fixtures/storage-kinds';
import { anyEnvelope } from '../fixtures/journal-events';

const { describe, newStorage } = suitesPerStorageKind();

function run(runId: string, chatKey = 'chat-1'): RunRecord {
    return {
        v: 1,
        runId,
        chatKey,
        chatId: 'Alice - 2024',
        profileId: 'writer',
        generationType: 'normal',
        state: 'running',
        messageId: null,
        error: null,
        createdAt: 1,
        updatedAt: 1,
    };
}

const event = (runId: string, seq: number, payload: unknown = { n: seq }): JournalEvent => anyEnvelope({ runId, seq, at: 10 + seq, type: `step-${seq}`, payload });
const file = (runId: string, path: string, content = `text of ${path}`): WorkspaceFile => ({ v: 1, runId, path, content, version: 1, updatedAt: 1 });
const checkpoint = (runId: string, seq: number, path = 'output/main.md'): CheckpointRecord => ({ v: 1, runId, seq, path, delta: null, full: `v${seq}`, at: 1 });
const persist = (runId: string): PersistState => ({ v: 1, runId, chatKey: 'chat-1', files: { 'persist/notes.md': 'Tom' }, at: 1 });

/** Resolves to the error a promise rejects with, and fails the test when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
    try {
        await promise;
    } catch (error) {
        return error as Error;
    }
    assert.fail('expected the write to be refused');
}

describe('run records', () => {
    it('reads back what was stored, and undefined for what was not', async () => {
        const storage = newStorage();
        await storage.putRun(run('run-1'));
        assert.deepEqual(await storage.getRun('run-1'), run('run-1'));
        assert.equal(await storage.getRun('run-2'), undefined);
        assert.equal(await storage.getPersistState('run-1'), undefined);
        assert.deepEqual(await storage.listEvents('run-1'), []);
        assert.deepEqual(await storage.listFiles('run-1'), []);
        assert.deepEqual(await storage.listCheckpoints('run-1'), []);
    });

    it('stores copies: changing an object after putting it, or one read back, changes nothing stored', async () => {
        const storage = newStorage();
        const record = run('run-1');
        await storage.putRun(record);
        record.state = 'failed';
        const read = (await storage.getRun('run-1'))!;
        assert.equal(read.state, 'running');
        read.state = 'completed';
        assert.equal((await storage.getRun('run-1'))!.state, 'running');

        const payload = { nested: { list: [1, 2] } };
        const first = event('run-1', 0, payload);
        const draft = file('run-1', 'output/main.md', 'draft');
        await storage.appendEvent(first, { files: [draft], checkpoints: [checkpoint('run-1', 0)] });
        payload.nested.list.push(3);
        draft.content = 'changed';
        assert.deepEqual((await storage.listEvents('run-1'))[0]!.payload, { nested: { list: [1, 2] } });
        assert.equal((await storage.listFiles('run-1'))[0]!.content, 'draft');
        const listed = await storage.listEvents('run-1');
        (listed[0]!.payload as unknown as typeof payload).nested.list.length = 0; // an envelope of anyEnvelope's, not a real event
        assert.deepEqual((await storage.listEvents('run-1'))[0]!.payload, { nested: { list: [1, 2] } });

        const state = persist('run-1');
        await storage.putPersistState(state);
        state.files['persist/notes.md'] = 'Tim';
        assert.deepEqual((await storage.getPersistState('run-1'))!.files, { 'persist/notes.md': 'Tom' });
    });

    it('refuses a value structured cloning cannot copy', async () => {
        const storage = newStorage();
        const bad = { ...run('run-1'), error: { code: 'x', message: 'y', toString: () => 'a function' } };
        assert.equal((await rejection(storage.putRun(bad))).name, 'DataCloneError');
        assert.equal(await storage.getRun('run-1'), undefined);
    });

    it('lists the runs of one chat, and all runs, in run-id order; put replaces a run', async () => {
        const storage = newStorage();
        for (const [id, chat] of [['run-c', 'chat-1'], ['run-a', 'chat-2'], ['run-b', 'chat-1'], ['run-10', 'chat-1']] as const) {
            await storage.putRun(run(id, chat));
        }
        await storage.putRun({ ...run('run-c', 'chat-1'), state: 'completed' });
        assert.deepEqual((await storage.listRuns('chat-1')).map((r) => r.runId), ['run-10', 'run-b', 'run-c']);
        assert.deepEqual((await storage.listRuns('chat-2')).map((r) => r.runId), ['run-a']);
        assert.deepEqual(await storage.listRuns('chat-3'), []);
        assert.deepEqual((await storage.listAllRuns()).map((r) => [r.runId, r.state]), [
            ['run-10', 'running'],
            ['run-a', 'running'],
            ['run-b', 'running'],
            ['run-c', 'completed'],
        ]);
    });
});

describe('the journal', () => {
    it('lists a run\'s events by seq, whatever order they were written in, from a seq on', async () => {
        const storage = newStorage();
        for (const seq of [2, 0, 3, 1]) await storage.appendEvent(event('run-1', seq));
        await storage.appendEvent(event('run-10', 0));
        await storage.appendEvent(event('run-', 5));
        assert.deepEqual((await storage.listEvents('run-1')).map((e) => e.seq), [0, 1, 2, 3]);
        assert.deepEqual((await storage.listEvents('run-1', 2)).map((e) => e.seq), [2, 3]);
        assert.deepEqual((await storage.listEvents('run-1', 9)).map((e) => e.seq), []);
        assert.deepEqual((await storage.listEvents('run-10')).map((e) => [e.runId, e.seq]), [['run-10', 0]]);
        assert.deepEqual((await storage.listEvents('run-1')).map((e) => e.type), ['step-0', 'step-1', 'step-2', 'step-3']);
    });

    it('refuses an event whose seq is taken, and stores none of its attachments', async () => {
        const storage = newStorage();
        await storage.appendEvent(event('run-1', 0), { files: [file('run-1', 'output/main.md', 'first')] });
        const error = await rejection(
            storage.appendEvent(event('run-1', 0, { again: true }), {
                files: [file('run-1', 'output/main.md', 'second'), file('run-1', 'scratch/new.md')],
                checkpoints: [checkpoint('run-1', 0)],
            }),
        );
        assert.equal(error.name, 'ConstraintError');
        assert.deepEqual((await storage.listEvents('run-1')).map((e) => e.payload), [{ n: 0 }]);
        assert.deepEqual((await storage.listFiles('run-1')).map((f) => [f.path, f.content]), [['output/main.md', 'first']]);
        assert.deepEqual(await storage.listCheckpoints('run-1'), []);
    });

    it('stores an event with its files and checkpoints together', async () => {
        const storage = newStorage();
        await storage.appendEvent(event('run-1', 0), {
            files: [file('run-1', 'output/main.md'), file('run-1', 'persist/notes.md')],
            checkpoints: [checkpoint('run-1', 0), checkpoint('run-1', 1, 'persist/notes.md')],
        });
        assert.equal((await storage.listEvents('run-1')).length, 1);
        assert.deepEqual((await storage.listFiles('run-1')).map((f) => f.path), ['output/main.md', 'persist/notes.md']);
        assert.deepEqual((await storage.listCheckpoints('run-1')).map((c) => [c.seq, c.path]), [[0, 'output/main.md'], [1, 'persist/notes.md']]);
    });
});

describe('files and checkpoints', () => {
    it('lists files by path; put replaces the file at a path', async () => {
        const storage = newStorage();
        for (const path of ['scratch/b.md', 'output/main.md', 'persist/a.md', 'output/Main.md']) await storage.putFile(file('run-1', path));
        await storage.putFile(file('run-1', 'scratch/b.md', 'replaced'));
        await storage.putFile(file('run-10', 'output/main.md'));
        const files = await storage.listFiles('run-1');
        assert.deepEqual(files.map((f) => f.path), ['output/Main.md', 'output/main.md', 'persist/a.md', 'scratch/b.md']);
        assert.equal(files.find((f) => f.path === 'scratch/b.md')!.content, 'replaced');
    });

    it('lists checkpoints by seq, all or of one path; put replaces the checkpoint at a seq', async () => {
        const storage = newStorage();
        for (const seq of [4, 1, 3]) await storeCheckpoint(storage, checkpoint('run-1', seq));
        await storeCheckpoint(storage, checkpoint('run-1', 2, 'persist/notes.md'));
        await storeCheckpoint(storage, { ...checkpoint('run-1', 3), full: 'v3 again' });
        await storeCheckpoint(storage, checkpoint('run-10', 0));
        assert.deepEqual((await storage.listCheckpoints('run-1')).map((c) => [c.seq, c.full]), [[1, 'v1'], [2, 'v2'], [3, 'v3 again'], [4, 'v4']]);
        assert.deepEqual((await storage.listCheckpoints('run-1', 'output/main.md')).map((c) => c.seq), [1, 3, 4]);
        assert.deepEqual((await storage.listCheckpoints('run-1', 'scratch/none.md')), []);
    });
});

describe('whole runs', () => {
    it('deleteRun removes the run and everything stored with it, and nothing of other runs', async () => {
        const storage = newStorage();
        for (const id of ['run-1', 'run-10']) {
            await storage.putRun(run(id));
            await storage.appendEvent(event(id, 0), { files: [file(id, 'output/main.md')], checkpoints: [checkpoint(id, 0)] });
            await storage.appendEvent(event(id, 1));
            await storage.putFile(file(id, 'scratch/x.md'));
            await storage.putPersistState(persist(id));
        }
        await storage.deleteRun('run-1');
        assert.equal(await storage.getRun('run-1'), undefined);
        assert.deepEqual(await storage.listEvents('run-1'), []);
        assert.deepEqual(await storage.listFiles('run-1'), []);
        assert.deepEqual(await storage.listCheckpoints('run-1'), []);
        assert.equal(await storage.getPersistState('run-1'), undefined);
        assert.deepEqual((await storage.listAllRuns()).map((r) => r.runId), ['run-10']);
        assert.equal((await storage.listEvents('run-10')).length, 2);
        assert.equal((await storage.listFiles('run-10')).length, 2);
        assert.equal((await storage.listCheckpoints('run-10')).length, 1);
        assert.ok(await storage.getPersistState('run-10'));
        await storage.deleteRun('run-never');
    });

    it('putWholeRun stores a run with its events, files and checkpoints, listed in key order', async () => {
        const storage = newStorage();
        await storage.putWholeRun(
            run('run-x'),
            [event('run-x', 1), event('run-x', 0)],
            [file('run-x', 'scratch/z.md'), file('run-x', 'output/main.md')],
            [checkpoint('run-x', 1), checkpoint('run-x', 0)],
        );
        assert.deepEqual(await storage.getRun('run-x'), run('run-x'));
        assert.deepEqual((await storage.listEvents('run-x')).map((e) => e.seq), [0, 1]);
        assert.deepEqual((await storage.listFiles('run-x')).map((f) => f.path), ['output/main.md', 'scratch/z.md']);
        assert.deepEqual((await storage.listCheckpoints('run-x')).map((c) => c.seq), [0, 1]);
    });
});

// A record that fails as it is written (it cannot be cloned) must abort the whole write: IndexedDB throws
// while the write is queued, and idb-run-storage.ts aborts the transaction then.
describe('writes of several records are all or nothing', () => {
    it('appendEvent whose attachment cannot be stored stores nothing', async () => {
        const storage = newStorage();
        const bad = { ...file('run-1', 'output/main.md'), content: (() => 'x') as unknown as string };
        const error = await rejection(storage.appendEvent(event('run-1', 0), { files: [bad] }));
        assert.equal(error.name, 'DataCloneError');
        assert.deepEqual(await storage.listEvents('run-1'), []);
        assert.deepEqual(await storage.listFiles('run-1'), []);
    });

    it('putWholeRun with a record that cannot be stored stores nothing', async () => {
        const storage = newStorage();
        const bad = event('run-x', 1, () => 'x');
        const error = await rejection(storage.putWholeRun(run('run-x'), [event('run-x', 0), bad], [file('run-x', 'output/main.md')], []));
        assert.equal(error.name, 'DataCloneError');
        assert.equal(await storage.getRun('run-x'), undefined);
        assert.deepEqual(await storage.listEvents('run-x'), []);
        assert.deepEqual(await storage.listFiles('run-x'), []);
    });
});
