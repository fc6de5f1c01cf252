import { IMPORTED_CHAT_KEY } from '../contract/archive';
import type { ChatIdentity } from '../contract/run-input';
import { fail, type Result } from '../contract/result';
import { commitToChat } from './commit';
import { t } from '../i18n/t';
import { activeRun } from './run-controller';
import { currentIdentity } from './snapshot';
import { getEngine } from './worker-client';

/**
 * "Commit this text": puts a file of an ended run (a failed run's draft, the model's plain text in
 * output/direct_output.md) into the run's own chat as a new reply, through the same path as a run's
 * commit (saveReply, then saveChat; the message carries the run's marker). Refused unless that chat is
 * the one open, so text never lands in another chat.
 */
export async function commitDraft(runId: string, path: string): Promise<Result<{ messageId: number }>> {
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
    const file = await engine.readRunFile(runId, path);
    if (!file.ok) return file;
    if (!file.value.content.trim()) return fail('workspace.empty_artifact', t`This file is empty: there is nothing to commit.`);
    return commitToChat(
        { runId, identity, generationType: 'normal', messageId: null, closed: false },
        { runId, path, text: file.value.content, mode: 'replace', reason: 'Committed from the timeline.' },
    );
}
