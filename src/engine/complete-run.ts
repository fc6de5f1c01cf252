import { RunFailure } from '../contract/errors';
import { RECORD_VERSION } from '../contract/records';
import type { RunOutcome } from '../contract/run-input';
import { storageFailure } from '../store/storage-failure';
import type { Workspace } from '../workspace/workspace';
import type { RunSession } from './run-session';
import type { LoopEnd } from './stop-conditions';

/**
 * The run's successful end. persist/ reaches the chat only through an accepted workspace.finish (SPEC §3):
 * a run that stopped after its wrap-up turn keeps its committed reply, but not its memory changes.
 */
export async function completeRun(session: RunSession, workspace: Workspace, end: LoopEnd): Promise<RunOutcome> {
    const { journal, record, input } = session;
    await session.setState('finishing');
    if (end.reason === 'finished') {
        const persisted = workspace.filesUnder('persist');
        try {
            await session.deps.storage.putPersistState({ v: RECORD_VERSION, runId: input.runId, chatKey: record.chatKey, files: persisted, at: session.now() });
        } catch (error) {
            throw storageFailure(error);
        }
        await journal.append('persist-promote', { files: Object.keys(persisted).length });
        await journal.append('run-finish', { reason: end.note });
    } else {
        await journal.append('persist-skip', { reason: 'The run ended after its wrap-up turn without workspace.finish.' });
        await journal.append('run-finish', { reason: 'wrap-up turn ended without workspace.finish' });
    }
    await session.setState('completed');
    return { runId: input.runId, state: 'completed', messageId: record.messageId, error: null };
}

/** Any failure ends here: the record first (the run must never look alive), then the journal, if it can. */
export async function failRun(session: RunSession, error: unknown): Promise<RunOutcome> {
    const failure =
        error instanceof RunFailure
            ? error
            : new RunFailure('run.internal_error', 'Tavern Agent hit an internal error.', error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error));
    const { record, journal } = session;
    const cancelled = failure.code === 'run.cancelled';
    const from = record.state;
    record.error = { code: failure.code, message: failure.message };
    record.state = cancelled ? 'cancelled' : 'failed';
    await session.saveRecord().catch(() => undefined);
    try {
        if (cancelled) await journal.append('run-cancel', { reason: failure.message });
        else await journal.append('run-fail', { code: failure.code, message: failure.message, detail: failure.detail ?? null });
        await journal.append('run-state', { from, to: record.state });
    } catch {
        // Storage itself failed: the outcome below still tells the host what happened.
    }
    return { runId: session.input.runId, state: record.state, messageId: record.messageId, error: record.error };
}
