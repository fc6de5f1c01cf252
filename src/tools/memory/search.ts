import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { MEMORY_ROOT, parseMemoryBlock } from '../../workspace/memory-block';
import { checkVisible } from '../../workspace/paths';
import { matchText, originalOffset, parseQuery, snippetOf, SNIPPET_CHARS, type TextMatch } from '../chat/search-index';
import { searchDeadline, timeCutNote } from '../search-deadline';
import { lineAt, lineStarts } from '../text-range';
import { aliasOf, defineTool, failure, success } from '../tool';

export const MAX_MEMORY_HITS = 20;
const DEFAULT_MEMORY_HITS = 10;
/** A hit on a block's title counts a little more than one in its text: that is what the block is about (as worldinfo.search's keys). */
const TITLE_BONUS = 0.1;

interface MemoryHit extends TextMatch {
    path: string;
    title: string | null;
    pinned: boolean;
    /** Where the file's own text starts (after a block's front matter) and the file, for the line and snippet. */
    bodyStart: number;
    body: string;
    content: string;
    /** The match lies in the text (else in the title): the snippet centres on it. */
    inBody: boolean;
}

const args = z.object({
    query: z
        .string()
        .min(1)
        .describe("Words to find in the chat's memory, case-insensitive; Chinese/Japanese may be written without spaces. A file matches when it holds any of the words; more of them rank higher, the exact phrase highest."),
    limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_MEMORY_HITS)
        .default(DEFAULT_MEMORY_HITS)
        .describe(`Most hits to return (1–${MAX_MEMORY_HITS}, default ${DEFAULT_MEMORY_HITS}).`),
});

/** The hit of one memory file, or null: its title (a block's) and its text after the front matter are matched apart. */
function matchFile(path: string, content: string, query: ReturnType<typeof parseQuery>): MemoryHit | null {
    const block = parseMemoryBlock(path, content);
    const body = block ? block.body : content;
    const inBody = matchText(body.toLowerCase(), query);
    const inTitle = block ? matchText(block.title.toLowerCase(), query) : null;
    const best = inBody ?? inTitle;
    if (!best) return null;
    const score = Math.min(1, Math.max(inBody?.score ?? 0, inTitle?.score ?? 0) + (inTitle ? TITLE_BONUS : 0));
    return { ...best, score, path, title: block?.title ?? null, pinned: block?.pinned ?? false, bodyStart: content.length - body.length, body, content, inBody: best === inBody };
}

/** `persist/characters.md · pinned block "Characters" · score 0.80 · ref workspace:persist/characters.md#L4-L4` and a snippet. */
function hitText(hit: MemoryHit): string {
    let at = 0;
    let end = 0;
    if (hit.inBody) {
        const sameLength = hit.body.toLowerCase().length === hit.body.length;
        at = sameLength ? hit.matchAt : originalOffset(hit.body, hit.matchAt);
        end = sameLength ? hit.matchAt + hit.matchLength : originalOffset(hit.body, hit.matchAt + hit.matchLength);
    }
    const starts = lineStarts(hit.content);
    const first = lineAt(starts, hit.bodyStart + at);
    const last = lineAt(starts, hit.bodyStart + Math.max(at, end - 1));
    const kind = hit.title === null ? 'file' : `${hit.pinned ? 'pinned' : 'unpinned'} block "${hit.title}"`;
    const snippet = snippetOf(hit.body, at, end - at);
    return `${hit.path} · ${kind} · score ${hit.score.toFixed(2)} · ref workspace:${hit.path}#L${first}-L${last}\n${snippet === '' ? '(empty)' : snippet}`;
}

export const memorySearchTool = defineTool({
    name: 'memory.search',
    alias: aliasOf('memory.search'),
    description: [
        "Searches this chat's memory: the files under persist/ (memory blocks such as persist/characters.md, and scene summaries under persist/scenes/), as they are now in this run.",
        "Case-insensitive, by words; Chinese and Japanese work without spaces. A block's title counts as well as its text.",
        `Hits are ranked by score (0–1), then by path; each shows the file, whether it is a pinned block, and a ref "workspace:<path>#L<first>-L<last>" with a ~${SNIPPET_CHARS}-char snippet. Read the lines with workspace_read_file (path and start_line).`,
        `limit 1–${MAX_MEMORY_HITS} (default ${DEFAULT_MEMORY_HITS}). Zero hits is a normal answer, not an error.`,
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, { workspace }) {
        const visible = checkVisible(MEMORY_ROOT, workspace.policy, { allowRoot: false });
        if (!visible.ok) return failure(visible.error);
        const query = parseQuery(input.query);
        const shownQuery = JSON.stringify(input.query);
        if (query.tokens.length === 0) {
            return failure(toolError('tool.invalid_arguments', `The query ${shownQuery} holds no text to search for.`, 'Send a query with at least one word or character.'));
        }
        const files = workspace.list().filter((file) => file.path.startsWith(`${MEMORY_ROOT}/`));
        const deadline = searchDeadline();
        const hits: MemoryHit[] = [];
        let searched = 0;
        for (const file of files) {
            if (deadline.passed()) break;
            searched += 1;
            const hit = matchFile(file.path, file.content, query);
            if (hit) hits.push(hit);
        }
        // Equal scores: in path order, as listed (workspace.list sorts by path).
        hits.sort((a, b) => b.score - a.score);

        const where = `${files.length} memory file${files.length === 1 ? '' : 's'} (persist/)`;
        const cut = searched < files.length;
        const cutNote = cut ? timeCutNote(`${searched} of the ${files.length} files, in path order`, 'Use fewer or more telling words.') : '';
        const details = { query: input.query, files: files.length, hits: hits.length, ...(cut ? { stopped: 'time', searched } : {}) };
        if (hits.length === 0) {
            const none = files.length === 0 ? ' The chat has no memory yet.' : ' Try other or fewer words.';
            return success(`No hits for ${shownQuery} in ${where}.${cutNote || none}`, { ...details, shown: 0 });
        }
        const shown = hits.slice(0, input.limit);
        const header =
            shown.length < hits.length
                ? `${hits.length} hits for ${shownQuery} in ${where}; showing the best ${shown.length}. Narrow the query, or raise limit (max ${MAX_MEMORY_HITS}), to see more.`
                : `${hits.length} hit${hits.length === 1 ? '' : 's'} for ${shownQuery} in ${where}.`;
        return success([header + cutNote, ...shown.map(hitText)].join('\n\n'), {
            ...details,
            shown: shown.length,
            results: shown.map((hit) => ({ path: hit.path, pinned: hit.pinned, score: Number(hit.score.toFixed(4)) })),
        });
    },
});
