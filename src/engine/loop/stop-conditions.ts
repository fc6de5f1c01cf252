import { RunFailure } from '../../contract/errors';
import type { AgentInvocation } from '../agents/agent';

/** Why an agent's loop ended without failing. Only `finished` promotes persist/ (SPEC §3 workspace.finish). */
export type LoopEnd = { reason: 'finished'; note: string | null } | { reason: 'wrap-up-ended' };

/** A small predicate over the agent's state: a reason to stop, or null to go on. May throw a RunFailure. */
export type StopCondition = (agent: AgentInvocation) => LoopEnd | null;

/** `workspace.finish` was accepted. */
export const finishAccepted: StopCondition = ({ track }) => (track.loop.finished ? { reason: 'finished', note: track.loop.finishReason } : null);

/**
 * The wrap-up turn has passed without a finish: a committed reply (or a background agent's work) stands,
 * otherwise the run fails rather than end with nothing in the chat.
 */
export const wrapUpTurnSpent: StopCondition = (agent) => {
    if (!agent.track.loop.wrapUpTurnTaken) return null;
    if (agent.session.hasCommitted || !agent.foreground) return { reason: 'wrap-up-ended' };
    throw new RunFailure('run.budget_exhausted', 'The agent used its whole budget without committing a reply.');
};

export const STOP_CONDITIONS: readonly StopCondition[] = [finishAccepted, wrapUpTurnSpent];

export function checkStopConditions(agent: AgentInvocation, conditions: readonly StopCondition[] = STOP_CONDITIONS): LoopEnd | null {
    for (const condition of conditions) {
        const end = condition(agent);
        if (end) return end;
    }
    return null;
}
