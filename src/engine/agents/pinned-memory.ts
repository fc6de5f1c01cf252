import { parseMemoryBlock, type MemoryBlock } from '../../workspace/memory-block';

/** The pinned blocks a run starts with, within the profile's budget, and those the budget left out. */
export interface PinnedMemory {
    shown: MemoryBlock[];
    leftOut: MemoryBlock[];
}

/**
 * The pinned blocks of the memory a run starts from (issue 37 §1), in path order: each goes in while the
 * characters of the texts shown so far stay within `budget`; one that does not fit is left out and the next
 * smaller ones still get their chance. Whatever is left out is named, so the agent knows to read it.
 */
export function pinnedMemory(files: Readonly<Record<string, string>>, budget: number): PinnedMemory {
    const blocks = Object.keys(files)
        .sort()
        .map((path) => parseMemoryBlock(path, files[path]!))
        .filter((block): block is MemoryBlock => block?.pinned === true);
    const shown: MemoryBlock[] = [];
    const leftOut: MemoryBlock[] = [];
    let used = 0;
    for (const block of blocks) {
        const chars = block.body.trim().length;
        if (used + chars <= budget) {
            shown.push(block);
            used += chars;
        } else leftOut.push(block);
    }
    return { shown, leftOut };
}

/** The starting prompt's part for the pinned memory: each block under its title, then the names of those left out; null when nothing is pinned. */
export function pinnedMemoryText(files: Readonly<Record<string, string>>, budget: number): string | null {
    const { shown, leftOut } = pinnedMemory(files, budget);
    if (shown.length === 0 && leftOut.length === 0) return null;
    const lines = [
        'Pinned memory: the persist/ blocks whose front matter says "pinned: true", as this run started. Keep each within its "limit" (characters after the front matter) when you edit it; a longer write is refused.',
    ];
    for (const block of shown) lines.push('', `## ${block.title} (${block.path})`, block.body.trim() || '(empty)');
    if (leftOut.length > 0) {
        const names = leftOut.map((block) => `"${block.title}" (${block.path}, ${block.body.trim().length} chars)`).join(', ');
        lines.push('', `Pinned blocks left out (over this agent's ${budget}-character budget for pinned memory): ${names}. Read them with workspace_read_file when you need them.`);
    }
    return lines.join('\n');
}
