import type { IDBPDatabase } from 'idb';
import type { TavernAgentDb } from './db';
import type { RunStorage } from './run-storage';

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

export function createIdbRunStorage(db: IDBPDatabase<TavernAgentDb>): RunStorage {
    return {
        async putRun(run) { await db.put('runs', run); },
        getRun: (runId) => db.get('runs', runId),
        listRuns: (chatKey) => db.getAllFromIndex('runs', 'byChat', chatKey),
        listAllRuns: () => db.getAll('runs'),
        async appendEvent(event, attachments) {
            const files = attachments?.files ?? [];
            const checkpoints = attachments?.checkpoints ?? [];
            if (files.length === 0 && checkpoints.length === 0) {
                await db.add('events', event);
                return;
            }
            const tx = db.transaction(['events', 'files', 'checkpoints'], 'readwrite');
            await allOrNothing(tx, (write) => {
                write(tx.objectStore('events').add(event));
                for (const file of files) write(tx.objectStore('files').put(file));
                for (const checkpoint of checkpoints) write(tx.objectStore('checkpoints').put(checkpoint));
            });
        },
        listEvents: (runId, fromSeq = 0) => db.getAll('events', IDBKeyRange.bound([runId, fromSeq], [runId, Number.MAX_SAFE_INTEGER])),
        async putFile(file) { await db.put('files', file); },
        listFiles: (runId) => db.getAll('files', IDBKeyRange.bound([runId, ''], [runId, '\uffff'])),
        getFile: (runId, path) => db.get('files', [runId, path]),
        async listCheckpoints(runId, path) {
            if (path === undefined) return db.getAll('checkpoints', IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER]));
            return db.getAllFromIndex('checkpoints', 'byPath', [runId, path]);
        },
        async putPersistState(state) { await db.put('persistStates', state); },
        getPersistState: (runId) => db.get('persistStates', runId),
        async putWholeRun(run, events, files, checkpoints) {
            const tx = db.transaction(['runs', 'events', 'files', 'checkpoints'], 'readwrite');
            await allOrNothing(tx, (write) => {
                write(tx.objectStore('runs').put(run));
                for (const event of events) write(tx.objectStore('events').put(event));
                for (const file of files) write(tx.objectStore('files').put(file));
                for (const checkpoint of checkpoints) write(tx.objectStore('checkpoints').put(checkpoint));
            });
        },
        async dropRunData(runId) {
            const tx = db.transaction(['files', 'checkpoints'], 'readwrite');
            await Promise.all([
                tx.objectStore('files').delete(IDBKeyRange.bound([runId, ''], [runId, '\uffff'])),
                tx.objectStore('checkpoints').delete(IDBKeyRange.bound([runId, 0], [runId, Number.MAX_SAFE_INTEGER])),
                tx.done,
            ]);
        },
        async deleteRun(runId) {
            // One transaction: a run is deleted whole or not at all.
            const tx = db.transaction(['runs', 'events', 'files', 'checkpoints', 'persistStates'], 'readwrite');
            await Promise.all([
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
