import type { WrapUpReason } from '../../contract/events';
import type { ModelTurn, WireMessage } from '../../contract/model';
import { toolResultText } from '../../contract/tool-result-text';
import type { ToolOutcome } from '../../contract/tool-outcome';

/**
 * What the model reads besides its own turns and the prompt: tool results, reminders, notices, guidance
 * and sub-agent results. The journal's reducer writes them; one place, so a resumed run reads them word
 * for word as the live run did.
 */

/** No tool result the model reads is longer than this; the full result stays in `tool-results/`. */
export const MAX_TOOL_OUTPUT_CHARS = 100_000;

/** The answer to a call after an accepted finish in the same turn: never run, yet the provider needs one. */
export const NOT_RUN_AFTER_FINISH = 'Not run: the run has already finished.';

/** What the model reads of an outcome: the result text, capped, pointing at the full result when cut. */
export function modelFacingText(outcome: ToolOutcome, resultPath: string): string {
    const text = toolResultText(outcome);
    if (text.length <= MAX_TOOL_OUTPUT_CHARS) return text;
    return `${text.slice(0, MAX_TOOL_OUTPUT_CHARS)}\n[Tavern Agent: output cut at ${MAX_TOOL_OUTPUT_CHARS} of ${text.length} characters; the full result is kept in ${resultPath}. Ask for less, e.g. a smaller range.]`;
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

/** A plain-text turn as the conversation keeps it (before its reminder). */
export function plainTextMessage(turn: ModelTurn): WireMessage {
    return { role: 'assistant', content: turn.text, ...(turn.native.signature ? { signature: turn.native.signature } : {}) };
}

export function toolReminder(attempt: number, max: number): string {
    return `[Tavern Agent reminder ${attempt}/${max}] Your last answer was plain text, which does not reach the chat. It was saved to output/direct_output.md. Use the tools: write the reply to a file, commit it with workspace_commit, then call workspace_finish.`;
}

export function taskWrapUpNotice(reason: WrapUpReason): string {
    const what = reason === 'maxRounds' ? 'model turns' : 'tool calls';
    return `[Tavern Agent] This task has used all its ${what}. This is your last turn: only task_return is available. Return what you found so far.`;
}

export function wrapUpNotice(reason: WrapUpReason): string {
    const what = reason === 'maxRounds' ? 'model turns' : 'tool calls';
    return `[Tavern Agent] This run has used all its ${what}. This is your last turn: only workspace_commit and workspace_finish are available. Commit the best reply you have (output/main.md) and finish.`;
}

/** The one line a compacted tool result leaves in the conversation (issue 38 §3). */
export function compactedStub(name: string, callId: string, path: string): string {
    return `[Tavern Agent] The result of ${name} (${callId}) was compacted to save context; read it again with workspace_read_file {"path": "${path}"} if you need it.`;
}

/** What the model reads when the user gives a run that ran out of its budget more rounds (issue 38 §5). */
export function continueNotice(rounds: number): string {
    return `[Tavern Agent] The user gave this run ${rounds} more model turns. All your tools are available again. Go on with the task where you left off; your committed reply is still in the chat: workspace_commit (replace) updates it. Commit again and finish when done.`;
}

export interface GuidanceNote {
    guidanceId: string;
    text: string;
}

/** The user note the model sees: marked as guidance sent during the run, so it is not mistaken for a chat turn. */
export function guidanceMessage(notes: readonly GuidanceNote[]): string {
    const lines = notes.map((note) => note.text);
    return [
        '[Tavern Agent] The user sent guidance while you were working. Take it into account from now on:',
        ...(lines.length === 1 ? lines : lines.map((line, i) => `${i + 1}. ${line}`)),
    ].join('\n');
}

/** Finished sub-agent results the parent has not awaited, as the note put into its next turn. */
export function taskResultsMessage(capsules: readonly unknown[]): string {
    return `[Tavern Agent] Sub-agent results you have not awaited yet:\n${JSON.stringify(capsules, null, 1)}`;
}
