import type { IDBPDatabase } from 'idb';
import { isZodJitless } from '../contract/zod-setup';
import { fail, ok, describeError, type Result } from '../contract/result';
import { ENGINE_VERSION } from '../contract/version';
import { newId } from '../contract/new-id';
import { HealthReportSchema, type EngineApi, type HealthReport, type HostBridge } from '../contract/wire';
import type { RunOutcome, RunRequest } from '../contract/run-input';
import { openTavernAgentDb, type TavernAgentDb } from '../store/db';
import { createIdbRunStorage } from '../store/idb-run-storage';
import type { RunStorage } from '../store/run-storage';
import { RunRequestSchema } from '../contract/run-input';
import type { Profile } from '../contract/profile';
import { releaseProxy, type Remote } from 'comlink';
import { ALL_TOOLS } from '../tools/registry';
import { createEventPump } from './event-pump';
import { runAgent } from './run';
import { liveRunIds, markInterruptedRuns, withRunLock } from './interrupted';
import { checkpointDiff, exportRun, importRun, listCheckpoints, listRunFiles, readRunFile, restoreCheckpoint } from './run-archive';
import { exportProfiles, importProfiles, parseProfile } from '../contract/profile-migrations';
import { listProfiles, resolveProfile } from './profiles';
import { createIdbSkillCache, type SkillCache } from '../store/skill-cache';
import { createSkillApi, skillFileReader } from './skills-api';
import { countRunsByChat, pruneRuns } from './retention';
import { DEFAULT_RETENTION, PruneRequestSchema, RetentionPolicySchema, type RetentionPolicy } from '../contract/storage';

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
    let storage: RunStorage | null = null;
    let openedFor: string | null = null;
    let skillCache: SkillCache | null = null;
    const running = new Map<string, AbortController>();
    /** The user's retention settings (the page sends them when it starts the engine and when they change). */
    let retention: RetentionPolicy = DEFAULT_RETENTION;
    /** Profiles resolved by prepareRun (the run's own, and every valid one for delegation), waiting for their run. */
    const preparedRuns = new Map<string, { profile: Profile; profiles: Profile[] }>();

    /** Runs a storage action, turning a missing database or a storage error into data. */
    async function withStorage<T>(action: (storage: RunStorage) => Promise<Result<T>>): Promise<Result<T>> {
        if (!storage) return fail('store.not_open', 'The engine has not opened its storage yet.');
        try {
            return await action(storage);
        } catch (error) {
            return fail('store.read_failed', 'Tavern Agent could not use its browser storage.', describeError(error));
        }
    }

    function databaseInfo(handle: IDBPDatabase<TavernAgentDb>): HealthReport['database'] {
        return { name: handle.name, version: handle.version, stores: [...handle.objectStoreNames].sort() };
    }

    async function startPreparedRun(rawRequest: RunRequest, host: HostBridge): Promise<Result<RunOutcome>> {
        const store = storage;
        if (!store) return fail('store.not_open', 'The engine has not opened its storage yet.');
        const parsed = RunRequestSchema.safeParse(rawRequest);
        if (!parsed.success) return fail('run.invalid_input', 'The run could not start: its input snapshot is invalid.', parsed.error.message);
        const prepared = preparedRuns.get(parsed.data.runId);
        preparedRuns.delete(parsed.data.runId);
        if (!prepared) return fail('run.not_prepared', 'The run could not start: its profile was not prepared (prepareRun).');
        const input = { ...parsed.data, profile: prepared.profile };
        if (running.has(input.runId)) return fail('run.already_running', `Run ${input.runId} is already running.`);
        const controller = new AbortController();
        running.set(input.runId, controller);
        try {
            const outcome = await withRunLock(input.runId, () =>
                runAgent(input, {
                    storage: store,
                    host,
                    tools: ALL_TOOLS,
                    sink: createEventPump((events) => void host.onEvents(events)),
                    signal: controller.signal,
                    profiles: prepared.profiles,
                    ...(skillCache ? { skillFiles: skillFileReader(skillCache) } : {}),
                }),
            );
            return ok(outcome);
        } finally {
            running.delete(input.runId);
            // Storage stays bounded: after each run, its chat keeps only what the retention settings say
            // (in the background: the run's outcome does not wait for it).
            void pruneRuns(store, { action: 'retention', chatKeys: [input.chat.integrity], policy: retention }, (runId) => running.has(runId)).catch(() => undefined);
        }
    }

    return {
        ...createSkillApi(() => skillCache),
        async open(userHandle) {
            try {
                if (db && openedFor === userHandle) return ok(databaseInfo(db));
                db?.close();
                db = await openTavernAgentDb(userHandle);
                storage = createIdbRunStorage(db);
                skillCache = createIdbSkillCache(db);
                openedFor = userHandle;
                const alive = await liveRunIds();
                // Never a reason not to open: history and delete must stay reachable when storage is full.
                await markInterruptedRuns(storage, (runId) => alive.has(runId) || running.has(runId)).catch(() => 0);
                db.addEventListener('versionchange', () => {
                    db?.close();
                    db = null;
                    storage = null;
                    skillCache = null;
                    openedFor = null;
                });
                return ok(databaseInfo(db));
            } catch (error) {
                return fail('store.open_failed', 'Tavern Agent could not open its browser storage.', describeError(error));
            }
        },
        async prepareRun(runId, profileId, stored) {
            const resolved = resolveProfile(profileId, stored);
            if (resolved.ok) {
                const profiles = listProfiles(stored).flatMap((listing) => (listing.profile ? [listing.profile] : []));
                preparedRuns.set(runId, { profile: resolved.value, profiles });
            }
            return resolved;
        },
        async startRun(rawRequest, host) {
            try {
                return await startPreparedRun(rawRequest, host);
            } finally {
                // The bridge is a comlink proxy made for this run: release it, or the page keeps it forever.
                (host as Partial<Remote<HostBridge>>)[releaseProxy]?.();
            }
        },
        async cancelRun(runId, reason) {
            running.get(runId)?.abort(reason);
        },
        async listRuns(chatKey) {
            if (!storage) return fail('store.not_open', 'The engine has not opened its storage yet.');
            try {
                return ok((await storage.listRuns(chatKey)).sort((a, b) => a.createdAt - b.createdAt));
            } catch (error) {
                return fail('store.read_failed', 'Tavern Agent could not read its run history.', describeError(error));
            }
        },
        async readEvents(runId, fromSeq) {
            if (!storage) return fail('store.not_open', 'The engine has not opened its storage yet.');
            try {
                return ok(await storage.listEvents(runId, fromSeq));
            } catch (error) {
                return fail('store.read_failed', 'Tavern Agent could not read the run journal.', describeError(error));
            }
        },
        listProfiles: async (stored) => listProfiles(stored),
        resolveProfile: async (id, stored) => resolveProfile(id, stored),
        validateProfile: async (raw) => parseProfile(raw),
        importProfiles: async (text) => importProfiles(text),
        async exportProfiles(raw) {
            const profiles = raw.map((item) => parseProfile(item)).flatMap((parsed) => (parsed.ok ? [parsed.profile] : []));
            return exportProfiles(profiles);
        },
        listTools: async () => ALL_TOOLS.map((tool) => ({ name: tool.name, alias: tool.alias, description: tool.description, readOnly: tool.readOnly })),
        getRun: (runId) =>
            withStorage(async (s) => {
                const run = await s.getRun(runId);
                return run ? ok(run) : fail('run.not_found', 'This run no longer exists.');
            }),
        listRunFiles: (runId) => withStorage((s) => listRunFiles(s, runId).then(ok)),
        readRunFile: (runId, path) => withStorage((s) => readRunFile(s, runId, path)),
        listCheckpoints: (runId) => withStorage((s) => listCheckpoints(s, runId).then(ok)),
        checkpointDiff: (runId, seq) => withStorage((s) => checkpointDiff(s, runId, seq)),
        restoreCheckpoint: (runId, seq) => withStorage((s) => restoreCheckpoint(s, runId, seq, running.has(runId))),
        exportRun: (runId) => withStorage((s) => exportRun(s, runId)),
        importRun: (text) => withStorage((s) => importRun(s, text, `imported-${newId()}`)),
        storageOverview: () => withStorage(async (s) => ok({ chats: await countRunsByChat(s) })),
        async setRetention(raw) {
            const parsed = RetentionPolicySchema.safeParse(raw);
            if (!parsed.success) return fail('store.invalid_retention', 'These retention settings are not valid.', parsed.error.message);
            retention = parsed.data;
            return ok(retention);
        },
        pruneRuns: (raw) =>
            withStorage(async (s) => {
                const parsed = PruneRequestSchema.safeParse(raw);
                if (!parsed.success) return fail('store.invalid_retention', 'This prune request is not valid.', parsed.error.message);
                const alive = await liveRunIds();
                return ok(await pruneRuns(s, parsed.data, (runId) => running.has(runId) || alive.has(runId)));
            }),
        deleteRun: (runId) =>
            withStorage(async (s) => {
                if (running.has(runId)) return fail('run.running', 'Stop the run before deleting it.');
                await s.deleteRun(runId);
                return ok(null);
            }),
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
