import { openDB, unwrap, type DBSchema, type IDBPDatabase } from 'idb';
import type { CheckpointRecord, PersistState, RunRecord, WorkspaceFile } from '../contract/records';
import type { StoredEventRecord } from '../contract/events';
import type { SkillBundle } from '../contract/skills';
import type { LoreClaim } from '../contract/lore';

export const DATABASE_VERSION = 6;

export interface TavernAgentDb extends DBSchema {
    runs: { key: string; value: RunRecord; indexes: { byChat: string } };
    /**
     * The append-only journal; key [runId, seq] keeps a run's events contiguous and ordered. From version 4
     * a record is one journal write (event-groups.ts), keyed by its first event; before, one event.
     */
    events: { key: [string, number]; value: StoredEventRecord; indexes: { byFile: [string, string] } };
    files: { key: [string, string]; value: WorkspaceFile };
    checkpoints: { key: [string, number]; value: CheckpointRecord; indexes: { byPath: [string, string] } };
    /** persist/ as a successful run left it, keyed by run id; the chat's memory follows its messages. */
    persistStates: { key: string; value: PersistState };
    /** Skill bundles by content hash: a local cache of the user's skills, which live on the server. */
    skillBundles: { key: string; value: SkillBundle };
    /** Chunks of large frozen inputs (content-chunks.ts), once per content hash, shared by every run that holds them. */
    chunks: { key: string; value: { hash: string; text: string } };
    /** Which chunks make up a chunked file (its record in `files` then has empty content). */
    chunkRefs: { key: [string, string]; value: ChunkRef };
    /** A tab's claim on a lore proposal while it writes it (issue 39 §7), by [runId, proposalId]; gone once decided. */
    loreClaims: { key: [string, string]; value: LoreClaim };
}

export interface ChunkRef {
    runId: string;
    path: string;
    hashes: string[];
}

/**
 * All SillyTavern users of one server share the browser origin, so each user gets a database of their own.
 * The handle is encoded so that no handle can name another user's database.
 */
export function databaseNameFor(userHandle: string): string {
    return `tavern-agent:${encodeURIComponent(userHandle)}`;
}

export async function openTavernAgentDb(userHandle: string): Promise<IDBPDatabase<TavernAgentDb>> {
    return openDB<TavernAgentDb>(databaseNameFor(userHandle), DATABASE_VERSION, {
        upgrade(db, oldVersion, _newVersion, transaction) {
            // One step per released version; never edit a step once it has shipped.
            if (oldVersion < 1) {
                const runs = db.createObjectStore('runs', { keyPath: 'runId' });
                runs.createIndex('byChat', 'chatKey');
                db.createObjectStore('events', { keyPath: ['runId', 'seq'] });
                db.createObjectStore('files', { keyPath: ['runId', 'path'] });
                const checkpoints = db.createObjectStore('checkpoints', { keyPath: ['runId', 'seq'] });
                checkpoints.createIndex('byPath', ['runId', 'path']);
                db.createObjectStore('persistStates', { keyPath: 'runId' });
            }
            if (oldVersion < 2) {
                db.createObjectStore('skillBundles', { keyPath: 'hash' });
            }
            // v3: snapshots stored once per content hash. Runs stored before keep their whole files and
            // read as they always did (a file without a chunk ref is whole).
            if (oldVersion < 3) {
                db.createObjectStore('chunks', { keyPath: 'hash' });
                db.createObjectStore('chunkRefs', { keyPath: ['runId', 'path'] });
            }
            // v4: one record per journal write, with its small hidden files inline (event-groups.ts). The
            // version also keeps older code, which would read a group as one event, from opening the data.
            // Records stored before have neither field, so they are in neither index and read as before.
            if (oldVersion < 4 && db.objectStoreNames.contains('events')) {
                const events = transaction.objectStore('events');
                // Untyped: the schema above is the latest version's, which no longer has this index.
                unwrap(events).createIndex('bySeq', 'seqs', { unique: true, multiEntry: true });
                events.createIndex('byFile', 'fileKeys', { multiEntry: true });
            }
            // v5: without bySeq. Its unique entries, one per event, made a round's write a fifth dearer (bench
            // 3); the key of a group's first event guards the journal as well (event-groups.ts says why).
            if (oldVersion < 5 && db.objectStoreNames.contains('events')) {
                const events = unwrap(transaction.objectStore('events'));
                if (events.indexNames.contains('bySeq')) events.deleteIndex('bySeq');
            }
            // v6: claims on lore proposals, so two tabs cannot both accept one (issue 39 §7).
            if (oldVersion < 6) {
                db.createObjectStore('loreClaims', { keyPath: ['runId', 'proposalId'] });
            }
        },
        blocking() {
            // A newer tab wants to upgrade: step aside rather than hold it up forever.
            // (The next call reopens with the new version.)
        },
    });
}
