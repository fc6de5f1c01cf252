import type { JournalEvent } from '../../contract/events';
import type { FailedStart } from '../../contract/failed-start';
import { RECORD_VERSION, type RunRecord } from '../../contract/records';
import type { RunStorage } from '../../store/run-storage';
import { Journal } from '../journal/journal';

/**
 * Keeps a run that failed before it started (issue 39 §10) as a failed run: its journal (created, failed with
 * the reason, its state) and then its record, as a run that failed in the engine leaves them. A run that has a
 * record already got further than its start, and keeps what it has: nothing is written, no event returned.
 */
export async function recordFailedStart(storage: RunStorage, failed: FailedStart, now: () => number = Date.now): Promise<JournalEvent[]> {
    if (await storage.getRun(failed.runId)) return [];
    const events: JournalEvent[] = [];
    const journal = new Journal(failed.runId, storage, (event) => events.push(event), now);
    const { chatKey, chatId, profileId, generationType, foreground, error } = failed;
    await journal.append('run-create', { chatKey, chatId, profileId, generationType, foreground });
    await journal.append('run-fail', { code: error.code, message: error.message, detail: null });
    await journal.append('run-state', { from: 'created', to: 'failed' });
    const at = now();
    const record: RunRecord = {
        v: RECORD_VERSION,
        runId: failed.runId,
        chatKey,
        chatId,
        profileId,
        generationType,
        state: 'failed',
        messageId: null,
        error: { code: error.code, message: error.message },
        createdAt: at,
        updatedAt: at,
        ...(failed.phase && failed.phase !== 'reply' ? { phase: failed.phase } : {}),
        ...(failed.turnId ? { turnId: failed.turnId } : {}),
    };
    await storage.putRun(record);
    return events;
}
