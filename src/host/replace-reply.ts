import { IMPORTED_CHAT_KEY } from '../contract/archive';
import type { ChatIdentity } from '../contract/run-input';
import { fail, type Result } from '../contract/result';
import { commitToChat } from './commit';
import { t } from '../i18n/t';
import { replyPlace } from './reply-place';
import { activeRun } from './run-controller';
import { currentIdentity } from './snapshot';
import { getEngine } from './worker-client';

/**
 * "Put this version in the chat": a checkpoint's text replaces the reply the run committed, through the
 * same commit path as a run's own replace commit (identity checked, the message must still carry the run's
 * marker, one chat save). Refused while anything generates, for imported runs, in another chat, and when
 * the reply is no longer shown (replaced, swiped away, deleted): it never overwrites another reply.
 */
export async function replaceReplyWithCheckpoint(runId: string, seq: number): Promise<Result<{ messageId: number }>> {
    if (activeRun()) return fail('run.running', t`Wait until the current agent run has ended.`);
    if (document.body.dataset.generating !== undefined) return fail('run.running', t`Wait until SillyTavern has finished generating.`);
    const engine = await getEngine();
    const run = await engine.getRun(runId);
    if (!run.ok) return run;
    if (run.value.chatKey === IMPORTED_CHAT_KEY) return fail('run.read_only', t`Imported runs are read-only.`);
    let identity: ChatIdentity;
    try {
        identity = currentIdentity();
    } catch {
        return fail('host.chat_changed', t`Open the chat this run belongs to first.`);
    }
    if (identity.chatId !== run.value.chatId || identity.integrity !== run.value.chatKey) {
        return fail('host.chat_changed', t`This run belongs to another chat. Open that chat first.`);
    }
    const place = replyPlace(runId, run.value.messageId);
    if (place.state !== 'shown') {
        return fail('host.commit_failed', t`This run's reply is no longer shown in the chat (replaced, swiped away or deleted), so nothing was changed. Use "Commit this text" for a new reply.`);
    }
    const diff = await engine.checkpointDiff(runId, seq);
    if (!diff.ok) return diff;
    if (!diff.value.after.trim()) return fail('workspace.empty_artifact', t`This version is empty: there is nothing to put in the chat.`);
    return commitToChat(
        { runId, identity, generationType: 'normal', messageId: place.index, closed: false },
        { runId, path: diff.value.path, text: diff.value.after, mode: 'replace', reason: 'A checkpoint put in the chat from the timeline.' },
    );
}
