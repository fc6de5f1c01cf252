import type { IDBPDatabase } from 'idb';
import type { TavernAgentDb } from './db';
import type { RunStorage } from './run-storage';

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
            const writes: Array<Promise<unknown>> = [tx.objectStore('events').add(event)];
            for (const file of files) writes.push(tx.objectStore('files').put(file));
            for (const checkpoint of checkpoints) writes.push(tx.objectStore('checkpoints').put(checkpoint));
            await Promise.all([...writes, tx.done]);
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
            const writes: Array<Promise<unknown>> = [tx.objectStore('runs').put(run)];
            for (const event of events) writes.push(tx.objectStore('events').put(event));
            for (const file of files) writes.push(tx.objectStore('files').put(file));
            for (const checkpoint of checkpoints) writes.push(tx.objectStore('checkpoints').put(checkpoint));
            await Promise.all([...writes, tx.done]);
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
