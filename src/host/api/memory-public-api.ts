import { TavernAgentError } from '../../contract/tavern-agent-error';
import { seedFromChat } from '../memory/seed-from-chat';
import { openSeedSummary } from '../memory/seed-summary';
import type { SeedSummary } from '../../contract/memory-view';
import type { TavernAgentMemoryBuildApi } from './lazy-memory-build-api';
import { memoryBuildApi } from './memory-build-api';

/** `TavernAgent.memory`: the open chat's long memory (issue 37). Its own object, so each part of it stays small. */
export interface TavernAgentMemoryApi extends TavernAgentMemoryBuildApi {
    /**
     * Copies the latest memory of another chat of the open character (or group), by its file name, into the open
     * chat as its memory seed; resolves with the seed's summary. Rejects with `memory.chat_not_found`,
     * `memory.no_memory`, `memory.chat_too_large`, `memory.seed_too_large`, `memory.chat_changed` or `host.no_chat`.
     */
    seedFrom(chatFileName: string): Promise<SeedSummary>;
    /** The open chat's memory seed as a summary, or null (none, or no chat open). Read from the chat's metadata. */
    seed(): SeedSummary | null;
}

export const memoryApi: TavernAgentMemoryApi = Object.freeze({
    ...memoryBuildApi,
    async seedFrom(chatFileName: string) {
        const result = await seedFromChat(String(chatFileName ?? ''));
        if (!result.ok) throw new TavernAgentError(result.error.code, result.error.message);
        return result.value;
    },
    seed: openSeedSummary,
});
