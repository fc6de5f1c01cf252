import { taskWrapUpNotice, wrapUpNotice } from '../agents/instructions';
import { checkCancelled, type AgentInvocation } from '../agents/invocation';
import { callModel } from './call-model';
import { deliverGuidance } from './deliver-guidance';
import { executeToolCalls } from './execute-tool-calls';
import { answerPlainText } from './plain-text-turn';
import { checkStopConditions, type LoopEnd } from './stop-conditions';

/**
 * The agent loop (SPEC §1), the same for the root agent and a sub-agent:
 *
 *   until a stop condition holds (finish accepted, wrap-up turn spent):
 *     when the budget is spent, announce the wrap-up turn (only commit and finish remain)
 *     put finished sub-agent results the agent has not awaited into its next turn
 *     put the user's queued guidance into it, as a user note
 *     call the model
 *     plain text   → save it, remind the model (or fail after the last reminder)
 *     tool calls   → execute each in order, answering every one
 */
export async function runAgentLoop(agent: AgentInvocation): Promise<LoopEnd> {
    for (;;) {
        checkCancelled(agent);
        const end = checkStopConditions(agent);
        if (end) return end;
        await enterWrapUpWhenSpent(agent);
        await agent.tasks?.injectFinished(agent.conversation);
        await deliverGuidance(agent);
        const turn = await callModel(agent);
        if (turn.toolCalls.length === 0) await answerPlainText(agent, turn);
        else await executeToolCalls(agent, turn);
    }
}

async function enterWrapUpWhenSpent(agent: AgentInvocation): Promise<void> {
    if (agent.state.wrapUp !== null) return;
    const reason = agent.budget.wrapUpReason();
    if (!reason) return;
    agent.state.wrapUp = reason;
    await agent.journal.append('budget-wrap-up', { reason, rounds: agent.budget.rounds, calls: agent.budget.calls });
    agent.conversation.push({ role: 'user', content: agent.taskId ? taskWrapUpNotice(reason) : wrapUpNotice(reason) });
}
