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
import { newId } from '../contract/new-id';
import { getEngine } from './worker-client';
import type { GenerateInterceptor } from './interceptor';

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
            await runOnce(type as GenerationType, observer);
        } finally {
            abort(true);
        }
    };
}

async function runOnce(type: GenerationType, observer: RunObserver): Promise<void> {
    const context = stContext();
    const runId = newId();
    const controller = new AbortController();
    const target: CommitTarget = { runId, identity: currentIdentity(), generationType: type, messageId: null, closed: false };
    active = { runId, state: 'preparing', controller, target };
    const onStop = () => void cancelActiveRun('Stopped by the user.');
    context.eventSource.on(context.eventTypes.GENERATION_STOPPED!, onStop);
    observer.onRunStart(runId, type);
    let outcome: RunOutcome;
    try {
        const engine = await getEngine();
        const profileId = currentChatAgentState().profileId;
        const resolved = await engine.prepareRun(runId, profileId, storedProfiles());
        // The worker builds its errors with fail(), which takes listed codes only.
        if (!resolved.ok) throw new SnapshotError(resolved.error.code as ErrorCode, resolved.error.message);
        const profile = resolved.value;
        const route = routeModel(profile);
        const input = await captureRunInput(runId, type, route.source, controller.signal, profile);
        const models = createModelRequests(route, controller.signal);
        const bridge: HostBridge = {
            requestModel: models.requestModel,
            abortModelRequest: models.abortModelRequest,
            commit: (request) => commitToChat(target, request),
            attachMemory: ({ runId: id, memory }) => attachMemoryToChat(target, id, memory),
            onEvents: (events) => {
                const last = [...events].reverse().find((event) => event.type === 'run-state');
                if (active && last) active.state = (last.payload as { to: string }).to;
                observer.onEvents(events);
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
        active = null;
    }
    if (outcome.state === 'failed' && outcome.error) {
        globalThis.toastr?.error(`${outcome.error.message} (${outcome.error.code})`, t`Agent run failed`);
    }
    observer.onRunEnd(outcome);
}
