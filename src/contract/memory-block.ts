import { toolError, type ToolError } from './errors';
import { readFrontMatter } from './front-matter';

/**
 * Memory blocks (issue 37 §1): a Markdown file under persist/ that starts with front matter — `title`,
 * `pinned: true|false`, `limit` (characters of its body, default 2,000). Pinned blocks open every run of the
 * chat (engine/agents/pinned-memory.ts); a write may not make a pinned block longer than its limit.
 *
 * Reading never throws and never refuses: front matter that is not a readable YAML mapping makes the file a
 * plain memory file (no block, nothing pinned, no limit), so a broken header cannot trap the agent. Inside a
 * readable mapping each field falls back on its own: a `title` that is not text is the file's name, `pinned`
 * is on only for YAML `true`, a `limit` that is not a whole number from 1 to MAX_BLOCK_LIMIT is the default.
 */
export interface MemoryBlock {
    path: string;
    title: string;
    pinned: boolean;
    limit: number;
    /** The text after the front matter: what the limit counts and what a pinned block shows. */
    body: string;
}

export const MEMORY_ROOT = 'persist';
export const DEFAULT_BLOCK_LIMIT = 2_000;
export const MAX_BLOCK_LIMIT = 50_000;
const MAX_TITLE_CHARS = 200;
/** A block's header is a few short fields: far tighter bounds than a skill's. */
const HEADER_LIMITS = { maxBytes: 4 * 1024, maxKeys: 32, maxAliases: 10 };

/** A file that can be a block: Markdown under persist/. */
export function isMemoryMarkdown(path: string): boolean {
    return path.startsWith(`${MEMORY_ROOT}/`) && path.toLowerCase().endsWith('.md');
}

/** The block `text` at `path` holds, or null when it is not one (not persist/ Markdown, no or unreadable front matter). */
export function parseMemoryBlock(path: string, text: string): MemoryBlock | null {
    if (!isMemoryMarkdown(path)) return null;
    const read = readFrontMatter(text, HEADER_LIMITS);
    if (!read.ok) return null;
    const { fields, body } = read;
    const title = typeof fields.title === 'string' && fields.title.trim() !== '' ? fields.title.trim().replace(/\s+/g, ' ').slice(0, MAX_TITLE_CHARS) : fileTitle(path);
    const limit = Number.isInteger(fields.limit) && (fields.limit as number) >= 1 && (fields.limit as number) <= MAX_BLOCK_LIMIT ? (fields.limit as number) : DEFAULT_BLOCK_LIMIT;
    return { path, title, pinned: fields.pinned === true, limit, body };
}

/** "persist/open-threads.md" → "open-threads". */
function fileTitle(path: string): string {
    return path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
}

/**
 * Refuses a version of `path` that makes a pinned block longer than its limit. A block already over it (its
 * limit lowered, or written before limits) may still be written as long as it does not grow, so the agent can
 * always shorten it step by step.
 */
export function checkBlockLimit(path: string, previous: string | undefined, next: string): ToolError | null {
    const block = parseMemoryBlock(path, next);
    if (!block?.pinned || block.body.length <= block.limit) return null;
    const before = previous === undefined ? null : parseMemoryBlock(path, previous);
    if (before?.pinned && block.body.length <= before.body.length) return null;
    const now = before ? ` (it has ${before.body.length} now)` : '';
    return toolError(
        'memory.block_too_long',
        `"${path}" is a pinned memory block with a limit of ${block.limit} characters; this write would make its text ${block.body.length} characters${now}. Nothing was written.`,
        `Keep the text after the front matter within ${block.limit} characters: drop what no longer holds, merge lines, or move detail to an unpinned file (e.g. persist/scenes/) and keep a pointer to it.`,
    );
}
