import type { IDBPDatabase } from 'idb';
import { isZodJitless } from '../contract/zod-setup';
import { fail, ok, describeError, type Result } from '../contract/result';
import { ENGINE_VERSION } from '../contract/version';
import { HealthReportSchema, type EngineApi, type HealthReport } from '../contract/wire';
import { openTavernAgentDb, type TavernAgentDb } from '../store/db';

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

export function createEngine(): EngineApi {
    let db: IDBPDatabase<TavernAgentDb> | null = null;
    let openedFor: string | null = null;

    function databaseInfo(handle: IDBPDatabase<TavernAgentDb>): HealthReport['database'] {
        return { name: handle.name, version: handle.version, stores: [...handle.objectStoreNames].sort() };
    }

    return {
        async open(userHandle) {
            try {
                if (db && openedFor === userHandle) return ok(databaseInfo(db));
                db?.close();
                db = await openTavernAgentDb(userHandle);
                openedFor = userHandle;
                db.addEventListener('versionchange', () => {
                    db?.close();
                    db = null;
                    openedFor = null;
                });
                return ok(databaseInfo(db));
            } catch (error) {
                return fail('store.open_failed', 'Tavern Agent could not open its browser storage.', describeError(error));
            }
        },
        async health(): Promise<Result<HealthReport>> {
            if (!db) return fail('store.not_open', 'The engine has not opened its storage yet.');
            const report = HealthReportSchema.parse({
                ok: true,
                engineVersion: ENGINE_VERSION,
                isModuleWorker: runsInModuleWorker(),
                zodJitless: isZodJitless(),
                database: databaseInfo(db),
            });
            return ok(report);
        },
    };
}
