import { RunFailure } from '../../contract/errors';
import type { ModelTurn } from '../../contract/model';
import type { AgentInvocation } from '../agents/agent';

export const DIRECT_OUTPUT_PATH = 'output/direct_output.md';

/**
 * The model answered in plain text instead of calling tools (SPEC §1): keep the text in the workspace so
 * nothing is lost, remind the model, and fail once the reminders are used up.
 */
export async function answerPlainText(agent: AgentInvocation, turn: ModelTurn): Promise<void> {
    const { track, profile } = agent;
    await agent.workspace.write(DIRECT_OUTPUT_PATH, turn.text, 'direct_output');
    if (track.loop.reminders >= profile.maxToolReminders) {
        throw new RunFailure('model.tool_call_required', `The model answered in plain text instead of using tools. Its text is saved in ${DIRECT_OUTPUT_PATH}.`);
    }
    await agent.journal.append('model-reminder', { round: track.budget.rounds, attempt: track.loop.reminders + 1, savedTo: DIRECT_OUTPUT_PATH });
}
