import type { Pipeline } from '../../contract/agent-mode';
import { applyPipelineChange, parsePipelineChange } from '../../contract/pipeline-change';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { isOpenChat, openChatIdentity } from '../sillytavern/chat-identity';
import { chatPipeline, storeChatPipeline } from '../settings/agent-mode';
import { storedProfiles } from '../settings/profile-store';
import { getEngine } from '../worker/worker-client';

/**
 * Sets any part of the open chat's pipeline (issue 34). Refused with a coded error, changing nothing, when
 * the change is malformed (`pipeline.invalid`), no chat is open (`host.no_chat`), or a profile the change names
 * does not exist or does not validate among the user's profiles (`profile.not_found`, `profile.invalid`).
 */
export async function setChatPipeline(change: unknown): Promise<Result<Pipeline>> {
    const parsed = parsePipelineChange(change);
    if (!parsed.ok) return parsed;
    const chat = openChatIdentity();
    if (!chat) return fail('host.no_chat', t`Open a chat first: the pipeline is set per chat.`);
    const now = chatPipeline();
    const next = applyPipelineChange(now, parsed.value);
    // Only the profiles this change brings in: one deleted since it was chosen still lets the other parts
    // change (the panel sends the whole after list when one keeper is moved or removed).
    const before = parsed.value.before && parsed.value.before !== now.before ? [parsed.value.before] : [];
    const named = [...before, ...(parsed.value.after ?? []).filter((id) => !now.after.includes(id))];
    if (named.length) {
        const engine = await getEngine();
        const stored = storedProfiles();
        for (const id of new Set(named)) {
            const resolved = await engine.resolveProfile(id, stored);
            if (!resolved.ok) return { ok: false, error: resolved.error };
        }
        // The new pipeline was made from this chat's: stored into another chat opened meanwhile, it would
        // replace that chat's whole pipeline with this one's.
        if (!isOpenChat(chat)) return fail('host.chat_changed', t`Another chat was opened while the pipeline was being checked; nothing was changed.`);
    }
    const saved = await storeChatPipeline(next);
    return saved.ok ? ok(saved.value.pipeline) : saved;
}
