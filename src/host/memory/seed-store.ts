import { MEMORY_SEED_KEY, MEMORY_SEED_MAX_BYTES, memorySeedBytes, readMemorySeed, type MemorySeed } from '../../contract/memory-seed';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import type { ChatIdentity } from '../../contract/run-input';
import { isOpenChat, openChatIdentity } from '../sillytavern/chat-identity';
import { stContext } from '../sillytavern/st-context';

/** The open chat's memory seed, or null (none, no chat open, or one that does not parse). */
export function openChatSeed(): MemorySeed | null {
    return openChatIdentity() ? readMemorySeed(stContext().chatMetadata) : null;
}

/**
 * Stores `seed` (or removes the seed, for null) in the metadata of the chat `into`, which must be the open chat:
 * a seed is written only into the chat it was meant for, never into the one open by the time it is ready.
 */
export async function writeMemorySeed(into: ChatIdentity, seed: MemorySeed | null): Promise<Result<{ bytes: number }>> {
    if (!isOpenChat(into)) return fail('memory.chat_changed', t`Another chat is open now: the memory seed was not stored.`);
    const bytes = seed ? memorySeedBytes(seed) : 0;
    if (bytes > MEMORY_SEED_MAX_BYTES) return fail('memory.seed_too_large', `${t`This memory is over the size that travels with a chat.`} (${bytes} / ${MEMORY_SEED_MAX_BYTES} ${t`bytes`})`);
    const context = stContext();
    if (seed) context.chatMetadata[MEMORY_SEED_KEY] = seed;
    else delete context.chatMetadata[MEMORY_SEED_KEY];
    try {
        await context.saveMetadata();
    } catch (error) {
        return fail('host.commit_failed', t`SillyTavern could not save the chat.`, error instanceof Error ? error.message : String(error));
    }
    return ok({ bytes });
}
