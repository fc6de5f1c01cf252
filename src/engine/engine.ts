import type { IDBPDatabase } from 'idb';
import { isZodJitless } from '../contract/zod-setup';
import { fail, ok, describeError, type Result } from '../contract/result';
import { ENGINE_VERSION } from '../contract/version';
import { newId } from '../contract/new-id';
import { HealthReportSchema, type EngineApi, type HealthReport, type HostBridge } from '../contract/wire';
import type { RunInput, RunOutcome, RunRequest } from '../contract/run-input';
import { openTavernAgentDb, type TavernAgentDb } from '../store/db';
import { createIdbRunStorage } from '../store/idb-run-storage';
import type { RunStorage } from '../store/run-storage';
import { runsOfChat } from './archive/chat-runs';
import { RunRequestSchema } from '../contract/run-input';
import type { Profile } from '../contract/profile';
import type { RunState } from '../contract/records';
import { releaseProxy, type Remote } from 'comlink';
import { ALL_TOOLS } from '../tools/registry';
import { createEventPump } from './journal/event-pump';
import { GuidanceQueue } from './agents/guidance-queue';
import { scriptedProfile } from './run/script-run';
import { extToolDefinitions } from '../tools/ext';
import { extToolCaller } from './agents/ext-tool-caller';
import { runAgent } from './run/run-lifecycle';
import type { RunDependencies } from './run/run-session';
import { isCutOff, leaseHeld, liveRunIds, markInterruptedRuns, withChatWriter, withRunLock } from './tabs/interrupted';
import { planResume, resumeAgent } from './run/resume';
import { createLiveChannel, type LiveChannel } from './tabs/live-channel';
import { checkpointDiff, exportRun, importRun, listCheckpoints, listRunFiles, readRunFile, restoreCheckpoint } from './archive/run-archive';
import { exportProfiles, importProfiles, parseProfile } from '../contract/profile-migrations';
import { listProfiles, resolveProfile } from './agents/profiles';
import { createIdbSkillCache, type SkillCache } from '../store/skill-cache';
import { createSkillApi, skillFileReader } from './api/skills-api';
import { recordLoreDecision } from './archive/lore-decisions';

const hasWebLocks = () => Boolean((globalThis.navigator as Navigator | undefined)?.locks);

const isEnded = (state: RunState) => state === 'completed' || state === 'failed' || state === 'cancelled' || state === 'interrupted';
import { countRunsByChat, pruneRuns } from './archive/retention';
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
    /** Each running run's guidance queue, for guideRun. */
    const guidance = new Map<string, GuidanceQueue>();
    /** Names this engine in run leases: a tab never takes its own live run for another's. */
    const engineId = `engine-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;
    let live: LiveChannel | null = null;
    /** Plans of resumes the page asked for, waiting for their resumeRun. */
    const preparedResumes = new Map<string, Awaited<ReturnType<typeof planResume>>>();
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
        const input = { ...parsed.data, profile: scriptedProfile(prepared.profile, parsed.data.script) };
        if (running.has(input.runId)) return fail('run.already_running', `Run ${input.runId} is already running.`);
        return asChatWriter(input.runId, input.chat.integrity, (signal, guidanceQueue) =>
            withRunDependencies(store, host, input, signal, guidanceQueue, prepared.profiles, (deps) => runAgent(input, deps)),
        );
    }

    /**
     * Events go to this tab's page, and to other tabs (read-only live view) over the live channel. `delivered`
     * waits until the page has taken every event sent so far: the events travel on the run's bridge, the
     * outcome on the engine's own port, and two ports keep no order between them. Without the wait the page
     * could hear the run end before its last events (seen: 100 ms before), and show them after it.
     */
    function liveSink(host: HostBridge, chatKey: string) {
        let taken: Promise<unknown> = Promise.resolve();
        const sink = createEventPump((events) => {
            taken = Promise.resolve(host.onEvents(events)).catch(() => undefined);
            live?.publish(chatKey, events);
        });
        const delivered = async () => {
            // The pump sends in a microtask after the last append: let it go first.
            await Promise.resolve();
            await taken;
        };
        return { sink, delivered };
    }

    /**
     * Runs a run (a new one or a resumed one) with what it works with here, and returns its outcome once the
     * page has taken all its events.
     */
    async function withRunDependencies(
        store: RunStorage,
        host: HostBridge,
        input: RunInput,
        signal: AbortSignal,
        guidanceQueue: GuidanceQueue,
        profiles: Profile[],
        run: (deps: RunDependencies) => Promise<RunOutcome>,
    ): Promise<RunOutcome> {
        const events = liveSink(host, input.chat.integrity);
        const outcome = await run({
            storage: store,
            host,
            tools: [...ALL_TOOLS, ...extToolDefinitions(input.extTools ?? [], extToolCaller(host, input))],
            sink: events.sink,
            signal,
            guidance: guidanceQueue,
            profiles,
            leaseOwner: engineId,
            ...(skillCache ? { skillFiles: skillFileReader(skillCache) } : {}),
        });
        await events.delivered();
        return outcome;
    }

    /** Whether a run of the chat other than `runId` is being worked on by some tab (lease or local). */
    async function othersAlive(chatKey: string, runId: string): Promise<boolean> {
        if (!storage) return false;
        const now = Date.now();
        return (await storage.listRuns(chatKey)).some((run) => run.runId !== runId && !isEnded(run.state) && (running.has(run.runId) || leaseHeld(run, now)));
    }

    /** Runs one run as its chat's only writer, holding the run's lock; refused when another run writes there. */
    async function asChatWriter(
        runId: string,
        chatKey: string,
        work: (signal: AbortSignal, guidanceQueue: GuidanceQueue) => Promise<RunOutcome>,
    ): Promise<Result<RunOutcome>> {
        if (running.has(runId)) return fail('run.already_running', `Run ${runId} is already running.`);
        const controller = new AbortController();
        running.set(runId, controller);
        const queue = new GuidanceQueue();
        guidance.set(runId, queue);
        try {
            return await withChatWriter(
                chatKey,
                () => othersAlive(chatKey, runId),
                async () => {
                    const outcome = await withRunLock(runId, () => work(controller.signal, queue));
                    live?.ended(chatKey, outcome);
                    return ok(outcome);
                },
                () => fail('run.chat_busy', 'An agent is already working on this chat (in this or another tab); wait for it to end.'),
            );
        } finally {
            running.delete(runId);
            guidance.delete(runId);
            // Storage stays bounded: after each run, its chat keeps only what the retention settings say
            // (in the background: the run's outcome does not wait for it).
            if (storage) void pruneRuns(storage, { action: 'retention', chatKeys: [chatKey], policy: retention }, (id) => running.has(id)).catch(() => undefined);
        }
    }

    /** Marks runs no tab is working on any more as interrupted (a reload, a closed tab, a dead worker). */
    async function sweepInterrupted(): Promise<void> {
        // One sweep at a time: two at once would both journal the same run's interruption.
        sweeping ??= (async () => {
            if (!storage) return;
            const alive = await liveRunIds();
            // Where Web Locks exist their locks are the truth: a lease left by a reloaded page is not.
            await markInterruptedRuns(storage, (runId) => alive.has(runId) || running.has(runId), Date.now, hasWebLocks());
        })().finally(() => (sweeping = null));
        return sweeping;
    }
    let sweeping: Promise<void> | null = null;

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
                live?.close();
                live = createLiveChannel(userHandle);
                // A tab never marks another tab's live run (its lock is held, or its lease fresh).
                // Never a reason not to open: history and delete must stay reachable when storage is full.
                await sweepInterrupted().catch(() => undefined);
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
        async guideRun(runId, text) {
            const queue = guidance.get(runId);
            if (!queue) return fail('run.not_found', 'The run is not working right now: guidance reaches only a running agent.');
            try {
                return await queue.add(text);
            } catch (error) {
                return fail('store.read_failed', 'Tavern Agent could not journal the guidance.', describeError(error));
            }
        },
        async prepareResume(runId, stored) {
            return withStorage(async (s) => {
                await sweepInterrupted();
                const plan = await planResume(s, runId);
                if (!plan.ok) return plan;
                const { input, record } = plan.value;
                // The run goes on with the profile it started with (frozen in its inputs).
                const profiles = listProfiles(stored).flatMap((listing) => (listing.profile ? [listing.profile] : []));
                preparedRuns.set(runId, { profile: input.profile, profiles });
                preparedResumes.set(runId, plan);
                return ok({
                    runId,
                    profile: input.profile,
                    chat: input.chat,
                    generationType: input.generationType,
                    prefix: input.prefix.map(({ index, text }) => ({ index, text })),
                    messageId: record.messageId,
                    ...(input.fix ? { fix: { messageIndex: input.fix.messageIndex } } : {}),
                });
            });
        },
        async resumeRun(runId, host) {
            try {
                const store = storage;
                if (!store) return fail('store.not_open', 'The engine has not opened its storage yet.');
                const plan = preparedResumes.get(runId);
                const prepared = preparedRuns.get(runId);
                preparedResumes.delete(runId);
                preparedRuns.delete(runId);
                if (!plan || !prepared) return fail('run.not_prepared', 'The run could not resume: it was not prepared (prepareResume).');
                if (!plan.ok) return plan;
                return await asChatWriter(runId, plan.value.input.chat.integrity, async (signal, guidanceQueue) => {
                    // Read again under the chat's lock: another tab may have resumed it meanwhile.
                    const fresh = await planResume(store, runId);
                    if (!fresh.ok) return { runId, state: 'failed', messageId: plan.value.record.messageId, error: { code: fresh.error.code, message: fresh.error.message } };
                    return withRunDependencies(store, host, fresh.value.input, signal, guidanceQueue, prepared.profiles, (deps) => resumeAgent(fresh.value, deps));
                });
            } finally {
                (host as Partial<Remote<HostBridge>>)[releaseProxy]?.();
            }
        },
        async interruptRun(runId) {
            // The page saw this engine's predecessor die while running it: no lock or lease can be trusted.
            return withStorage(async (s) => {
                if (running.has(runId)) return ok(false);
                const marked = await markInterruptedRuns(s, (id) => id !== runId, Date.now, true);
                return ok(marked > 0);
            });
        },
        async listRuns(chatKey) {
            if (!storage) return fail('store.not_open', 'The engine has not opened its storage yet.');
            try {
                await sweepInterrupted();
                return ok((await storage.listRuns(chatKey)).sort((a, b) => a.createdAt - b.createdAt));
            } catch (error) {
                return fail('store.read_failed', 'Tavern Agent could not read its run history.', describeError(error));
            }
        },
        async listChatRuns(chatId) {
            if (!storage) return fail('store.not_open', 'The engine has not opened its storage yet.');
            try {
                await sweepInterrupted();
                return ok(await runsOfChat(storage, chatId));
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
        recordLoreDecision: (runId, decision) => withStorage((s) => recordLoreDecision(s, runId, decision)),
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
                // Nor a run another tab is working on.
                const run = await s.getRun(runId);
                if (run && !isCutOff(run, await liveRunIds(), hasWebLocks() ? Number.POSITIVE_INFINITY : Date.now()) && !isEnded(run.state)) return fail('run.running', 'Another tab is running this agent run; it cannot be deleted now.');
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
