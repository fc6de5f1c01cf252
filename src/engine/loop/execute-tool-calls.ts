import { toolError } from '../../contract/errors';
import type { ModelTurn, ToolCall } from '../../contract/model';
import { failure } from '../../contract/tool-outcome';
import type { AgentInvocation } from '../agents/agent';
import type { PreparedCall } from '../agents/dispatch';
import { checkCancelled } from './cancelled';
import { executeToolCall } from './execute-tool-call';

/** Finish reasons that mean the provider cut the response at its length limit. */
const TRUNCATED = new Set(['length', 'max_tokens', 'MAX_TOKENS']);

/**
 * Answers every tool call of one model turn, in order. A response cut off by its length limit runs none of
 * them (their arguments may be cut too): each gets a recoverable error saying so. Calls after an accepted
 * finish in the same turn never run: the projection answers them as not run when the finish lands.
 */
export async function executeToolCalls(agent: AgentInvocation, turn: ModelTurn): Promise<void> {
    await executeRemainingCalls(agent, turn, 0);
}

/** Whether the turn's calls are refused unrun because the response was cut at its length limit. */
export function isTruncated(turn: ModelTurn): boolean {
    return turn.finishReason !== null && TRUNCATED.has(turn.finishReason);
}

/** Answers the turn's calls from index `from` on (a resumed run finishes the turn it was cut off in). */
export async function executeRemainingCalls(agent: AgentInvocation, turn: ModelTurn, from: number): Promise<void> {
    const truncated = isTruncated(turn);
    for (const call of turn.toolCalls.slice(from)) {
        if (agent.track.loop.finished) return;
        checkCancelled(agent);
        await executeToolCall(agent, call, truncated ? truncatedRefusal(agent, call) : undefined);
    }
}

function truncatedRefusal(agent: AgentInvocation, call: ToolCall): PreparedCall {
    const outcome = failure(
        toolError(
            'model.response_truncated',
            `Not run: your response was cut off at its length limit, so the arguments of ${call.name} may be incomplete.`,
            'Call the tool again with shorter arguments (write long text in several appends).',
        ),
    );
    return { ready: false, canonical: agent.dispatcher.canonicalName(call.name), outcome, counts: false };
}
