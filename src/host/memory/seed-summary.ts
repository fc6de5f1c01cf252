import { memorySeedBytes, type MemorySeed } from '../../contract/memory-seed';
import type { SeedSummary } from '../../contract/memory-view';
import { openChatSeed } from './seed-store';

/** A seed as its summary: where it came from (a chat's name, or this chat's memory build) and what it holds. */
export function seedSummary(seed: MemorySeed): SeedSummary {
    const chat = seed.source.kind === 'chat' ? seed.source.chat : '';
    return { chat, at: seed.at, paths: Object.keys(seed.files).sort(), bytes: memorySeedBytes(seed) };
}

/** The open chat's seed summary: synchronous, as it only reads the chat's metadata (the lazy API needs no load for it). */
export function openSeedSummary(): SeedSummary | null {
    const seed = openChatSeed();
    return seed ? seedSummary(seed) : null;
}
