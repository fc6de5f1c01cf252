import { isMemoryMarkdown, parseMemoryBlock } from './memory-block';
import type { MemorySeed } from './memory-seed';

/** Where the open chat's current memory is kept: a message of the shown branch, the chat's seed, or nowhere yet. */
export type MemoryHome = { kind: 'message'; messageId: number } | { kind: 'seed' } | { kind: 'none' };

/** The memory the next run at the open chat's tip would start from, where it lives, and the chat's seed. */
export interface MemorySnapshot {
    files: Record<string, string>;
    home: MemoryHome;
    seed: MemorySeed | null;
}

/** What `/agent memory from` answers and `TavernAgent.memory.seedFrom` resolves with. */
export interface SeedSummary {
    /** The chat the memory came from (its file name). */
    chat: string;
    at: string;
    /** The memory files it holds, by path. */
    paths: string[];
    bytes: number;
}

/** A chat of the open character or group that carries memory, for *Bring memory from…*. */
export interface ChatWithMemory {
    /** The chat's file name without `.jsonl`: what `/agent memory from` takes. */
    fileName: string;
    messages: number;
    /** When its last message was sent, as SillyTavern gives it. */
    lastMessage: string;
    /** How many memory files it carries. */
    files: number;
}

/**
 * One memory file as the panel's Memory view (issue 37 §1) lists it: a block with its title, pin and limit, or
 * any other persist/ file with its size. `chars` counts what the limit counts: a block's text after its front
 * matter, the whole text of any other file.
 */
export interface MemoryEntry {
    path: string;
    title: string;
    block: boolean;
    pinned: boolean;
    /** The block's limit; null for a file that is not a block. */
    limit: number | null;
    chars: number;
    /** The file's whole text, front matter included: what an edit replaces. */
    text: string;
    /** Whether it can be pinned: Markdown under persist/ (a block, or a plain note that becomes one). */
    pinnable: boolean;
}

/** The view's order: pinned blocks first, then the other blocks, then every other file; each group by path. */
export function memoryEntries(files: Record<string, string>): MemoryEntry[] {
    const entries = Object.entries(files).map(([path, text]): MemoryEntry => {
        const block = parseMemoryBlock(path, text);
        if (block) return { path, title: block.title, block: true, pinned: block.pinned, limit: block.limit, chars: block.body.length, text, pinnable: true };
        const name = path.slice(path.lastIndexOf('/') + 1);
        return { path, title: name, block: false, pinned: false, limit: null, chars: text.length, text, pinnable: isMemoryMarkdown(path) };
    });
    const rank = (entry: MemoryEntry) => (entry.pinned ? 0 : entry.block ? 1 : 2);
    return entries.sort((a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
