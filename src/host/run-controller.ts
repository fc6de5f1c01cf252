import { proxy } from 'comlink';
import type { GenerationType, RunOutcome } from '../contract/run-input';
import type { ErrorCode } from '../contract/errors';
import type { RunObserver } from '../contract/run-observer';
import type { HostBridge } from '../contract/wire';
import { currentChatAgentState } from './agent-mode';
import { attachMemoryToChat, commitToChat, type CommitTarget } from './commit';
import { t } from '../i18n/t';
import { routeModel } from './model-route';
import { createModelRequests } from './model-requests';
import { storedProfiles } from './profile-store';
import { captureRunInput, currentIdentity, SnapshotError } from './snapshot';
import { stContext } from './st-context';
import { getEngine } from './worker-client';
import type { GenerateInterceptor } from './interceptor';
import { publishRunEvents } from './run-events';
import { callExtTool, dropExtToolApprovals, registeredExtTools } from './ext-tools';

export interface ActiveRun {
    runId: string;
    state: string;
}

let active: { runId: string; state: string; controller: AbortController; target: CommitTarget } | null = null;

export function activeRun(): ActiveRun | null {
    return active ? { runId: active.runId, state: active.state } : null;
}

/** Stops the active run: its model call is aborted, and it never commits afterwards. */
export async function cancelActiveRun(reason: string): Promise<boolean> {
    const run = active;
    if (!run) return false;
    run.target.closed = true;
    run.controller.abort(reason);
    const engine = await getEngine();
    await engine.cancelRun(run.runId, reason);
    return true;
}

/**
 * The agent's takeover of a SillyTavern generation. It awaits the whole run inside the generate
 * interceptor, so SillyTavern stays busy (Send blocked, Stop shown) exactly as during a normal generation,
 * then aborts SillyTavern's own generation so no second reply is made.
 */
export function createRunTakeover(observer: RunObserver): GenerateInterceptor {
    return async (_chat, _contextSize, abort, type) => {
        // Whatever happens below, SillyTavern's own generation must not run as well.
        try {
            if (active) {
                globalThis.toastr?.warning(t`An agent run is already in progress.`);
                return;
            }
            await launchRun({ type: type as GenerationType }, observer)?.outcome;
        } finally {
            abort(true);
        }
    };
}

export interface LaunchOptions {
    type: GenerationType;
    /** The agent profile; the chat's own when absent. */
    profileId?: string;
    /** A run a script started (TavernAgent.run, /agent run): its prompt and whether it stays in the background. */
    script?: { prompt: string; background: boolean };
}

export interface LaunchedRun {
    runId: string;
    /** Settles when the run has ended (never rejects). */
    outcome: Promise<RunOutcome>;
}

/**
 * Starts one run in the open chat, or returns null when one is already going on (one run at a time, so
 * `/agent stop`, Stop and `status()` always mean the same run). The run id is known at once.
 */
export function launchRun(options: LaunchOptions, observer: RunObserver): LaunchedRun | null {
    if (active) return null;
    const context = stContext();
    const runId = context.uuidv4();
    const controller = new AbortController();
    const target: CommitTarget = { runId, identity: currentIdentity(), generationType: options.type, messageId: null, closed: false };
    active = { runId, state: 'preparing', controller, target };
    return { runId, outcome: driveRun(runId, options, controller, target, observer) };
}

async function driveRun(runId: string, options: LaunchOptions, controller: AbortController, target: CommitTarget, observer: RunObserver): Promise<RunOutcome> {
    const context = stContext();
    const type = options.type;
    const onStop = () => void cancelActiveRun('Stopped by the user.');
    context.eventSource.on(context.eventTypes.GENERATION_STOPPED!, onStop);
    observer.onRunStart(runId, type);
    let outcome: RunOutcome;
    try {
        const engine = await getEngine();
        const profileId = options.profileId ?? currentChatAgentState().profileId;
        const resolved = await engine.prepareRun(runId, profileId, storedProfiles());
        // The worker builds its errors with fail(), which takes listed codes only.
        if (!resolved.ok) throw new SnapshotError(resolved.error.code as ErrorCode, resolved.error.message);
        const profile = resolved.value;
        const route = routeModel(profile);
        const captured = await captureRunInput(runId, type, route.source, controller.signal, profile);
        const extTools = await registeredExtTools();
        const input = { ...captured, ...(options.script ? { script: options.script } : {}), ...(extTools.length ? { extTools } : {}) };
        const models = createModelRequests(route, controller.signal, (delta) => observer.onModelDelta?.(delta));
        const bridge: HostBridge = {
            requestModel: models.requestModel,
            abortModelRequest: models.abortModelRequest,
            commit: (request) => commitToChat(target, request),
            attachMemory: ({ runId: id, memory }) => attachMemoryToChat(target, id, memory),
            callExtTool: (request) => (target.closed ? Promise.resolve({ ok: false, code: 'tool.execution_failed', message: 'The run has ended.' }) : callExtTool(request)),
            onEvents: (events) => {
                const last = [...events].reverse().find((event) => event.type === 'run-state');
                if (active && active.runId === runId && last) active.state = (last.payload as { to: string }).to;
                observer.onEvents(events);
                publishRunEvents(events);
            },
        };
        const result = await engine.startRun(input, proxy(bridge));
        outcome = result.ok
            ? result.value
            : { runId, state: 'failed', messageId: null, error: { code: result.error.code, message: result.error.message } };
    } catch (error) {
        const code = error instanceof SnapshotError ? error.code : 'run.internal_error';
        const message = error instanceof Error ? error.message : String(error);
        outcome = { runId, state: code === 'run.cancelled' ? 'cancelled' : 'failed', messageId: null, error: { code, message } };
    } finally {
        context.eventSource.removeListener(context.eventTypes.GENERATION_STOPPED!, onStop);
        target.closed = true;
        dropExtToolApprovals(runId);
        if (active?.runId === runId) active = null;
    }
    if (outcome.state === 'failed' && outcome.error) {
        globalThis.toastr?.error(`${outcome.error.message} (${outcome.error.code})`, t`Agent run failed`);
    }
    observer.onRunEnd(outcome);
    return outcome;
}
