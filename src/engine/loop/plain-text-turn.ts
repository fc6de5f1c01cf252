import { RunFailure } from '../../contract/errors';
import type { ModelTurn } from '../../contract/model';
import { toolReminder } from '../agents/instructions';
import type { AgentInvocation } from '../agents/invocation';

export const DIRECT_OUTPUT_PATH = 'output/direct_output.md';

/**
 * The model answered in plain text instead of calling tools (SPEC §1): keep the text in the workspace so
 * nothing is lost, remind the model, and fail once the reminders are used up.
 */
export async function answerPlainText(agent: AgentInvocation, turn: ModelTurn): Promise<void> {
    const { state, profile, conversation } = agent;
    await agent.workspace.write(DIRECT_OUTPUT_PATH, turn.text, 'direct_output');
    conversation.push({ role: 'assistant', content: turn.text, ...(turn.native.signature ? { signature: turn.native.signature } : {}) });
    if (state.reminders >= profile.maxToolReminders) {
        throw new RunFailure('model.tool_call_required', `The model answered in plain text instead of using tools. Its text is saved in ${DIRECT_OUTPUT_PATH}.`);
    }
    state.reminders += 1;
    await agent.journal.append('model-reminder', { round: agent.budget.rounds, attempt: state.reminders, savedTo: DIRECT_OUTPUT_PATH });
    conversation.push({ role: 'user', content: toolReminder(state.reminders, profile.maxToolReminders) });
}
