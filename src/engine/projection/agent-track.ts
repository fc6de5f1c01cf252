import type { EventFact, WrapUpReason } from '../../contract/events';
import type { ModelTurn, WireMessage } from '../../contract/model';
import type { PlanItem } from '../../contract/plan';
import type { Budget } from '../agents/budget';

/** Where one agent stands in its loop: what stops it, what it spent, what its next commit carries. */
export interface LoopState {
    finished: boolean;
    finishReason: string | null;
    reminders: number;
    /** Set when the budget ran out; the next model turn is the wrap-up turn. */
    wrapUp: WrapUpReason | null;
    wrapUpTurnTaken: boolean;
    tokensIn: number;
    tokensOut: number;
    /** The model's reasoning since the last commit: the committed reply carries it, as SillyTavern's replies do. */
    reasoning: string[];
}

/** The call of the open turn that has started and not ended, and the events it journaled meanwhile. */
export interface CutCall {
    callId: string;
    canonical: string | null;
    /** It counts against the budget, once its result is journaled (a call cut off and run again counts once). */
    counted: boolean;
    /** Events of a change (a write, a checkpoint, a commit, a sub-agent it started): running it again would repeat them. */
    effects: EventFact[];
}

/** The model turn whose calls are being answered, and how far the answers got. */
export interface OpenTurn {
    turn: ModelTurn;
    /** Index of the next call without a journaled result. */
    next: number;
    cut: CutCall | null;
}

/**
 * One agent's projection of the journal: the conversation the model is shown, its loop state and its
 * budget's counts. The live loop and a resume fold the same events into it (apply-event.ts), so what the
 * model saw before a cut is what it sees after.
 */
export interface AgentTrack {
    /** `root`, or the task id of a sub-agent: the stamp its events carry. */
    readonly agentKey: string;
    /** Notes differ for a sub-agent (its wrap-up turn has task.return, not commit and finish). */
    readonly inTask: boolean;
    readonly maxToolReminders: number;
    readonly conversation: WireMessage[];
    /** How many of its first messages are its starting context (instructions and SillyTavern's prompt). */
    readonly startLength: number;
    readonly loop: LoopState;
    readonly budget: Budget;
    open: OpenTurn | null;
    /** Tool results in the conversation not compacted yet, by their index in it: the call and the tool's name. */
    readonly results: Map<number, { callId: string; name: string }>;
    /** The agent's plan as its last plan.update left it (null before one): shown to the model each turn. */
    plan: PlanItem[] | null;
}

export const ROOT_AGENT_KEY = 'root';

export function newLoopState(): LoopState {
    return { finished: false, finishReason: null, reminders: 0, wrapUp: null, wrapUpTurnTaken: false, tokensIn: 0, tokensOut: 0, reasoning: [] };
}

export function newTrack(agentKey: string, budget: Budget, maxToolReminders: number, start: WireMessage[]): AgentTrack {
    return { agentKey, inTask: agentKey !== ROOT_AGENT_KEY, maxToolReminders, conversation: start, startLength: start.length, loop: newLoopState(), budget, open: null, plan: null, results: new Map() };
}
