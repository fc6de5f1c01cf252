import { RunFailure } from '../../contract/errors';
import { RECORD_VERSION } from '../../contract/records';
import { BRIEF_PATH, type RunOutcome } from '../../contract/run-input';
import { briefText, phaseOf } from './phase-run';
import { storageFailure } from '../../store/storage-failure';
import type { Workspace } from '../../workspace/workspace';
import type { RunSession } from './run-session';
import type { LoopEnd } from '../loop/stop-conditions';
import type { MemoryBase } from './memory-base';
import { encodeMemory, MEMORY_MAX_BYTES, memoryBytes } from '../../contract/memory';
import { EMPTY_STATE } from '../../contract/state';
import { stateWrites } from '../../state/state-view';

/**
 * The run's successful end. persist/ reaches the chat only through an accepted workspace.finish (SPEC §3):
 * a run that stopped after its wrap-up turn keeps its committed reply, but not its memory changes.
 */
export async function completeRun(session: RunSession, workspace: Workspace, end: LoopEnd, base: MemoryBase): Promise<RunOutcome> {
    const { journal, record, input } = session;
    await session.setState('finishing');
    if (end.reason === 'finished') {
        const persisted = workspace.filesUnder('persist');
        try {
            await session.storage.putPersistState({ v: RECORD_VERSION, runId: input.runId, chatKey: record.chatKey, files: persisted, at: session.now() });
        } catch (error) {
            throw storageFailure(error);
        }
        await journal.append('persist-promote', { files: Object.keys(persisted).length });
        // A reply's memory goes into the message it committed; a keeper's into the reply it follows. A memory
        // build's chunk writes no message at all: its memory (the persist state above) goes back to the build.
        if (session.hasCommitted || (phaseOf(input) === 'after' && !input.build)) {
            await writeStagedState(session);
            await attachMemory(session, persisted, base);
        }
        await journal.append('run-finish', { reason: end.note });
    } else {
        await journal.append('persist-skip', { reason: 'The run ended after its wrap-up turn without workspace.finish.' });
        await journal.append('run-finish', { reason: 'wrap-up turn ended without workspace.finish' });
    }
    await session.setState('completed');
    const brief = phaseOf(input) === 'before' ? { brief: briefText(workspace.get(BRIEF_PATH)?.content) } : {};
    return { runId: input.runId, state: 'completed', messageId: record.messageId, error: null, ...brief };
}

/**
 * State staged after the run's last commit (or by a keeper, which never commits) is written when the run
 * finishes: into its reply, or the reply a keeper follows. A refused write never undoes the reply; the journal
 * says why, and the changes stay in the run.
 */
async function writeStagedState(session: RunSession): Promise<void> {
    const { projection, deps, input } = session;
    if (projection.stateChanges.length <= projection.stateWritten || !deps.host.writeState) return;
    const writes = stateWrites(input.state ?? EMPTY_STATE, projection.stateChanges);
    if (!writes.length) return;
    const result = await deps.host.writeState({ runId: input.runId, writes });
    if (result.ok) {
        await session.journal.append('state-write', { changes: projection.stateChanges.length, messageId: result.value.messageId, scopes: writes.map((write) => write.scope) });
    } else {
        await session.journal.append('state-write', { changes: projection.stateWritten, messageId: null, scopes: writes.map((write) => write.scope), error: result.error.message });
    }
}

const sameFiles = (a: Record<string, string>, b: Record<string, string>) =>
    Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([path, content]) => b[path] === content);

/**
 * The memory travels with the chat (SPEC §4): written into the message this run committed, as the change
 * against the memory it started from when the chat holds that base and the change is smaller. A failed or
 * refused write never undoes the reply: the memory stays in this browser, and the journal says why.
 */
async function attachMemory(session: RunSession, files: Record<string, string>, base: MemoryBase): Promise<void> {
    const { host } = session.deps;
    if (!host.attachMemory) return;
    // Nothing to write (and no chat save) when an earlier message already carries this memory, or there
    // is no memory at all: the next run's base resolves to the same files either way.
    const empty = Object.keys(files).length === 0 && Object.keys(base.files).length === 0;
    if (empty || (base.inChat && sameFiles(files, base.files))) return;
    const memory = encodeMemory(files, base.inChat && base.runId ? { runId: base.runId, files: base.files } : null);
    const mode = 'files' in memory ? 'full' : 'delta';
    const bytes = memoryBytes(memory);
    const result = await host.attachMemory({ runId: session.input.runId, memory });
    const reason = !result.ok
        ? result.error.message
        : result.value.stored
          ? null
          : `The memory (${bytes} bytes) is over the ${MEMORY_MAX_BYTES} bytes a message may carry; it is kept in this browser only.`;
    const carried = result.ok && result.value.stored;
    // Retention keeps a run holding the only copy of its chat's memory until a later reply carries one.
    session.record.memory = { carried, bytes };
    await session.journal.append('memory-attach', { stored: carried, mode, bytes, reason });
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
    await saveEndState(session, failure);
    try {
        if (cancelled) await journal.append('run-cancel', { reason: failure.message });
        else await journal.append('run-fail', { code: failure.code, message: failure.message, detail: failure.detail ?? null });
        await journal.append('run-state', { from, to: record.state });
    } catch {
        // Storage itself failed: the outcome below still tells the host what happened.
    }
    return { runId: session.input.runId, state: record.state, messageId: record.messageId, error: record.error };
}

/**
 * Storage full: the failed run's own drafts (files, checkpoints) are dropped to make room for its end state,
 * so it never stays `running`; the journal and every other run are left whole.
 */
async function saveEndState(session: RunSession, failure: RunFailure): Promise<void> {
    try {
        await session.saveRecord();
        return;
    } catch {
        if (failure.code !== 'store.quota_exceeded') return;
    }
    try {
        await session.storage.dropRunData(session.input.runId);
        await session.saveRecord();
    } catch {
        // Nothing more to free: the next engine start marks the run interrupted.
    }
}
