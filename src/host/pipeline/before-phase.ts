import type { Profile } from '../../contract/profile';
import { fail, type Result } from '../../contract/result';
import type { GenerationType } from '../../contract/run-input';
import type { RunObserver } from '../../contract/run-observer';
import { failureText } from '../../i18n/failure-text';
import { t } from '../../i18n/t';
import { launchRun } from '../run/new-run';
import { storedProfiles } from '../settings/profile-store';
import { markedBrief, writeBrief } from '../sillytavern/message-marker';
import { stContext } from '../sillytavern/st-context';
import { toasts } from '../sillytavern/toasts';
import type { BriefPlacement } from '../sillytavern/turn-brief';
import { getEngine } from '../worker/worker-client';
import type { Turn } from './turn';

/** What the before phase leaves for the reply. */
export type TurnPlan =
    /** A brief (maybe empty: the director wrote none), and where the profile puts it into SillyTavern's prompt. */
    | { kind: 'brief'; text: string; placement: BriefPlacement; reused: boolean }
    /** No brief: the director failed (a toast said why), and the reply goes on without one. */
    | { kind: 'none' }
    /** The user stopped the director: the turn ends here, nothing is generated. */
    | { kind: 'stopped' };

const planningFailed = () => t`Planning failed: the reply is written without a brief`;

/**
 * The before phase of a turn (issue 34 §2): the director's brief for the turn's message. A swipe or
 * regenerate of the reply to that same message reuses the brief stored on it, made by the same profile,
 * unless the profile says `replanOnSwipe`; otherwise the director runs, as any run does (same launch path,
 * timeline and Stop), and its brief is stored on the message.
 */
export async function planTurn(profileId: string, type: GenerationType, turn: Turn, observer: RunObserver): Promise<TurnPlan> {
    let resolved: Result<Profile>;
    try {
        resolved = await (await getEngine()).resolveProfile(profileId, storedProfiles());
    } catch (error) {
        // The worker did not start: no director, as when it fails.
        resolved = fail('host.engine_crashed', error instanceof Error ? error.message : String(error));
    }
    if (!resolved.ok) {
        toasts.error(`${failureText(resolved.error)} (${resolved.error.code})`, planningFailed());
        return { kind: 'none' };
    }
    const { depth, role, replanOnSwipe } = resolved.value.brief;
    const placement = { depth, role };
    const stored = turn.anchor ? markedBrief(turn.anchor) : null;
    const reusable = stored && stored.profileId === profileId ? stored : null;
    // SillyTavern's generation going on after its own tool calls is the same turn: its brief again, never a new plan.
    if (turn.toolCallsGoOn) return reusable ? { kind: 'brief', text: reusable.text, placement, reused: true } : { kind: 'none' };
    if ((type === 'swipe' || type === 'regenerate') && !replanOnSwipe && reusable) return { kind: 'brief', text: reusable.text, placement, reused: true };
    const launched = launchRun({ type, profileId, phase: 'before', ...(turn.turnId ? { turnId: turn.turnId } : {}), failureTitle: planningFailed() }, observer);
    // The takeover checked that no run was going; one that started since holds the turn.
    if (!launched) return { kind: 'stopped' };
    const outcome = await launched.outcome;
    if (outcome.state === 'cancelled') return { kind: 'stopped' };
    if (outcome.state === 'failed') return { kind: 'none' };
    const text = outcome.brief ?? '';
    // Saved with the chat by the reply's own save (SillyTavern's, or the agent's commit).
    if (turn.anchor && stContext().chat.includes(turn.anchor)) writeBrief(turn.anchor, { text, profileId, runId: launched.runId });
    return { kind: 'brief', text, placement, reused: false };
}
