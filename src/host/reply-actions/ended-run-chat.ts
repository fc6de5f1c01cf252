import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import type { RunRecord } from '../../contract/records';
import type { ChatIdentity } from '../../contract/run-input';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { activeRun } from '../run/active-run';
import { openChatIdentity } from '../sillytavern/chat-identity';
import { sillyTavernGenerating } from '../sillytavern/generating-state';
import { getEngine } from '../worker/worker-client';

type Engine = Awaited<ReturnType<typeof getEngine>>;

/**
 * What a commit from the timeline needs (Commit this text, Put this version in the chat): an ended run of
 * the chat that is open, while nothing generates. Refused otherwise, so text never lands in another chat.
 */
export async function endedRunInOpenChat(runId: string): Promise<Result<{ engine: Engine; run: RunRecord; identity: ChatIdentity }>> {
    if (activeRun()) return fail('run.running', t`Wait until the current agent run has ended.`);
    if (sillyTavernGenerating()) return fail('run.running', t`Wait until SillyTavern has finished generating.`);
    const engine = await getEngine();
    const run = await engine.getRun(runId);
    if (!run.ok) return run;
    if (run.value.chatKey === IMPORTED_CHAT_KEY) return fail('run.read_only', t`Imported runs are read-only.`);
    const identity = openChatIdentity();
    if (!identity) return fail('host.chat_changed', t`Open the chat this run belongs to first.`);
    if (identity.chatId !== run.value.chatId || identity.integrity !== run.value.chatKey) {
        return fail('host.chat_changed', t`This run belongs to another chat. Open that chat first.`);
    }
    return ok({ engine, run: run.value, identity });
}
