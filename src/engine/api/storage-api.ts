import { isZodJitless } from '../../contract/zod-setup';
import { describeError, fail, ok } from '../../contract/result';
import { PruneRequestSchema, RetentionPolicySchema } from '../../contract/storage';
import { ENGINE_VERSION } from '../../contract/version';
import { HealthReportSchema, type HealthReport, type StorageApi } from '../../contract/wire';
import type { IDBPDatabase } from 'idb';
import { openTavernAgentDb, type TavernAgentDb } from '../../store/db';
import { createIdbRunStorage } from '../../store/idb-run-storage';
import { createIdbSkillCache } from '../../store/skill-cache';
import { countRunsByChat, pruneRuns } from '../archive/retention';
import { createLiveChannel } from '../tabs/live-channel';
import { liveRunIds } from '../tabs/run-locks';
import { NOT_OPEN, withStorage, type EngineState } from './engine-state';

/** A module worker cannot call importScripts; a classic worker can. */
function runsInModuleWorker(): boolean {
    const scope = globalThis as { importScripts?: (...urls: string[]) => void };
    if (typeof scope.importScripts !== 'function') return false;
    try {
        scope.importScripts();
        return false;
    } catch {
        return true;
    }
}

function databaseInfo(handle: IDBPDatabase<TavernAgentDb>): HealthReport['database'] {
    return { name: handle.name, version: handle.version, stores: [...handle.objectStoreNames].sort() };
}

/** The storage facet: open the user's database (and sweep cut-off runs), report health, keep storage bounded. */
export function createStorageApi(state: EngineState, sweep: () => Promise<void>): StorageApi {
    return {
        async open(userHandle) {
            try {
                if (state.db && state.openedFor === userHandle) return ok(databaseInfo(state.db));
                state.db?.close();
                const db = await openTavernAgentDb(userHandle);
                Object.assign(state, { db, storage: createIdbRunStorage(db), skillCache: createIdbSkillCache(db), openedFor: userHandle });
                state.live?.close();
                state.live = createLiveChannel(userHandle);
                // A tab never marks another tab's live run (its lock is held, or its lease fresh).
                // Never a reason not to open: history and delete must stay reachable when storage is full.
                await sweep().catch(() => undefined);
                db.addEventListener('versionchange', () => {
                    db.close();
                    if (state.db === db) Object.assign(state, { db: null, storage: null, skillCache: null, openedFor: null });
                });
                return ok(databaseInfo(db));
            } catch (error) {
                return fail('store.open_failed', 'Tavern Agent could not open its browser storage.', describeError(error));
            }
        },
        async health() {
            if (!state.db) return fail('store.not_open', NOT_OPEN);
            return ok(HealthReportSchema.parse({ ok: true, engineVersion: ENGINE_VERSION, isModuleWorker: runsInModuleWorker(), zodJitless: isZodJitless(), database: databaseInfo(state.db) }));
        },
        storageOverview: () => withStorage(state, async (s) => ok({ chats: await countRunsByChat(s) })),
        async setRetention(raw) {
            const parsed = RetentionPolicySchema.safeParse(raw);
            if (!parsed.success) return fail('store.invalid_retention', 'These retention settings are not valid.', parsed.error.message);
            state.retention = parsed.data;
            return ok(state.retention);
        },
        pruneRuns: (raw) =>
            withStorage(state, async (s) => {
                const parsed = PruneRequestSchema.safeParse(raw);
                if (!parsed.success) return fail('store.invalid_retention', 'This prune request is not valid.', parsed.error.message);
                const alive = await liveRunIds();
                return ok(await pruneRuns(s, parsed.data, (runId) => state.running.has(runId) || alive.has(runId)));
            }),
    };
}
