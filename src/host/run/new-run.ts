import type { ErrorCode } from '../../contract/errors';
import { newId } from '../../contract/new-id';
import type { ChatIdentity, GenerationType, RunOutcome, RunPhase, RunRequest } from '../../contract/run-input';
import { fail } from '../../contract/result';
import { t } from '../../i18n/t';
import type { RunObserver } from '../../contract/run-observer';
import { commitToChat, type CommitTarget } from '../chat/commit';
import { attachKeeperMemory, writeKeeperState, locateBoundReply, type BoundReply } from '../chat/keeper-memory';
import type { FixTarget } from '../chat/fix-target';
import { registeredExtTools } from '../ext-tools/ext-tools';
import { HostError } from '../host-error';
import { prepareRunGenerationParameters } from '../model/generation-parameters';
import { routeModel } from '../model/model-route';
import { connectionProfiles } from '../model/connection-profiles';
import { currentChatAgentState } from '../settings/agent-mode';
import { storedProfiles } from '../settings/profile-store';
import { currentIdentity, isOpenChat, sameChat } from '../sillytavern/chat-identity';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { getEngine } from '../worker/worker-client';
import { activeRun } from './active-run';
import { captureRunInput, recapture } from './capture-run-input';
import { driveBackgroundRun } from './background-runs';
import { driveRun, type RunStart } from './drive-run';
import type { StartFacts } from './failed-start';

export interface LaunchOptions {
    type: GenerationType;
    /** The agent profile; the chat's own when absent. */
    profileId?: string;
    /** A run a script started (TavernAgent.run, /agent run): its prompt and whether it stays in the background. */
    script?: { prompt: string; background: boolean };
    /** A fix run (`/agent fix`, the reply's button): revises this agent reply in place, per the request. */
    fix?: { target: FixTarget<ChatMessage>; request: string };
    /**
     * Its phase in the turn (issue 34): a director `before` the reply and a keeper `after` it never write the
     * chat. A reply when absent.
     */
    phase?: RunPhase;
    /** A keeper's reply: the one it works after, where its memory goes. */
    follows?: BoundReply;
    /** A reply agent's brief, from the turn's director. */
    brief?: string;
    /** The turn it belongs to (the user message it answers), for the timeline. */
    turnId?: string;
    /** The title of the toast a failure shows (the generic one when absent). */
    failureTitle?: string;
    /**
     * A memory build's chunk (issue 37 §3, host/memory/): an after-run with no reply to follow, over the open
     * chat's messages up to `upTo`, its input shaped from the capture by the build. It writes nothing to the chat.
     */
    build?: {
        chat: ChatIdentity;
        upTo: number;
        shape: (captured: RunRequest) => RunRequest;
        /** The build's first capture in this tab, kept by it: later chunks take it again without a dry run (capture-run-input.ts's recapture). */
        captured: { input: RunRequest | null };
    };
}

export interface LaunchedRun {
    runId: string;
    /** Settles when the run has ended (never rejects). */
    outcome: Promise<RunOutcome>;
}

/**
 * Starts one run in the open chat (Send, a fix, a script), or returns null when one is already going on.
 * The run id is known at once.
 */
export function launchRun(options: LaunchOptions, observer: RunObserver): LaunchedRun | null {
    if (activeRun()) return null;
    const runId = newId();
    const target: CommitTarget = { runId, identity: currentIdentity(), generationType: options.type, messageId: null, closed: false };
    if (options.fix) {
        // Its commits replace the fixed message itself: the commit path of a run that has committed already.
        const { target: fixed } = options.fix;
        Object.assign(target, { message: fixed.message, messageId: fixed.index, committedText: fixed.message.mes, fixing: { previousRunId: fixed.previousRunId, memory: fixed.memory } });
    }
    const outcome = driveRun(
        {
            runId,
            generationType: options.type,
            target,
            state: 'preparing',
            // Send's runs hold it through the generate interceptor; a fix or a foreground script run holds it here.
            holdsGenerating: Boolean(options.fix || (options.script && !options.script.background)),
            ...(options.failureTitle ? { failureTitle: options.failureTitle } : {}),
            start: (signal) => startNewRun(runId, options, target, signal),
            startFacts: startFacts(options),
        },
        observer,
    );
    return outcome ? { runId, outcome } : null;
}

/**
 * Starts a keeper after a reply (issue 34 §3) in the background: beside the tab's active run, never in its
 * place, so the user's next turn starts at once. `options.follows` is the reply; its profile is `profileId`.
 * Its events go to the background runs' observers (background-runs.ts).
 */
export function launchKeeper(options: LaunchOptions & { profileId: string; follows: BoundReply }): LaunchedRun {
    const { follows } = options;
    return launchInBackground(options, follows.identity, { turnId: options.turnId ?? null, follows: follows.index });
}

/**
 * Starts one chunk run of a memory build (issue 37 §3) in the background, as a keeper is: beside the tab's active
 * run, stopped by its id. Its memory goes back to the build (read from the run when it has ended), never into a
 * message: it is given no way to write the chat at all.
 */
export function launchBuildChunk(options: LaunchOptions & { profileId: string; build: NonNullable<LaunchOptions['build']> }): LaunchedRun {
    return launchInBackground(options, options.build.chat, { turnId: null });
}

/** A run of the `after` kind, driven beside the tab's active run and listed with the background runs. */
function launchInBackground(options: LaunchOptions & { profileId: string }, identity: ChatIdentity, place: { turnId: string | null; follows?: number }): LaunchedRun {
    const runId = newId();
    const target: CommitTarget = { runId, identity, generationType: 'normal', messageId: null, closed: false };
    const background = { ...options, type: 'normal' as const, phase: 'after' as const };
    const outcome = driveBackgroundRun(
        {
            runId,
            generationType: 'normal',
            target,
            state: 'preparing',
            holdsGenerating: false,
            ...(options.failureTitle ? { failureTitle: options.failureTitle } : {}),
            start: (signal) => startNewRun(runId, background, target, signal),
            startFacts: startFacts(background),
        },
        { runId, chatKey: identity.integrity, phase: 'after', profileId: options.profileId, ...place },
    );
    return { runId, outcome };
}

/** What the page knows of a new run before it starts, to keep it should it fail there (issue 39 §10). */
function startFacts(options: LaunchOptions): StartFacts {
    const aroundTheReply = options.phase === 'before' || options.phase === 'after';
    return {
        profileId: options.profileId ?? currentChatAgentState().profileId,
        ...(options.phase ? { phase: options.phase } : {}),
        ...(options.turnId ? { turnId: options.turnId } : {}),
        foreground: !aroundTheReply && !options.script?.background,
    };
}

/** A new run's start: its profile resolved by the worker, then its input frozen from the open chat. */
async function startNewRun(runId: string, options: LaunchOptions, target: CommitTarget, signal: AbortSignal): Promise<RunStart> {
    const engine = await getEngine();
    const profileId = options.profileId ?? currentChatAgentState().profileId;
    const resolved = await engine.prepareRun(runId, profileId, storedProfiles(), connectionProfiles());
    // The worker builds its errors with fail(), which takes listed codes only.
    if (!resolved.ok) throw new HostError(resolved.error.code as ErrorCode, resolved.error.message);
    const profile = resolved.value;
    const route = routeModel(profile);
    const follows = options.follows ? locateBoundReply(options.follows) : undefined;
    if (follows === null) throw new HostError('pipeline.reply_gone', t`The reply this keeper works after was deleted or swiped away, or another chat is open.`);
    const kept = options.build?.captured.input;
    const captured = options.build && kept ? recapture(kept, runId, options.build.upTo) : await captureRunInput(runId, options.type, route.source, signal, profile, follows ?? options.build?.upTo);
    if (options.build) options.build.captured.input = captured;
    // A build's chunk is captured from the open chat: it must still be the build's (the capture waits its turn).
    if (options.build && !sameChat(captured.chat, options.build.chat)) throw new HostError('memory.chat_changed', t`Another chat is open now: the memory build stopped.`);
    // Any other run's chat is fixed at launch. A capture that read another chat (opened while the worker started,
    // or while the capture waited its turn), or that the user left before it ended, would put that chat's messages
    // and prompt into this run, whose commit and memory go into the launch chat.
    if (!options.build && !(sameChat(captured.chat, target.identity) && isOpenChat(target.identity))) {
        throw new HostError('host.chat_changed', t`Another chat was opened while the run was starting; it did not start.`);
    }
    if (route.source === null) prepareRunGenerationParameters(runId); // SillyTavern's own connection: its request body, built ahead
    const extTools = await registeredExtTools();
    const input = {
        ...captured,
        ...(options.script ? { script: options.script } : {}),
        ...(extTools.length ? { extTools } : {}),
        ...fixInput(options, target),
        ...turnInput(options),
        ...(follows === undefined ? {} : { follows: { messageIndex: follows } }),
    };
    const { build } = options;
    if (build) {
        const refused = async () => fail('host.commit_failed', 'A memory build never writes the chat.');
        return { route, commit: refused, attachMemory: refused, writeState: refused, run: (bridge) => engine.startRun(build.shape(input), bridge) };
    }
    // A director or a keeper is never offered workspace.commit (the engine's rule); the page refuses its commits all the same.
    const aroundTheReply = options.phase === 'before' || options.phase === 'after';
    const commit: RunStart['commit'] = aroundTheReply ? async () => fail('host.commit_failed', 'A run before or after the reply never writes the chat.') : (request) => commitToChat(target, request);
    // A keeper's memory goes into the reply it follows, and nowhere else.
    const bound = options.follows;
    const attachMemory: RunStart['attachMemory'] = bound ? ({ runId: id, memory }) => attachKeeperMemory(bound, id, memory) : undefined;
    const keeperState: RunStart['writeState'] = bound ? ({ writes }) => writeKeeperState(bound, writes) : undefined;
    return { route, commit, ...(attachMemory ? { attachMemory } : {}), ...(keeperState ? { writeState: keeperState } : {}), run: (bridge) => engine.startRun(input, bridge) };
}

/** A run's place in its turn (issue 34): its phase, the brief it reads, the turn it belongs to. */
function turnInput(options: LaunchOptions): Pick<RunRequest, 'phase' | 'brief' | 'turnId'> {
    return {
        ...(options.phase && options.phase !== 'reply' ? { phase: options.phase } : {}),
        ...(options.brief ? { brief: options.brief } : {}),
        ...(options.turnId ? { turnId: options.turnId } : {}),
    };
}

/**
 * A fix run's part of the input, taken once the prompt is captured: the message's index and text as they
 * are now (the user's edits included), which are also the baseline its first commit checks for a new edit.
 */
function fixInput(options: LaunchOptions, target: CommitTarget): { fix?: NonNullable<RunRequest['fix']> } {
    if (!options.fix || !target.message) return {};
    const messageIndex = stContext().chat.indexOf(target.message);
    if (messageIndex < 0) throw new HostError('run.fix_message_not_found', t`The reply to fix is no longer in the open chat.`);
    target.messageId = messageIndex;
    target.committedText = target.message.mes;
    return { fix: { messageIndex, text: target.message.mes, request: options.fix.request } };
}
