import { RunFailure } from '../../contract/errors';
import type { CommitOutcome, RunControls } from '../../tools/tool';
import type { LoopState } from '../projection/agent-track';
import type { RunSession } from '../run/run-session';
import { EMPTY_STATE } from '../../contract/state';
import { stateWrites } from '../../state/state-view';
import { fixInstructionsLeak } from '../run/fix-run';

/**
 * A commit goes through the host (identity checked there); a host refusal ends the run, except a conflict
 * with the user's own edit, which the commit tool turns into a recoverable error.
 */
export async function commitThroughHost(session: RunSession, request: Parameters<RunControls['commit']>[0], loop: LoopState): Promise<CommitOutcome> {
    session.checkCancelled();
    // A fix run's own instructions never reach the chat, whatever the model copied into the file.
    const leak = session.input.fix ? fixInstructionsLeak(session.input.fix, request.text) : null;
    if (leak) return { refused: { code: 'workspace.empty_artifact', message: `${leak} Nothing was committed.`, userText: null } };
    await session.setState('awaiting_commit');
    const reasoning = loop.reasoning.join('\n\n');
    // Every change staged so far goes with each commit: a later commit replaces the text, and its state with it.
    const staged = session.projection.stateChanges.length;
    const state = staged ? stateWrites(session.input.state ?? EMPTY_STATE, session.projection.stateChanges) : [];
    const result = await session.deps.host.commit({ runId: session.input.runId, ...request, ...(reasoning ? { reasoning } : {}), ...(state.length ? { state } : {}) });
    if (!result.ok && (result.error.code === 'workspace.commit_conflict' || result.error.code === 'workspace.empty_artifact')) {
        await session.setState('running');
        const userText = result.error.code === 'workspace.commit_conflict' ? (result.error.detail ?? '') : null;
        return { refused: { code: result.error.code, message: result.error.message, userText } };
    }
    if (!result.ok) {
        const code = result.error.code === 'host.chat_changed' ? 'host.chat_changed' : 'host.commit_failed';
        throw new RunFailure(code, result.error.message, result.error.detail);
    }
    session.record.messageId = result.value.messageId;
    // The journal's projection clears the reasoning the reply now carries.
    await session.journal.append('commit', {
        path: request.path,
        mode: request.mode,
        messageId: result.value.messageId,
        chars: request.text.length,
        reason: request.reason,
    });
    if (state.length) await session.journal.append('state-write', { changes: staged, messageId: result.value.messageId, scopes: state.map((write) => write.scope) });
    await session.setState('running');
    return result.value;
}
