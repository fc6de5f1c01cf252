import { isMemoryMarkdown, parseMemoryBlock } from './memory-block';

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
