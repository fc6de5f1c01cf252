import { isEndedState } from '../../contract/records';
import { fail, ok } from '../../contract/result';
import type { ArchiveApi } from '../../contract/wire';
import { newId } from '../../contract/new-id';
import { checkpointDiff, exportRun, importRun, listCheckpoints, listRunFiles, readRunFile, restoreCheckpoint } from '../archive/run-archive';
import { journalPutInChat } from '../archive/journal-put-in-chat';
import { webLocks } from '../tabs/protocol';
import { liveRunIds } from '../tabs/run-locks';
import { isCutOff } from '../tabs/sweep';
import { withStorage, type EngineState } from './engine-state';
import { IMPORTED_CHAT_KEY } from '../../contract/archive';

/** The archive facet: a stored run's files, checkpoints and diffs, restore, export, import and delete. */
export function createArchiveApi(state: EngineState): ArchiveApi {
    return {
        listRunFiles: (runId) => withStorage(state, (s) => listRunFiles(s, runId).then(ok)),
        readRunFile: (runId, path) => withStorage(state, (s) => readRunFile(s, runId, path)),
        listCheckpoints: (runId) => withStorage(state, (s) => listCheckpoints(s, runId).then(ok)),
        checkpointDiff: (runId, seq) => withStorage(state, (s) => checkpointDiff(s, runId, seq)),
        restoreCheckpoint: (runId, seq) => withStorage(state, (s) => restoreCheckpoint(s, runId, seq, state.running.has(runId))),
        journalPutInChat: (runId, seq, messageId) => withStorage(state, (s) => journalPutInChat(s, runId, seq, messageId, state.running.has(runId))),
        exportRun: (runId) => withStorage(state, (s) => exportRun(s, runId)),
        importRun: (text) => withStorage(state, (s) => importRun(s, text, `imported-${newId()}`)),
        deleteRun: (runId) =>
            withStorage(state, async (s) => {
                if (state.running.has(runId)) return fail('run.running', 'Stop the run before deleting it.');
                // Nor a run another tab is working on.
                const run = await s.getRun(runId);
                // An imported copy claiming to be running is no tab's run: it can always go (issue 39 §5).
                const imported = run?.chatKey === IMPORTED_CHAT_KEY;
                if (run && !imported && !isEndedState(run.state) && !isCutOff(run, await liveRunIds(), webLocks() ? Number.POSITIVE_INFINITY : Date.now())) {
                    return fail('run.running', 'Another tab is running this agent run; it cannot be deleted now.');
                }
                await s.deleteRun(runId);
                return ok(null);
            }),
    };
}
