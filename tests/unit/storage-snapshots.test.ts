// Frozen inputs stored once per content hash (store/content-chunks.ts) on IndexedDB (fake-indexeddb):
// callers read whole files, runs share chunks, deleting a run keeps the others whole, and a v2 database
// (files stored whole) upgrades and still reads.
// Run: node --import tsx --test tests/unit/storage-snapshots.test.ts
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openDB } from 'idb';
import { databaseNameFor, openTavernAgentDb } from '../../src/store/db';
import { createIdbRunStorage } from '../../src/store/idb-run-storage';
import { splitIntoChunks } from '../../src/store/content-chunks';
import type { WorkspaceFile } from '../../src/contract/records';

let databases = 0;
async function fresh() {
    databases += 1;
    const db = await openTavernAgentDb(`snapshots-${process.pid}-${databases}`);
    return { db, storage: createIdbRunStorage(db) };
}

/** A chat snapshot as prepare-run writes it: JSON, one field per line. */
function chatJson(messages: number, edit = -1): string {
    const prefix = Array.from({ length: messages }, (_, index) => ({
        index,
        role: index % 2 ? 'user' : 'assistant',
        name: index % 2 ? 'Tester' : 'Seraphina',
        text: `${index === edit ? 'EDITED ' : ''}Message ${index}: ${'the forest is quiet tonight '.repeat(8)}`,
        hidden: false,
        agentRunId: null,
    }));
    return JSON.stringify({ chat: { chatId: 'Seraphina - 1', integrity: 'chat-1' }, prefix }, null, 1);
}

const file = (runId: string, path: string, content: string): WorkspaceFile => ({ v: 1, runId, path, content, version: 0, updatedAt: 1 });

describe('snapshots once per content hash', () => {
    it('splits text into chunks that join back exactly, and a grown chat keeps its earlier chunks', () => {
        const small = chatJson(300);
        const grown = chatJson(302);
        assert.equal(splitIntoChunks(small).join(''), small);
        assert.equal(splitIntoChunks(grown).join(''), grown);
        const before = new Set(splitIntoChunks(small));
        const shared = splitIntoChunks(grown).filter((chunk) => before.has(chunk)).length;
        assert.ok(shared >= splitIntoChunks(small).length - 2, `most chunks are shared (${shared})`);
        const long = 'x'.repeat(200_000);
        assert.equal(splitIntoChunks(long).join(''), long);
    });

    it('reads chunked files whole, stores shared chunks once, and deletes a chunk with its last run', async () => {
        const { db, storage } = await fresh();
        const chat = chatJson(500);
        await storage.putFile(file('run-a', 'input/chat.json', chat));
        const chunksAfterOne = await db.count('chunks');
        assert.ok(chunksAfterOne > 3);
        assert.equal((await storage.getFile('run-a', 'input/chat.json'))?.content, chat);

        const grown = chatJson(502, 10);
        await storage.putFile(file('run-b', 'input/chat.json', grown));
        const added = (await db.count('chunks')) - chunksAfterOne;
        assert.ok(added <= 4, `a grown chat with one edit adds a few chunks, not a copy (${added})`);
        assert.equal((await storage.listFiles('run-b')).find((f) => f.path === 'input/chat.json')?.content, grown);

        await storage.deleteRun('run-a');
        assert.equal((await storage.getFile('run-b', 'input/chat.json'))?.content, grown, 'the other run is whole');
        await storage.dropRunData('run-b');
        assert.equal(await db.count('chunks'), 0);
        assert.equal(await db.count('chunkRefs'), 0);
    });

    it('a small input file and any other file are stored whole', async () => {
        const { db, storage } = await fresh();
        await storage.putFile(file('run-a', 'input/worldinfo.json', '{"entries": []}'));
        await storage.putFile(file('run-a', 'output/main.md', chatJson(400)));
        assert.equal(await db.count('chunks'), 0);
        assert.equal((await storage.getFile('run-a', 'output/main.md'))?.content, chatJson(400));
    });

    it('imports chunk their inputs too, and export reads them whole', async () => {
        const { db, storage } = await fresh();
        const chat = chatJson(400);
        await storage.putWholeRun(
            { v: 1, runId: 'imp', chatKey: 'imported', chatId: 'x', profileId: 'writer', generationType: 'normal', state: 'completed', messageId: null, error: null, createdAt: 1, updatedAt: 1 },
            [],
            [file('imp', 'input/chat.json', chat)],
            [],
        );
        assert.ok((await db.count('chunks')) > 0);
        assert.equal((await storage.listFiles('imp'))[0]?.content, chat);
    });

    it('a version 2 database upgrades, and its runs read as before', async () => {
        const name = databaseNameFor(`old-${process.pid}`);
        const old = await openDB(name, 2, {
            upgrade(db) {
                db.createObjectStore('runs', { keyPath: 'runId' }).createIndex('byChat', 'chatKey');
                db.createObjectStore('events', { keyPath: ['runId', 'seq'] });
                db.createObjectStore('files', { keyPath: ['runId', 'path'] });
                db.createObjectStore('checkpoints', { keyPath: ['runId', 'seq'] }).createIndex('byPath', ['runId', 'path']);
                db.createObjectStore('persistStates', { keyPath: 'runId' });
                db.createObjectStore('skillBundles', { keyPath: 'hash' });
            },
        });
        await old.put('files', file('old-run', 'input/chat.json', chatJson(300)));
        old.close();
        const db = await openTavernAgentDb(`old-${process.pid}`);
        assert.ok(db.objectStoreNames.contains('chunks'));
        assert.equal((await createIdbRunStorage(db).getFile('old-run', 'input/chat.json'))?.content, chatJson(300));
    });
});
