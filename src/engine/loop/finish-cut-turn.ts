import { toolError } from '../../contract/errors';
import type { ToolCall } from '../../contract/model';
import { failure, success, type ToolOutcome } from '../../contract/tool-outcome';
import { delegatedOutcome } from '../../tools/agent/delegate';
import type { AgentInvocation } from '../agents/agent';
import type { CutCall } from '../projection/agent-track';
import { modelFacingText } from '../projection/model-notes';
import { executeRemainingCalls } from './execute-tool-calls';
import { answerPlainText } from './plain-text-turn';

/**
 * A resumed agent finishes the turn its journal was cut off in, so every call of it is answered before the
 * next model call. A call cut off before it changed anything runs again (a commit's host looks for its
 * message first); one cut off after is answered from what it changed, never run twice.
 */
export async function finishCutTurn(agent: AgentInvocation): Promise<void> {
    const open = agent.track.open;
    if (!open) return;
    if (open.turn.toolCalls.length === 0) {
        await answerPlainText(agent, open.turn);
        return;
    }
    const { turn, next, cut } = open;
    if (cut && cut.effects.length > 0) {
        await answerCutCall(agent, turn.toolCalls[next]!, cut);
        await executeRemainingCalls(agent, turn, next + 1);
        return;
    }
    await executeRemainingCalls(agent, turn, next);
}

/** Journals the result of a call cut off after it changed something, without running it again. */
async function answerCutCall(agent: AgentInvocation, call: ToolCall, cut: CutCall): Promise<void> {
    const outcome = cutOutcome(cut);
    const resultPath = `tool-results/${cut.callId}.json`;
    const content = modelFacingText(outcome, resultPath);
    const resultFile = { files: [agent.workspace.record(resultPath, JSON.stringify(outcome), 0)] };
    const options = { decoded: { outcome } };
    if (outcome.ok) await agent.journal.append('tool-call-complete', { callId: cut.callId, name: call.name, durationMs: 0, summary: content.slice(0, 200), resultPath }, resultFile, options);
    else await agent.journal.append('tool-call-fail', { callId: cut.callId, name: call.name, durationMs: 0, code: outcome.error.code, message: outcome.error.message, hint: outcome.error.hint, resultPath }, resultFile, options);
}

/** What a cut call did, told from its effects: its commit, the task it started, or what it touched. */
function cutOutcome(cut: CutCall): ToolOutcome {
    for (const effect of cut.effects) {
        if (effect.type === 'commit') {
            const commit = effect.payload;
            return success(`Committed ${commit.path} to the chat as message #${commit.messageId} (${commit.mode}). Call workspace_finish when the reply is complete.`, {
                path: commit.path,
                mode: commit.mode,
                messageId: commit.messageId,
                chars: commit.chars,
                reason: commit.reason,
            });
        }
        if (effect.type === 'task-start') return delegatedOutcome(effect.payload.taskId, effect.payload.agentId, effect.payload.agentName);
    }
    const touched = [...new Set(cut.effects.flatMap((effect) => ('path' in effect.payload && typeof effect.payload.path === 'string' ? [effect.payload.path] : [])))];
    return failure(
        toolError(
            'tool.interrupted',
            `This call was cut off by an interruption after it changed ${touched.join(', ') || 'the workspace'}; its result was lost.`,
            'Read the files it touched to see where they stand, then go on.',
        ),
    );
}
