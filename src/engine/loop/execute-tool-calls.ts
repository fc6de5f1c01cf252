import { toolError } from '../../contract/errors';
import type { ModelTurn, ToolCall, WireMessage } from '../../contract/model';
import { failure, type ToolOutcome } from '../../tools/tool';
import type { PreparedCall } from '../agents/dispatch';
import { checkCancelled, type AgentInvocation } from '../agents/invocation';
import { executeToolCall } from './execute-tool-call';

/** Finish reasons that mean the provider cut the response at its length limit. */
const TRUNCATED = new Set(['length', 'max_tokens', 'MAX_TOKENS']);

/**
 * Answers every tool call of one model turn, in order. A response cut off by its length limit runs none of
 * them (their arguments may be cut too): each gets a recoverable error saying so. Calls after an accepted
 * finish in the same turn never run, yet the provider still needs an answer to each.
 */
export async function executeToolCalls(agent: AgentInvocation, turn: ModelTurn): Promise<void> {
    agent.conversation.push(assistantMessage(turn));
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
        if (agent.state.finished) {
            agent.conversation.push({ role: 'tool', tool_call_id: call.id, content: 'Not run: the run has already finished.' });
            continue;
        }
        checkCancelled(agent);
        const content = await executeToolCall(agent, call, truncated ? truncatedRefusal(agent, call) : undefined);
        agent.conversation.push({ role: 'tool', tool_call_id: call.id, content });
    }
}

function truncatedRefusal(agent: AgentInvocation, call: ToolCall): PreparedCall {
    const outcome: ToolOutcome = failure(
        toolError(
            'model.response_truncated',
            `Not run: your response was cut off at its length limit, so the arguments of ${call.name} may be incomplete.`,
            'Call the tool again with shorter arguments (write long text in several appends).',
        ),
    );
    return { ready: false, canonical: agent.dispatcher.canonicalName(call.name), outcome };
}

/** The assistant message that carries the turn's tool calls back to the provider, signatures included. */
export function assistantMessage(turn: ModelTurn): WireMessage {
    return {
        role: 'assistant',
        content: turn.text || null,
        tool_calls: turn.toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: call.argumentsText },
            ...(call.signature ? { signature: call.signature } : {}),
        })),
        ...(turn.native.signature ? { signature: turn.native.signature } : {}),
    };
}
