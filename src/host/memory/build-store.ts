import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { MemoryBuildJobSchema, type MemoryBuildJob } from '../../contract/memory-build';
import { currentUserHandle } from '../sillytavern/st-context';

interface BuildDb extends DBSchema {
    /** One job per chat, keyed by the chat's integrity (`job.chat.integrity`). */
    jobs: { key: string; value: unknown };
}

/**
 * Memory builds (issue 37 §3) in this browser's IndexedDB, in a database of their own beside the engine's: the
 * page reads and writes a job after every chunk without waking the worker's schema (whose upgrade path stays as
 * it is), and a job's memory so far (up to the 256 KB a seed may hold) never rewrites the chat file per chunk.
 * The result reaches the chat once, as its memory seed. One database per SillyTavern user, as the engine's.
 */
const BUILD_DB_VERSION = 1;

let opened: Promise<IDBPDatabase<BuildDb>> | null = null;

function db(): Promise<IDBPDatabase<BuildDb>> {
    opened ??= currentUserHandle().then((user) =>
        openDB<BuildDb>(`tavern-agent-memory-builds:${encodeURIComponent(user)}`, BUILD_DB_VERSION, {
            upgrade(database, oldVersion) {
                // One step per released version; never edit a step once it has shipped.
                if (oldVersion < 1) database.createObjectStore('jobs');
            },
        }),
    );
    return opened;
}

/** The chat's job, or null (none, or a stored one that no longer parses: then it is as if none). */
export async function readBuildJob(chatKey: string): Promise<MemoryBuildJob | null> {
    const parsed = MemoryBuildJobSchema.safeParse(await (await db()).get('jobs', chatKey));
    return parsed.success ? parsed.data : null;
}

export async function writeBuildJob(job: MemoryBuildJob): Promise<void> {
    await (await db()).put('jobs', job, job.chat.integrity);
}
