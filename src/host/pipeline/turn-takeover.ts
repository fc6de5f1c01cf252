import type { GenerationType, RunOutcome } from '../../contract/run-input';
import type { RunObserver } from '../../contract/run-observer';
import { t } from '../../i18n/t';
import { activeRun } from '../run/active-run';
import { setDefaultRunObserver } from '../run/default-observer';
import type { GenerateInterceptor } from '../run/interceptor';
import { launchRun } from '../run/new-run';
import { chatPipeline } from '../settings/agent-mode';
import { openChatIdentity, sameChat } from '../sillytavern/chat-identity';
import { toasts } from '../sillytavern/toasts';
import { injectTurnBrief } from '../sillytavern/turn-brief';
import { planTurn, type TurnPlan } from './before-phase';
import { currentTurn, type Turn } from './turn';

/** What the takeover tells of an agent's reply that landed, for the agents after it. */
export type AgentReplyListener = (outcome: RunOutcome, turn: Turn) => void;

/**
 * The agent's takeover of a SillyTavern generation (Send, Regenerate, Swipe with Agent Mode on), by the
 * chat's pipeline (issue 34). It awaits its runs inside the generate interceptor, so SillyTavern stays busy
 * (Send blocked, Stop shown) as during its own generation:
 *   1. before: the director's brief for the turn (a new run, or the one stored for a swipe); Stop ends the turn;
 *   2. reply: the chat's agent writes it, reading the brief, and SillyTavern's own generation is aborted so
 *      exactly one reply is made; or SillyTavern writes it, with the brief as an extension prompt of that
 *      generation only, and the takeover lets it go on;
 *   3. after: an agent's reply is handed to `onAgentReply` (SillyTavern's own is seen as it lands).
 * With the default pipeline that is today's takeover: one agent run writes the reply.
 */
export function createTurnTakeover(observer: RunObserver, onAgentReply: AgentReplyListener): GenerateInterceptor {
    setDefaultRunObserver(observer);
    return async (_chat, _contextSize, abort, type) => {
        const pipeline = chatPipeline();
        // SillyTavern writes the reply and nobody plans it: nothing to do here (keepers follow the reply).
        if (pipeline.reply === 'sillytavern' && pipeline.before === null) return;
        let sillyTavernWrites = false;
        try {
            if (activeRun()) {
                if (pipeline.reply === 'sillytavern') {
                    // The director cannot run beside another run: as when it fails, the reply goes on without a brief.
                    toasts.warning(`${t`An agent run is already in progress.`} (run.already_running)`, t`Planning failed: the reply is written without a brief`);
                    sillyTavernWrites = true;
                } else {
                    toasts.warning(t`An agent run is already in progress.`);
                }
                return;
            }
            const generationType = type as GenerationType;
            const turn = currentTurn(generationType);
            const identity = openChatIdentity();
            let plan: TurnPlan = { kind: 'none' };
            if (pipeline.before !== null) {
                plan = await planTurn(pipeline.before, generationType, turn, observer);
                const now = openChatIdentity();
                if (plan.kind === 'stopped' || !identity || !now || !sameChat(identity, now)) return;
            }
            const brief = plan.kind === 'brief' ? plan.text.trim() : '';
            if (pipeline.reply === 'sillytavern') {
                if (plan.kind === 'brief' && brief) injectTurnBrief(brief, plan.placement);
                sillyTavernWrites = true;
                return;
            }
            const launched = launchRun({ type: generationType, ...(brief ? { brief } : {}), ...(turn.turnId ? { turnId: turn.turnId } : {}) }, observer);
            const outcome = await launched?.outcome;
            if (outcome?.state === 'completed' && outcome.messageId !== null) onAgentReply(outcome, turn);
        } finally {
            // Whatever happened, SillyTavern's own generation runs only when it writes the reply.
            if (!sillyTavernWrites) abort(true);
        }
    };
}
