import { fail, type Result } from '../../contract/result';
import { commitToChat } from '../chat/commit';
import { endedRunInOpenChat } from './ended-run-chat';
import { t } from '../../i18n/t';

/**
 * "Commit this text": puts a file of an ended run (a failed run's draft, the model's plain text in
 * output/direct_output.md) into the run's own chat as a new reply, through the same path as a run's
 * commit (saveReply, then saveChat; the message carries the run's marker). Refused unless that chat is
 * the one open, so text never lands in another chat.
 */
export async function commitDraft(runId: string, path: string): Promise<Result<{ messageId: number }>> {
    const checked = await endedRunInOpenChat(runId);
    if (!checked.ok) return checked;
    const { engine, identity } = checked.value;
    const file = await engine.readRunFile(runId, path);
    if (!file.ok) return file;
    if (!file.value.content.trim()) return fail('workspace.empty_artifact', t`This file is empty: there is nothing to commit.`);
    return commitToChat(
        { runId, identity, generationType: 'normal', messageId: null, closed: false },
        { runId, path, text: file.value.content, mode: 'replace', reason: 'Committed from the timeline.' },
    );
}
