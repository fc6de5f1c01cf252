import { proxy } from 'comlink';
import { fail, type ErrorInfo, type Result } from '../../contract/result';
import type { GenerationType, RunOutcome } from '../../contract/run-input';
import type { RunObserver } from '../../contract/run-observer';
import type { HostBridge } from '../../contract/wire';
import { failureText } from '../../i18n/failure-text';
import { t } from '../../i18n/t';
import type { CommitTarget } from '../chat/commit';
import { dropExtToolApprovals } from '../ext-tools/ext-tools';
import { HostError } from '../host-error';
import type { ModelRoute } from '../model/model-route';
import { holdGeneratingState } from '../sillytavern/generating-state';
import { stContext } from '../sillytavern/st-context';
import { toasts } from '../sillytavern/toasts';
import { engineCrashed, getEngine } from '../worker/worker-client';
import { cancelActiveRun, claimActiveRun, releaseActiveRun, setActiveRunState } from './active-run';
import { runBridge } from './run-bridge';
import { keepFailedStart, type StartFacts } from './failed-start';

/** One run to drive, new or resumed: what differs between the two is here; the rest is driveRun's. */
export interface RunToDrive {
    runId: string;
    generationType: GenerationType;
    /** Where its commits go, and whether it may still write (closed when it ends or is stopped). */
    target: CommitTarget;
    /** Its state as `status()` shows it until the worker reports one (`preparing` while a new run's input is captured). */
    state: string;
    /** Whether the run holds SillyTavern's generating state itself (Send's runs are held by the generate interceptor). */
    holdsGenerating: boolean;
    /** The title of the toast a failure shows; the generic one when absent. */
    failureTitle?: string;
    /** Gets the run ready for the worker (a new run's input captured, a resumed one's ticket read); may throw a HostError. */
    start(signal: AbortSignal): Promise<RunStart>;
    /**
     * A new run's facts, to keep it as a failed run when it fails before it starts (issue 39 §10). Absent for a
     * resumed run: it has its record.
     */
    startFacts?: StartFacts;
}

/** A run ready for the worker. */
export interface RunStart {
    /** Where the root agent's model calls go. */
    route: ModelRoute;
    /** How the run writes into the chat. */
    commit: HostBridge['commit'];
    /** Where its memory goes (a keeper's: into the reply it follows); into the message it committed when absent. */
    attachMemory?: NonNullable<HostBridge['attachMemory']>;
    /** Where its state changes go when not with a commit (a keeper's: into the reply it follows); its own message when absent. */
    writeState?: NonNullable<HostBridge['writeState']>;
    /** Runs it in the worker, with the bridge back to the page. */
    run(bridge: HostBridge): Promise<Result<RunOutcome>>;
}

/**
 * Where a run is driven: as this tab's one active run (SillyTavern's Stop stops it), or beside it, in the
 * background (a keeper after a reply: background-runs.ts).
 */
export interface RunSlot {
    /** Whether SillyTavern's Stop button stops it. */
    stoppedBySillyTavern: boolean;
    /** The state the worker reports for it. */
    onState(to: string): void;
    /** Called once, when it has ended. */
    release(): void;
}

/**
 * The one launch path of every run on the page: it becomes this tab's active run (null when another one is
 * going on), SillyTavern's Stop stops it, the worker reaches the page through its bridge, a dead worker ends
 * it as interrupted, and its end releases all of it, tells the observer and shows a failure. The returned
 * outcome never rejects.
 */
export function driveRun(run: RunToDrive, observer: RunObserver): Promise<RunOutcome> | null {
    const controller = new AbortController();
    if (!claimActiveRun({ runId: run.runId, state: run.state, controller, target: run.target })) return null;
    return driveIn(run, controller, observer, {
        stoppedBySillyTavern: true,
        onState: (to) => setActiveRunState(run.runId, to),
        release: () => releaseActiveRun(run.runId),
    });
}

/** The launch path itself, in the slot the caller took for the run. */
export async function driveIn(run: RunToDrive, controller: AbortController, observer: RunObserver, slot: RunSlot): Promise<RunOutcome> {
    const { runId, target } = run;
    const context = stContext();
    const onStop = () => void cancelActiveRun('Stopped by the user.');
    if (slot.stoppedBySillyTavern) context.eventSource.on(context.eventTypes.GENERATION_STOPPED!, onStop);
    const releaseGenerating = run.holdsGenerating ? holdGeneratingState() : () => undefined;
    observer.onRunStart(runId, run.generationType);
    let outcome: RunOutcome;
    // Whether it ended before the engine ran it: getting ready threw, or the engine refused it.
    let beforeStart = true;
    try {
        const start = await run.start(controller.signal);
        const bridge = runBridge(target, start, controller.signal, observer, slot.onState);
        const result = await untilCrash(runId, start.run(proxy(bridge)));
        beforeStart = !result.ok;
        outcome = result.ok ? result.value : ended(runId, target, 'failed', result.error);
        if (!result.ok && result.error.code === 'run.chat_busy') toasts.warning(t`An agent is already working on this chat in another tab. Wait for it to end.`);
    } catch (error) {
        const code = error instanceof HostError ? error.code : 'run.internal_error';
        outcome = ended(runId, target, code === 'run.cancelled' ? 'cancelled' : 'failed', { code, message: error instanceof Error ? error.message : String(error) });
    } finally {
        if (slot.stoppedBySillyTavern) context.eventSource.removeListener(context.eventTypes.GENERATION_STOPPED!, onStop);
        releaseGenerating();
        target.closed = true;
        dropExtToolApprovals(runId);
        slot.release();
    }
    // A failure before the start is kept as a failed run, which the timeline shows with the rest of its events.
    if (beforeStart && run.startFacts && outcome.state === 'failed' && outcome.error) {
        const kept = await keepFailedStart({ runId, generationType: run.generationType, identity: target.identity }, run.startFacts, outcome.error);
        if (kept.length > 0) observer.onEvents(kept);
    }
    // Told otherwise (a warning above), or nothing to tell: a keeper whose reply went before it started (issue 34).
    if (outcome.state === 'failed' && outcome.error && outcome.error.code !== 'run.chat_busy' && outcome.error.code !== 'pipeline.reply_gone') {
        toasts.error(`${failureText(outcome.error)} (${outcome.error.code})`, run.failureTitle ?? t`Agent run failed`);
    }
    observer.onRunEnd(outcome);
    return outcome;
}

/** The outcome of a run that ended on the page's side (failed, or stopped while it was prepared): it names the message it wrote, if any. */
function ended(runId: string, target: CommitTarget, state: 'failed' | 'cancelled', error: Pick<ErrorInfo, 'code' | 'message'>): RunOutcome {
    // A fix run's message is the reply it revises until its first commit: not yet its own.
    const messageId = target.fixing ? null : target.messageId;
    return { runId, state, messageId, error: { code: error.code, message: error.message } };
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
