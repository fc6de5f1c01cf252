import { readablePrefix } from './readable-prefix';
import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { aliasOf, defineTool, failure, success } from '../tool';
import { searchDeadline, timeCutNote } from '../search-deadline';
import {
    corpusOf,
    firstPositionFrom,
    messageLabel,
    messageRef,
    originalOffset,
    parseQuery,
    searchPrefix,
    snippetOf,
    SNIPPET_CHARS,
} from './search-index';

export const MAX_SEARCH_HITS = 50;
export const DEFAULT_SEARCH_HITS = 20;

const args = z.object({
    query: z
        .string()
        .min(1)
        .describe('Words to find, case-insensitive (words of 1–2 letters match whole words only). Chinese/Japanese text may be written without spaces. A message matches when it holds any of the words; more of them rank higher, the exact phrase highest.'),
    limit: z
        .number()
        .int()
        .min(1)
        .max(MAX_SEARCH_HITS)
        .default(DEFAULT_SEARCH_HITS)
        .describe(`Most hits to return (1–${MAX_SEARCH_HITS}, default ${DEFAULT_SEARCH_HITS}).`),
    role: z
        .enum(['user', 'assistant', 'system'])
        .optional()
        .describe('Only messages of this role. Hidden messages count as "system".'),
    start_message: z.number().int().min(0).optional().describe('First message index to search (0-based, inclusive). Default: 0.'),
    end_message: z
        .number()
        .int()
        .min(0)
        .optional()
        .describe('Last message index to search (0-based, inclusive): start_message 100 + end_message 199 searches #100–#199. Default: the newest message.'),
    scan_limit: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe('Search only this many messages, counted back from the newest one in the range (e.g. 200 = the last 200 messages).'),
});

export const chatSearchTool = defineTool({
    name: 'chat.search',
    alias: aliasOf('chat.search'),
    description: [
        "Searches this run's chat (the messages that existed when the run started): case-insensitive, by words; Chinese and Japanese work without spaces.",
        'Messages are numbered from 0 (oldest). Narrow with role (user|assistant|system; hidden messages are "system"), start_message / end_message (both inclusive), and scan_limit (only the newest N messages of that range).',
        `Each hit shows "#<index> <role> <speaker> score <0–1> ref chat:current#<index>" and a ~${SNIPPET_CHARS}-char snippet around the match; hits are ranked by score, then visible before hidden, then newest first. limit 1–${MAX_SEARCH_HITS} (default ${DEFAULT_SEARCH_HITS}).`,
        'Zero hits is a normal answer, not an error. Read a whole message with chat_read_messages.',
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, { input: runInput }) {
        const prefix = readablePrefix(runInput);
        const query = parseQuery(input.query);
        const shownQuery = JSON.stringify(input.query);
        if (query.tokens.length === 0) {
            return failure(toolError('tool.invalid_arguments', `The query ${shownQuery} holds no text to search for.`, 'Send a query with at least one word or character.'));
        }
        if (prefix.length === 0) {
            return success(`No hits for ${shownQuery}: the chat has no messages yet.`, { query: input.query, scanned: 0, hits: 0, shown: 0 });
        }

        const oldest = prefix[0]!.index;
        const newest = prefix[prefix.length - 1]!.index;
        const valid = `The chat has messages #${oldest}–#${newest}.`;
        if (input.start_message !== undefined && input.start_message > newest) {
            return failure(toolError('chat.invalid_range', `start_message ${input.start_message} is past the newest message. ${valid}`, `Use a start_message from ${oldest} to ${newest}.`));
        }
        const start = input.start_message ?? oldest;
        if (input.end_message !== undefined && input.end_message < start) {
            return failure(
                toolError(
                    'chat.invalid_range',
                    `end_message ${input.end_message} is before start_message ${start}. ${valid}`,
                    `Use an end_message of at least ${start} (end_message ${start} searches #${start} only), or leave it out to search through the newest message.`,
                ),
            );
        }
        const first = firstPositionFrom(prefix, start);
        const last = firstPositionFrom(prefix, (input.end_message ?? newest) + 1) - 1;
        const from = input.scan_limit === undefined ? first : Math.max(first, last - input.scan_limit + 1);

        const searched = from <= last ? searchPrefix(prefix, query, { first: from, last, role: input.role, deadline: searchDeadline() }) : { hits: [], searchedFrom: from };
        const hits = searched.hits;
        const cut = searched.searchedFrom > from;
        const scanned = Math.max(0, last - searched.searchedFrom + 1);
        const range = scanned === 0 ? '' : ` (#${prefix[searched.searchedFrom]!.index}–#${prefix[last]!.index})`;
        const where = `${scanned} scanned message${scanned === 1 ? '' : 's'}${range}${input.role === undefined ? '' : `, role ${input.role}`}`;
        const cutNote = cut
            ? timeCutNote(`the newest ${scanned} of ${last - from + 1} messages in the range`, `Search the older ones with end_message ${prefix[searched.searchedFrom - 1]!.index}.`)
            : '';
        const details = {
            query: input.query,
            tokens: query.tokens.map((token) => token.text),
            role: input.role ?? null,
            scanned,
            firstIndex: scanned === 0 ? null : prefix[from]!.index,
            lastIndex: scanned === 0 ? null : prefix[last]!.index,
            hits: hits.length,
            ...(cut ? { stopped: 'time' } : {}),
        };
        if (hits.length === 0) {
            return success(
                `No hits for ${shownQuery} in ${where}.${cutNote || ' Try other or fewer words, another role, or a wider start_message/end_message/scan_limit.'}`,
                { ...details, shown: 0 },
            );
        }

        const corpus = corpusOf(prefix);
        const shown = hits.slice(0, input.limit);
        const blocks = shown.map((hit) => {
            const message = prefix[hit.position]!;
            let at = hit.matchAt;
            let end = hit.matchAt + hit.matchLength;
            if (corpus.text(hit.position).length !== message.text.length) {
                at = originalOffset(message.text, at);
                end = originalOffset(message.text, end);
            }
            return `${messageLabel(message)} score ${hit.score.toFixed(2)} ref ${messageRef(message)}\n${snippetOf(message.text, at, end - at)}`;
        });
        const header =
            shown.length < hits.length
                ? `${hits.length} hits for ${shownQuery} in ${where}; showing the best ${shown.length}. Narrow the query, role or range, or raise limit (max ${MAX_SEARCH_HITS}), to see more.`
                : `${hits.length} hit${hits.length === 1 ? '' : 's'} for ${shownQuery} in ${where}.`;
        return success([header + cutNote, ...blocks].join('\n\n'), {
            ...details,
            shown: shown.length,
            results: shown.map((hit) => ({ index: prefix[hit.position]!.index, score: Number(hit.score.toFixed(4)) })),
        });
    },
});
