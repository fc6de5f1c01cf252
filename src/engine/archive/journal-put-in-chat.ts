import { fail, ok, type Result } from '../../contract/result';
import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import { RECORD_VERSION } from '../../contract/records';
import type { RunStorage } from '../../store/run-storage';
import { makeCheckpoint, rebuildCheckpoint } from '../../workspace/checkpoints';
import { Journal } from '../journal/journal';
import { checkpointDiff } from './run-archive';

/**
 * The trace of "Put this version in the chat", journaled after the host replaced the run's reply with a
 * checkpoint's text: the file is that text again (a restore, when it was not), a commit event names the
 * message, and a commit checkpoint holds the text now in the chat. So the timeline gains a row, the
 * checkpoint list shows which version the chat holds, and an export tells the same story as the chat.
 */
export async function journalPutInChat(storage: RunStorage, runId: string, seq: number, messageId: number, running: boolean): Promise<Result<{ path: string; version: number }>> {
    if (running) return fail('run.running', 'Stop the run before putting one of its versions in the chat.');
    const run = await storage.getRun(runId);
    if (!run) return fail('run.not_found', 'This run no longer exists.');
    if (run.chatKey === IMPORTED_CHAT_KEY) return fail('run.read_only', 'Imported runs are read-only.');
    const diff = await checkpointDiff(storage, runId, seq);
    if (!diff.ok) return diff;
    const { path, after } = diff.value;
    const now = Date.now();
    const events = await storage.listEvents(runId);
    const journal = new Journal(runId, storage, () => undefined, Date.now, (events.at(-1)?.seq ?? -1) + 1);
    const current = await storage.getFile(runId, path);
    let version = current?.version ?? 0;
    if (current?.content !== after) {
        version += 1;
        await storage.putFile({ v: RECORD_VERSION, runId, path, content: after, version, updatedAt: now });
        await journal.append('checkpoint-restore', { seq, path, version });
    }
    await journal.append('commit', { path, mode: 'replace', messageId, chars: after.length, reason: `Checkpoint ${seq} put in the chat from the timeline.` });
    const all = await storage.listCheckpoints(runId);
    const chain = all.filter((c) => c.path === path).sort((a, b) => a.seq - b.seq);
    const previous = chain.length ? rebuildCheckpoint(chain, chain.at(-1)!.seq) : null;
    const next = Math.max(-1, ...all.map((c) => c.seq)) + 1;
    const record = makeCheckpoint({ runId, seq: next, path, previous, next: after, indexForPath: chain.length, at: now });
    await journal.append('checkpoint', { seq: next, path, version, full: record.full !== null, kind: 'commit' }, { checkpoints: [record] });
    if (run.messageId !== messageId) await storage.putRun({ ...run, messageId, updatedAt: now });
    return ok({ path, version });
}
