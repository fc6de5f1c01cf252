import * as z from 'zod';
import { toolError } from '../../contract/errors';
import type { LoreEntry } from '../../contract/lore';
import { matchText, originalOffset, parseQuery, snippetOf, SNIPPET_CHARS, type TextMatch } from '../chat/search-index';
import { DEFAULT_SEARCH_HITS, MAX_SEARCH_HITS } from '../chat/search';
import { aliasOf, defineTool, failure, success } from '../tool';
import { entryRef, keysText, titleOf } from './entry-text';
import { booksText, runLore } from './lore-scope';
import { searchDeadline, timeCutNote } from '../search-deadline';

/** A hit on a key or the title counts a little more than one in the body: that is what the entry is about. */
const KEY_BONUS = 0.1;

interface LoreHit extends TextMatch {
    entry: LoreEntry;
    position: number;
    /** The match lies in the content (else in the keys or title): the snippet centres on it. */
    inContent: boolean;
}

/** Lowercased once per frozen entry list (the run input), like chat.search's corpus. */
const lowered = new WeakMap<readonly LoreEntry[], Array<{ head: string; content: string }>>();

function corpusOf(entries: readonly LoreEntry[]): Array<{ head: string; content: string }> {
    let corpus = lowered.get(entries);
    if (!corpus) {
        corpus = entries.map((entry) => ({ head: `${entry.title}\n${entry.keys.join('\n')}`.toLowerCase(), content: entry.content.toLowerCase() }));
        lowered.set(entries, corpus);
    }
    return corpus;
}

const args = z.object({
    query: z
        .string()
        .min(1)
        .describe('Words to find in the entries\' keys, titles and content, case-insensitive; Chinese/Japanese may be written without spaces. An entry matches when it holds any of the words; more of them rank higher.'),
    book: z.string().min(1).optional().describe('Only this lorebook (its exact name, as in a ref "worldinfo:<book>#<uid>"). Default: every book in scope.'),
    limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_SEARCH_HITS)
        .default(DEFAULT_SEARCH_HITS)
        .describe(`Most hits to return (1–${MAX_SEARCH_HITS}, default ${DEFAULT_SEARCH_HITS}).`),
});

export const worldInfoSearchTool = defineTool({
    name: 'worldinfo.search',
    alias: aliasOf('worldinfo.search'),
    description: [
        "Searches every enabled entry of this chat's lorebooks (the character's, the chat's, the persona's, the global ones; in a group every member's), not only those activated this turn, as they were when the run started.",
        'Matches keys, titles and content, case-insensitive; Chinese and Japanese work without spaces.',
        `Each hit shows its ref "worldinfo:<book>#<uid>", title, keys, whether SillyTavern activated it this turn, and a ~${SNIPPET_CHARS}-char snippet. Read whole entries with worldinfo_read.`,
        'Zero hits is a normal answer, not an error.',
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, { input: runInput }) {
        const scope = runLore(runInput);
        if (!scope.ok) return scope.outcome;
        const { lore } = scope;
        const query = parseQuery(input.query);
        const shownQuery = JSON.stringify(input.query);
        if (query.tokens.length === 0) {
            return failure(toolError('tool.invalid_arguments', `The query ${shownQuery} holds no text to search for.`, 'Send a query with at least one word or character.'));
        }
        if (input.book !== undefined && !lore.entries.some((entry) => entry.book === input.book) && !lore.books.some((book) => book.name === input.book)) {
            return failure(toolError('tool.invalid_arguments', `No lorebook ${JSON.stringify(input.book)} is in scope for this chat.`, `Books in scope: ${booksText(lore)}. Leave book out to search them all.`));
        }

        const corpus = corpusOf(lore.entries);
        const hits: LoreHit[] = [];
        const deadline = searchDeadline();
        let reached = 0;
        let searchedEntries = 0;
        for (const [position, entry] of lore.entries.entries()) {
            if (deadline.passed()) break;
            reached = position + 1;
            if (input.book !== undefined && entry.book !== input.book) continue;
            searchedEntries += 1;
            const text = corpus[position]!;
            const head = matchText(text.head, query);
            const body = matchText(text.content, query);
            const best = head && body ? (body.score >= head.score ? body : head) : (head ?? body);
            if (!best) continue;
            const score = Math.min(1, Math.max(head?.score ?? 0, body?.score ?? 0) + (head ? KEY_BONUS : 0));
            hits.push({ ...best, score, entry, position, inContent: best === body });
        }
        // Equal scores: entries activated this turn first (the scene is about them), then in SillyTavern's order.
        hits.sort((a, b) => b.score - a.score || Number(b.entry.activated) - Number(a.entry.activated) || a.position - b.position);

        const scanned = input.book === undefined ? lore.entries.length : lore.entries.filter((entry) => entry.book === input.book).length;
        const where = `${scanned} enabled entr${scanned === 1 ? 'y' : 'ies'}${input.book === undefined ? ` of ${lore.books.length} lorebook${lore.books.length === 1 ? '' : 's'}` : ` of ${JSON.stringify(input.book)}`}`;
        const cut = reached < lore.entries.length;
        const cutNote = cut ? timeCutNote(`${searchedEntries} of the ${scanned} entries, in SillyTavern's order`, 'Search one book at a time (book), or use fewer words.') : '';
        const details = { query: input.query, book: input.book ?? null, scanned, hits: hits.length, ...(cut ? { stopped: 'time', searched: searchedEntries } : {}) };
        if (hits.length === 0) {
            return success(`No hits for ${shownQuery} in ${where}.${cutNote || ` Try other or fewer words${input.book === undefined ? '' : ', or leave out book'}.`}`, { ...details, shown: 0 });
        }
        const shown = hits.slice(0, input.limit);
        const blocks = shown.map((hit) => {
            const { entry } = hit;
            let snippet: string;
            if (hit.inContent) {
                const sameLength = corpus[hit.position]!.content.length === entry.content.length;
                const at = sameLength ? hit.matchAt : originalOffset(entry.content, hit.matchAt);
                const end = sameLength ? hit.matchAt + hit.matchLength : originalOffset(entry.content, hit.matchAt + hit.matchLength);
                snippet = snippetOf(entry.content, at, end - at);
            } else snippet = snippetOf(entry.content, 0, 0);
            const head = `${entryRef(entry)} · title ${titleOf(entry)} · ${keysText(entry.keys)} · ${entry.activated ? 'activated this turn' : 'not activated'} · score ${hit.score.toFixed(2)} · ${entry.content.length} chars`;
            return snippet === '' ? `${head}\n(empty content)` : `${head}\n${snippet}`;
        });
        const header =
            shown.length < hits.length
                ? `${hits.length} hits for ${shownQuery} in ${where}; showing the best ${shown.length}. Narrow the query or book, or raise limit (max ${MAX_SEARCH_HITS}), to see more.`
                : `${hits.length} hit${hits.length === 1 ? '' : 's'} for ${shownQuery} in ${where}.`;
        return success([header + cutNote, ...blocks].join('\n\n'), {
            ...details,
            shown: shown.length,
            results: shown.map((hit) => ({ ref: entryRef(hit.entry), activated: hit.entry.activated, score: Number(hit.score.toFixed(4)) })),
        });
    },
});
