import type { Profile } from '../../contract/profile';
import { ConnectionProfileListSchema, type ConnectionProfile } from '../../contract/connection-profile';
import type { RunDependencies } from '../run/run-session';
import { describeError, fail, ok, type Result } from '../../contract/result';
import { RunRequestSchema } from '../../contract/run-input';
import type { RunsApi } from '../../contract/wire';
import { listProfiles, resolveProfile } from '../agents/profiles';
import { runsOfChat } from '../archive/chat-runs';
import { planContinue, planResume, type ResumePlan } from '../run/resume-plan';
import { resumeAgent, runAgent } from '../run/run-lifecycle';
import { phasedProfile, phaseOf } from '../run/phase-run';
import { scriptedProfile } from '../run/script-run';
import { markInterruptedRuns } from '../tabs/sweep';
import { FailedStartSchema } from '../../contract/failed-start';
import { recordFailedStart } from '../run/failed-start';
import { withStorage, type EngineState } from './engine-state';
import { launchRun, releaseBridge } from './run-launch';

/** Every valid profile of the user, built-ins included: the agents a run may delegate to, frozen with its input. */
function validProfiles(stored: Record<string, unknown>): Profile[] {
    return listProfiles(stored).flatMap((listing) => (listing.profile ? [listing.profile] : []));
}

/** The page's Connection Manager profiles, checked (absent stays absent: every model counts as configured). */
function parseConnections(raw: unknown): Result<ConnectionProfile[] | undefined> {
    if (raw === undefined) return ok(undefined);
    const parsed = ConnectionProfileListSchema.safeParse(raw);
    return parsed.success ? ok(parsed.data) : fail('run.invalid_input', 'The run could not start: the connection profiles the page sent are invalid.', parsed.error.message);
}

/** A run's dependencies with the connections the page named (none named: every model counts as configured). */
function withConnections(deps: RunDependencies, connections: ConnectionProfile[] | undefined): RunDependencies {
    return connections ? { ...deps, connections } : deps;
}

/**
 * The runs facet: runs start in two steps (prepare on the profile, then start with the captured input), and
 * resume in two (prepare: may it go on, and what must the page check; then resume), each launched the one
 * way (run-launch.ts). Also cancel, guidance, and the run records and journals.
 */
export function createRunsApi(state: EngineState, sweep: () => Promise<void>): RunsApi {
    /** Profiles resolved by prepareRun or prepareResume, waiting for their run. */
    const prepared = new Map<string, { profile: Profile; profiles: Profile[]; connections: ConnectionProfile[] | undefined }>();
    /** Plans of resumes the page asked for, waiting for their resumeRun. */
    const plans = new Map<string, ResumePlan>();

    return {
        async prepareRun(runId, profileId, stored, rawConnections) {
            const connections = parseConnections(rawConnections);
            if (!connections.ok) return connections;
            const resolved = resolveProfile(profileId, stored);
            if (resolved.ok) prepared.set(runId, { profile: resolved.value, profiles: validProfiles(stored), connections: connections.value });
            return resolved;
        },
        async startRun(rawRequest, host) {
            try {
                const storage = state.storage;
                if (!storage) return fail('store.not_open', 'The engine has not opened its storage yet.');
                const parsed = RunRequestSchema.safeParse(rawRequest);
                if (!parsed.success) return fail('run.invalid_input', 'The run could not start: its input snapshot is invalid.', parsed.error.message);
                const ready = prepared.get(parsed.data.runId);
                prepared.delete(parsed.data.runId);
                if (!ready) return fail('run.not_prepared', 'The run could not start: its profile was not prepared (prepareRun).');
                const profile = phasedProfile(scriptedProfile(ready.profile, parsed.data.script), phaseOf(parsed.data));
                const input = { ...parsed.data, profile, agentProfiles: ready.profiles };
                return await launchRun(state, storage, input, host, (deps) => runAgent(input, withConnections(deps, ready.connections)));
            } finally {
                releaseBridge(host);
            }
        },
        async cancelRun(runId, reason) {
            state.running.get(runId)?.controller.abort(reason);
        },
        async guideRun(runId, text) {
            const run = state.running.get(runId);
            if (!run) return fail('run.not_found', 'The run is not working right now: guidance reaches only a running agent.');
            try {
                return await run.guidance.add(text);
            } catch (error) {
                return fail('store.read_failed', 'Tavern Agent could not journal the guidance.', describeError(error));
            }
        },
        prepareResume: (runId, stored, options) =>
            withStorage(state, async (s) => {
                const connections = parseConnections(options?.connections);
                if (!connections.ok) return connections;
                await sweep();
                const plan = options?.continue ? await planContinue(s, runId, options.continue.rounds) : await planResume(s, runId);
                if (!plan.ok) return plan;
                const { input, record } = plan.value;
                // The run goes on with the profile it started with (frozen in its inputs).
                prepared.set(runId, { profile: input.profile, profiles: validProfiles(stored), connections: connections.value });
                plans.set(runId, plan.value);
                return ok({
                    runId,
                    profile: input.profile,
                    chat: input.chat,
                    generationType: input.generationType,
                    prefix: input.prefix.map(({ index, text }) => ({ index, text })),
                    messageId: record.messageId,
                    ...(input.fix ? { fix: { messageIndex: input.fix.messageIndex } } : {}),
                });
            }),
        async resumeRun(runId, host) {
            try {
                const storage = state.storage;
                if (!storage) return fail('store.not_open', 'The engine has not opened its storage yet.');
                const plan = plans.get(runId);
                const ready = prepared.get(runId);
                plans.delete(runId);
                prepared.delete(runId);
                if (!plan || !ready) return fail('run.not_prepared', 'The run could not resume: it was not prepared (prepareResume).');
                return await launchRun(state, storage, plan.input, host, async (deps) => {
                    // Read again under the chat's lock: another tab may have resumed it meanwhile.
                    const fresh = plan.continueRounds !== undefined ? await planContinue(storage, runId, plan.continueRounds) : await planResume(storage, runId);
                    if (!fresh.ok) return { runId, state: 'failed', messageId: plan.record.messageId, error: { code: fresh.error.code, message: fresh.error.message } };
                    // A run stored before its agents were frozen delegates to the user's profiles as they are now.
                    const input = fresh.value.input.agentProfiles ? fresh.value.input : { ...fresh.value.input, agentProfiles: ready.profiles };
                    return resumeAgent({ ...fresh.value, input }, withConnections(deps, ready.connections));
                });
            } finally {
                releaseBridge(host);
            }
        },
        recordFailedStart: (raw) =>
            withStorage(
                state,
                async (s) => {
                    const parsed = FailedStartSchema.safeParse(raw);
                    if (!parsed.success) return fail('run.invalid_input', 'The run that failed to start could not be kept: its description is invalid.', parsed.error.message);
                    // Working here after all: the run keeps its own record.
                    if (state.running.has(parsed.data.runId)) return ok([]);
                    return ok(await recordFailedStart(s, parsed.data));
                },
                'Tavern Agent could not keep the run that failed to start.',
            ),
        interruptRun: (runId) =>
            // The page saw this engine's predecessor die while running it: no lock or lease can be trusted.
            withStorage(state, async (s) => {
                if (state.running.has(runId)) return ok(false);
                return ok((await markInterruptedRuns(s, (id) => id !== runId, Date.now, true)) > 0);
            }),
        listRuns: (chatKey) =>
            withStorage(
                state,
                async (s) => {
                    await sweep();
                    return ok((await s.listRuns(chatKey)).sort((a, b) => a.createdAt - b.createdAt));
                },
                'Tavern Agent could not read its run history.',
            ),
        listChatRuns: (chatId) =>
            withStorage(
                state,
                async (s) => {
                    await sweep();
                    return ok(await runsOfChat(s, chatId));
                },
                'Tavern Agent could not read its run history.',
            ),
        getRun: (runId) =>
            withStorage(state, async (s) => {
                const run = await s.getRun(runId);
                return run ? ok(run) : fail('run.not_found', 'This run no longer exists.');
            }),
        readEvents: (runId, fromSeq) => withStorage(state, async (s) => ok(await s.listEvents(runId, fromSeq)), 'Tavern Agent could not read the run journal.'),
        runMemory: (runId) =>
            withStorage(state, async (s) => {
                const [run, persisted] = await Promise.all([s.getRun(runId), s.getPersistState(runId)]);
                return ok(run?.state === 'completed' && persisted ? persisted.files : null);
            }),
    };
}
