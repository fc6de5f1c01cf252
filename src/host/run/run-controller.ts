import { proxy } from 'comlink';
import type { GenerationType, RunOutcome, RunRequest } from '../../contract/run-input';
import type { ErrorCode } from '../../contract/errors';
import { fail, type Result } from '../../contract/result';
import type { RunObserver } from '../../contract/run-observer';
import type { HostBridge } from '../../contract/wire';
import { currentChatAgentState } from '../settings/agent-mode';
import { attachMemoryToChat, commitToChat, type CommitTarget } from '../chat/commit';
import { t } from '../../i18n/t';
import { routeModel } from '../model/model-route';
import { createModelRequests } from '../model/model-requests';
import { storedProfiles } from '../settings/profile-store';
import { captureRunInput } from './capture-run-input';
import { HostError } from '../host-error';
import { currentIdentity, openChatIdentity, sameChat } from '../sillytavern/chat-identity';
import { markedRunId } from '../sillytavern/message-marker';
import { toasts } from '../sillytavern/toasts';
import { holdGeneratingState } from '../sillytavern/generating-state';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { resolveFixTarget, type FixTarget } from '../chat/fix-target';
import { newId } from '../../contract/new-id';
import { engineCrashed, getEngine } from '../worker/worker-client';
import { createResumedCommit, findCommitted } from '../chat/find-committed';
import type { GenerateInterceptor } from './interceptor';
import { publishRunEvents } from './run-events';
import { prepareRunGenerationParameters } from '../model/generation-parameters';
import { callExtTool, dropExtToolApprovals, registeredExtTools } from '../ext-tools/ext-tools';

export interface ActiveRun {
    runId: string;
    state: string;
}

/** The panel's live feed, which a resume started from a command or the API reports to as well. */
let defaultObserver: RunObserver | null = null;

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

/** Queues the user's guidance for the active run (panel or `/agent guide`): it reaches the model at its next turn. */
export async function guideActiveRun(text: string): Promise<Result<{ guidanceId: string }>> {
    const run = active;
    if (!run) return fail('run.not_found', t`No agent run is working in this tab: guidance reaches only a running agent.`);
    const engine = await getEngine();
    return engine.guideRun(run.runId, text);
}

/**
 * The agent's takeover of a SillyTavern generation. It awaits the whole run inside the generate
 * interceptor, so SillyTavern stays busy (Send blocked, Stop shown) exactly as during a normal generation,
 * then aborts SillyTavern's own generation so no second reply is made.
 */
export function createRunTakeover(observer: RunObserver): GenerateInterceptor {
    defaultObserver = observer;
    return async (_chat, _contextSize, abort, type) => {
        // Whatever happens below, SillyTavern's own generation must not run as well.
        try {
            if (active) {
                toasts.warning(t`An agent run is already in progress.`);
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
    /** A fix run (`/agent fix`, the reply's button): revises this agent reply in place, per the request. */
    fix?: { target: FixTarget<ChatMessage>; request: string };
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
    const runId = newId();
    const controller = new AbortController();
    const target: CommitTarget = { runId, identity: currentIdentity(), generationType: options.type, messageId: null, closed: false };
    if (options.fix) {
        // Its commits replace the fixed message itself: the commit path of a run that has committed already.
        const { target: fixed } = options.fix;
        Object.assign(target, { message: fixed.message, messageId: fixed.index, committedText: fixed.message.mes, fixing: { previousRunId: fixed.previousRunId, memory: fixed.memory } });
    }
    active = { runId, state: 'preparing', controller, target };
    return { runId, outcome: driveRun(runId, options, controller, target, observer) };
}

async function driveRun(runId: string, options: LaunchOptions, controller: AbortController, target: CommitTarget, observer: RunObserver): Promise<RunOutcome> {
    const context = stContext();
    const type = options.type;
    const onStop = () => void cancelActiveRun('Stopped by the user.');
    context.eventSource.on(context.eventTypes.GENERATION_STOPPED!, onStop);
    // Send's runs hold it through the generate interceptor; a fix or a foreground script run holds it here.
    const releaseGenerating = options.fix || (options.script && !options.script.background) ? holdGeneratingState() : () => undefined;
    observer.onRunStart(runId, type);
    let outcome: RunOutcome;
    try {
        const engine = await getEngine();
        const profileId = options.profileId ?? currentChatAgentState().profileId;
        const resolved = await engine.prepareRun(runId, profileId, storedProfiles());
        // The worker builds its errors with fail(), which takes listed codes only.
        if (!resolved.ok) throw new HostError(resolved.error.code as ErrorCode, resolved.error.message);
        const profile = resolved.value;
        const route = routeModel(profile);
        const captured = await captureRunInput(runId, type, route.source, controller.signal, profile);
        if (route.source === null) prepareRunGenerationParameters(runId); // SillyTavern's own connection: its request body, built ahead
        const extTools = await registeredExtTools();
        const input = { ...captured, ...(options.script ? { script: options.script } : {}), ...(extTools.length ? { extTools } : {}), ...fixInput(options, target) };
        const bridge = runBridge(runId, target, route, controller.signal, observer, (request) => commitToChat(target, request));
        const result = await untilCrash(runId, engine.startRun(input, proxy(bridge)));
        outcome = result.ok
            ? result.value
            : { runId, state: 'failed', messageId: null, error: { code: result.error.code, message: result.error.message } };
        if (!result.ok && result.error.code === 'run.chat_busy') toasts.warning(t`An agent is already working on this chat in another tab. Wait for it to end.`);
    } catch (error) {
        const code = error instanceof HostError ? error.code : 'run.internal_error';
        const message = error instanceof Error ? error.message : String(error);
        outcome = { runId, state: code === 'run.cancelled' ? 'cancelled' : 'failed', messageId: null, error: { code, message } };
    } finally {
        context.eventSource.removeListener(context.eventTypes.GENERATION_STOPPED!, onStop);
        releaseGenerating();
        target.closed = true;
        dropExtToolApprovals(runId);
        if (active?.runId === runId) active = null;
    }
    if (outcome.state === 'failed' && outcome.error && outcome.error.code !== 'run.chat_busy') {
        toasts.error(`${outcome.error.message} (${outcome.error.code})`, t`Agent run failed`);
    }
    observer.onRunEnd(outcome);
    return outcome;
}

/**
 * What the worker reaches of the page during a run (a new one or a resumed one alike): the model through
 * the run's route, streamed deltas to the panel, the chat through `commit`, extension tools, and the run's
 * events to the panel and to API subscribers.
 */
function runBridge(runId: string, target: CommitTarget, route: ReturnType<typeof routeModel>, signal: AbortSignal, observer: RunObserver, commit: HostBridge['commit']): HostBridge {
    const models = createModelRequests(route, signal, (delta) => observer.onModelDelta?.(delta));
    return {
        requestModel: models.requestModel,
        abortModelRequest: models.abortModelRequest,
        commit,
        attachMemory: ({ runId: id, memory }) => attachMemoryToChat(target, id, memory),
        callExtTool: (request) => (target.closed ? Promise.resolve({ ok: false, code: 'tool.execution_failed', message: 'The run has ended.' }) : callExtTool(request)),
        onEvents: (events) => {
            const last = [...events].reverse().find((event) => event.type === 'run-state');
            if (active && active.runId === runId && last) active.state = (last.payload as { to: string }).to;
            observer.onEvents(events);
            publishRunEvents(events);
        },
    };
}

/**
 * A fix run's part of the input, taken once the prompt is captured: the message's index and text as they
 * are now (the user's edits included), which are also the baseline its first commit checks for a new edit.
 */
function fixInput(options: LaunchOptions, target: CommitTarget): { fix?: NonNullable<RunRequest['fix']> } {
    if (!options.fix || !target.message) return {};
    const messageIndex = stContext().chat.indexOf(target.message);
    if (messageIndex < 0) throw new HostError('run.fix_message_not_found', 'The reply to fix is no longer in the open chat.');
    target.messageId = messageIndex;
    target.committedText = target.message.mes;
    return { fix: { messageIndex, text: target.message.mes, request: options.fix.request } };
}

/** The panel's live feed (set once the takeover is created): commands and buttons report their runs to it. */
export function defaultRunObserver(): RunObserver | null {
    return defaultObserver;
}

/**
 * Waits for the worker's answer, or for the worker to die (an uncaught error, or no heartbeat). On a death
 * the run is marked interrupted by the next worker, so it can be resumed, and the caller ends at once (in
 * the generate interceptor that stops SillyTavern's "generating" state).
 */
async function untilCrash(runId: string, work: Promise<Result<RunOutcome>>): Promise<Result<RunOutcome>> {
    const crashed = engineCrashed().then((reason) => fail('host.engine_crashed', reason) as Result<RunOutcome>);
    const result = await Promise.race([work, crashed]);
    if (!result.ok && result.error.code === 'host.engine_crashed') {
        toasts.warning(t`The agent's worker stopped. The run is interrupted: resume it from the panel or with /agent resume.`);
        try {
            await (await getEngine()).interruptRun(runId);
        } catch {
            // The next worker's start marks it anyway (no lock, no lease).
        }
        return fail('run.interrupted', result.error.message);
    }
    return result;
}

/**
 * A resumed fix run's hold on the reply it revises: the message itself, and until the run's first commit
 * the marker it replaces, so its commits revise that message instead of writing a new one.
 */
function resumedFixTarget(chat: ChatMessage[], index: number, runId: string): Pick<CommitTarget, 'message' | 'messageId' | 'committedText' | 'fixing'> | null {
    const message = chat[index];
    const markedBy = markedRunId(message);
    if (!message || !markedBy) return null;
    if (markedBy === runId) return { message, messageId: index, committedText: message.mes };
    const found = resolveFixTarget(chat, index);
    if (!found.ok) return null;
    return { message, messageId: index, committedText: message.mes, fixing: { previousRunId: found.value.previousRunId, ...(found.value.memory ? { memory: found.value.memory } : {}) } };
}

/** The open chat's newest interrupted run, if any. */
export async function newestInterruptedRun(): Promise<string | null> {
    const chatKey = openChatIdentity()?.integrity;
    if (!chatKey) return null;
    const runs = await (await getEngine()).listRuns(chatKey);
    if (!runs.ok) return null;
    const interrupted = runs.value.filter((run) => run.state === 'interrupted').sort((a, b) => b.createdAt - a.createdAt);
    return interrupted[0]?.runId ?? null;
}

/**
 * Continues an interrupted run (issue 13 §1), refused with a reason when another run is going, the chat is
 * not open, or it moved on past what the run saw (a message edited, deleted or added that is not the run's
 * own reply). The run's commits look its message up by marker first, so nothing lands twice.
 */
export async function resumeRun(runId: string, observer: RunObserver | null = defaultObserver): Promise<Result<RunOutcome>> {
    if (!observer) return fail('run.not_prepared', 'Tavern Agent has not started yet.');
    if (active) return fail('run.already_running', 'An agent run is already in progress.');
    const engine = await getEngine();
    const ticket = await engine.prepareResume(runId, storedProfiles());
    if (!ticket.ok) return ticket;
    const { profile, chat, prefix, generationType } = ticket.value;
    const identity = openChatIdentity();
    if (!identity || !sameChat(identity, chat)) return fail('run.chat_moved', 'Open the chat this run belongs to first.');
    const messages = stContext().chat;
    const own = findCommitted(runId);
    // A fix run revises a message of its own prefix: once it committed there, that message's new text is its own.
    const fixed = ticket.value.fix ? resumedFixTarget(messages, ticket.value.fix.messageIndex, runId) : null;
    if (ticket.value.fix && !fixed) return fail('run.chat_moved', 'The reply this fix run revises is gone from the chat, so it cannot be resumed.');
    const changed = prefix.some((message) => message.index !== own && messages[message.index]?.mes !== message.text);
    // A swipe run's target is the message after its prefix: it may hold the run's reply, or the old swipe.
    const extra = messages.slice(prefix.length).filter((_, offset) => prefix.length + offset !== own && !(generationType === 'swipe' && offset === 0));
    if (changed || extra.length > 0) {
        return fail('run.chat_moved', 'The chat has changed since this run started (a message was added, edited or deleted), so it cannot be resumed. Start a new run instead.');
    }
    const controller = new AbortController();
    const target: CommitTarget = { runId, identity, generationType, messageId: own, closed: false, ...(fixed ?? {}) };
    active = { runId, state: 'running', controller, target };
    const context = stContext();
    const onStop = () => void cancelActiveRun('Stopped by the user.');
    context.eventSource.on(context.eventTypes.GENERATION_STOPPED!, onStop);
    // The user resumed it and watches it: SillyTavern's Stop stops it, as a run started by Send.
    const releaseGenerating = holdGeneratingState();
    observer.onRunStart(runId, generationType);
    let outcome: RunOutcome;
    try {
        const bridge = runBridge(runId, target, routeModel(profile), controller.signal, observer, createResumedCommit(target, ticket.value.messageId));
        const result = await untilCrash(runId, engine.resumeRun(runId, proxy(bridge)));
        outcome = result.ok ? result.value : { runId, state: 'failed', messageId: target.messageId, error: { code: result.error.code, message: result.error.message } };
    } catch (error) {
        outcome = { runId, state: 'failed', messageId: target.messageId, error: { code: 'run.internal_error', message: error instanceof Error ? error.message : String(error) } };
    } finally {
        context.eventSource.removeListener(context.eventTypes.GENERATION_STOPPED!, onStop);
        releaseGenerating();
        target.closed = true;
        dropExtToolApprovals(runId);
        active = null;
    }
    if (outcome.state === 'failed' && outcome.error) toasts.error(`${outcome.error.message} (${outcome.error.code})`, t`Agent run failed`);
    observer.onRunEnd(outcome);
    return { ok: true, value: outcome };
}
