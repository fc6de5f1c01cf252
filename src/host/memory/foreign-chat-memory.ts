import type { ChatMarkers } from '../../contract/chat-markers';
import { latestChatMemory } from '../../contract/memory-chain';
import { MEMORY_SEED_KEY, readMemorySeed } from '../../contract/memory-seed';
import { memoryCarriers } from './memory-carriers';

/**
 * Another chat's latest memory (issue 37 §2): the last message that carries any, its delta chain resolved from
 * that chat's messages only; a chat none of whose messages carries memory still has the seed it was given, if
 * any (so memory carried A → B carries on B → C). Null when the chat holds no memory, or only an empty one.
 */
export async function foreignChatMemory(markers: ChatMarkers): Promise<Record<string, string> | null> {
    const files = (await latestChatMemory(memoryCarriers(markers.messages)))?.files ?? readMemorySeed({ [MEMORY_SEED_KEY]: markers.seed })?.files ?? null;
    return files && Object.keys(files).length ? files : null;
}
