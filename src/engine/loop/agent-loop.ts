import type { AgentInvocation } from '../agents/agent';
import { callModel } from './call-model';
import { checkCancelled } from './cancelled';
import { compactConversation } from './compact-conversation';
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
 *     when the request would pass the compaction threshold, stub the old tool results
 *     call the model
 *     plain text   → save it, remind the model (or fail after the last reminder)
 *     tool calls   → execute each in order, answering every one
 *
 * Every step is an event: appended to the journal, then applied to the agent's track (its conversation,
 * loop state and budget) by the one reducer a resume folds the journal through (projection/apply-event.ts).
 */
export async function runAgentLoop(agent: AgentInvocation): Promise<LoopEnd> {
    for (;;) {
        checkCancelled(agent);
        const end = checkStopConditions(agent);
        if (end) return end;
        await enterWrapUpWhenSpent(agent);
        await agent.tasks?.injectFinished();
        await deliverGuidance(agent);
        await compactConversation(agent);
        const turn = await callModel(agent);
        if (turn.toolCalls.length === 0) await answerPlainText(agent, turn);
        else await executeToolCalls(agent, turn);
    }
}

async function enterWrapUpWhenSpent(agent: AgentInvocation): Promise<void> {
    const { loop, budget } = agent.track;
    if (loop.wrapUp !== null) return;
    const reason = budget.wrapUpReason();
    if (!reason) return;
    await agent.journal.append('budget-wrap-up', { reason, rounds: budget.rounds, calls: budget.calls, maxRounds: agent.profile.tools.maxRounds });
}
