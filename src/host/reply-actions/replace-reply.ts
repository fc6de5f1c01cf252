import { fail, type Result } from '../../contract/result';
import { commitToChat } from '../chat/commit';
import { endedRunInOpenChat } from './ended-run-chat';
import { t } from '../../i18n/t';
import { replyPlace } from '../chat/reply-place';

/**
 * "Put this version in the chat": a checkpoint's text replaces the reply the run committed, through the
 * same commit path as a run's own replace commit (identity checked, the message must still carry the run's
 * marker, one chat save). Refused while anything generates, for imported runs, in another chat, and when
 * the reply is no longer shown (replaced, swiped away, deleted): it never overwrites another reply.
 */
export async function replaceReplyWithCheckpoint(runId: string, seq: number): Promise<Result<{ messageId: number }>> {
    const checked = await endedRunInOpenChat(runId);
    if (!checked.ok) return checked;
    const { engine, run, identity } = checked.value;
    const place = replyPlace(runId, run.messageId);
    if (place.state !== 'shown') {
        return fail('host.commit_failed', t`This run's reply is no longer shown in the chat (replaced, swiped away or deleted), so nothing was changed. Use "Commit this text" for a new reply.`);
    }
    const diff = await engine.checkpointDiff(runId, seq);
    if (!diff.ok) return diff;
    if (!diff.value.after.trim()) return fail('workspace.empty_artifact', t`This version is empty: there is nothing to put in the chat.`);
    const committed = await commitToChat(
        { runId, identity, generationType: 'normal', messageId: place.index, closed: false },
        { runId, path: diff.value.path, text: diff.value.after, mode: 'replace', reason: 'A checkpoint put in the chat from the timeline.' },
    );
    if (!committed.ok) return committed;
    // Like a run's own commit: the chat first, then the journal (a refused commit leaves no trace to undo).
    const journaled = await engine.journalPutInChat(runId, seq, committed.value.messageId);
    return journaled.ok ? committed : journaled;
}
