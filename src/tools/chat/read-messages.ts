import { readablePrefix } from './readable-prefix';
import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { aliasOf, defineTool, failure, success } from '../tool';
import { messageLabel, messageRef, positionOfIndex } from './search-index';

/** Hard limits of one read (SPEC §3), shared with worldinfo.read_activated. */
export const MAX_READ_ITEMS = 20;
export const MAX_RANGE_CHARS = 8_000;
export const MAX_CALL_CHARS = 20_000;

/** One requested text: a chat message or a world-info entry. */
export interface ReadRequest {
    /** How the text is named in messages: "#12", "worldinfo:Lore#3". */
    label: string;
    length: number;
    start_char?: number | undefined;
    max_chars?: number | undefined;
}

export interface PlannedRead {
    from: number;
    to: number;
}

export type ReadPlan =
    | { ok: true; reads: PlannedRead[]; total: number }
    | { ok: false; problem: 'invalid_range' | 'too_large'; message: string; hint: string };

/** How a request is written in a hint, e.g. {"index":3,"start_char":0,"max_chars":8000}. */
export type RequestExample = (request: ReadRequest, start: number, max: number) => string;

const MAX_LISTED = 30;

function chars(count: number): string {
    return `${count} char${count === 1 ? '' : 's'}`;
}

/** "#0 33 chars, #1 11 chars": the lengths of what was asked for, so the model can pick ranges. */
function lengths(requests: readonly ReadRequest[]): string {
    const seen = new Set<string>();
    const parts: string[] = [];
    for (const request of requests) {
        if (seen.has(request.label)) continue;
        seen.add(request.label);
        parts.push(`${request.label} ${chars(request.length)}`);
    }
    return parts.length > MAX_LISTED ? `${parts.slice(0, MAX_LISTED).join(', ')}, … (${parts.length - MAX_LISTED} more)` : parts.join(', ');
}

/**
 * Checks ranges and limits of a batch read: each request is a whole text or one range [start_char,
 * start_char + max_chars) of at most MAX_RANGE_CHARS; at most MAX_READ_ITEMS requests and
 * MAX_CALL_CHARS chars a call. A failure says what would fit.
 */
export function planReads(requests: readonly ReadRequest[], noun: { one: string; many: string }, example: RequestExample): ReadPlan {
    for (const request of requests) {
        const { label, length } = request;
        const start = request.start_char;
        const size = `${label} has ${chars(length)}`;
        if (start !== undefined && start < 0) {
            return { ok: false, problem: 'invalid_range', message: `start_char ${start} for ${label} is negative; ${size}.`, hint: 'start_char is a 0-based offset: use 0 or more.' };
        }
        if (start !== undefined && (start > length || (start === length && length > 0))) {
            return {
                ok: false,
                problem: 'invalid_range',
                message: `start_char ${start} for ${label} is past its end; ${size}.`,
                hint: length > 0 ? `Use a start_char from 0 to ${length - 1}, or leave it out to read from the start.` : `${label} is empty: read it without a range.`,
            };
        }
        if (request.max_chars !== undefined && request.max_chars < 1) {
            return {
                ok: false,
                problem: 'invalid_range',
                message: `max_chars ${request.max_chars} for ${label} must be at least 1; ${size}.`,
                hint: `Use a max_chars from 1 to ${MAX_RANGE_CHARS}, or leave it out to read to the end.`,
            };
        }
    }

    const reads = requests.map((request) => {
        const from = request.start_char ?? 0;
        const to = request.max_chars === undefined ? request.length : Math.min(request.length, from + request.max_chars);
        return { from, to };
    });
    const total = reads.reduce((sum, read) => sum + read.to - read.from, 0);

    const problems: string[] = [];
    const fixes: string[] = [];
    if (requests.length > MAX_READ_ITEMS) {
        problems.push(`${requests.length} ${noun.many} requested, at most ${MAX_READ_ITEMS} a call`);
        fixes.push(`ask for at most ${MAX_READ_ITEMS} ${noun.many} a call`);
    }
    requests.forEach((request, i) => {
        const read = reads[i]!;
        if (request.max_chars !== undefined && request.max_chars > MAX_RANGE_CHARS) {
            problems.push(`max_chars ${request.max_chars} for ${request.label} is over the ${MAX_RANGE_CHARS}-char limit of one range`);
            fixes.push(`use max_chars ≤ ${MAX_RANGE_CHARS} for ${request.label}`);
        } else if (read.to - read.from > MAX_RANGE_CHARS) {
            const whole = request.start_char === undefined && request.max_chars === undefined;
            problems.push(
                whole
                    ? `${request.label} is ${chars(request.length)}, over the ${MAX_RANGE_CHARS}-char limit of a whole read`
                    : `the range of ${request.label} from char ${read.from} is ${chars(read.to - read.from)}, over the ${MAX_RANGE_CHARS}-char limit of one range`,
            );
            fixes.push(
                `read ${request.label} in ranges, e.g. ${example(request, read.from, MAX_RANGE_CHARS)}, then start_char ${read.from + MAX_RANGE_CHARS}`,
            );
        }
    });
    if (problems.length === 0 && total > MAX_CALL_CHARS) {
        // Requests that fit, in order, before the call limit: the model can send the rest in a second call.
        let fits = 0;
        let sum = 0;
        while (fits < reads.length && sum + reads[fits]!.to - reads[fits]!.from <= MAX_CALL_CHARS) {
            sum += reads[fits]!.to - reads[fits]!.from;
            fits += 1;
        }
        problems.push(`this call would return ${chars(total)}, at most ${MAX_CALL_CHARS} a call`);
        fixes.push(
            fits > 0
                ? `the first ${fits} request${fits === 1 ? '' : 's'} fit (${chars(sum)}): send the rest in another call, or use smaller max_chars`
                : `split the reads over several calls, or use smaller max_chars`,
        );
    }
    if (problems.length > 0) {
        return {
            ok: false,
            problem: 'too_large',
            message: `Read too large: ${problems.join('; ')}. Lengths: ${lengths(requests)}.`,
            hint: `${fixes.map((fix, i) => (i === 0 ? fix[0]!.toUpperCase() + fix.slice(1) : fix)).join('; ')}. Limits: ${MAX_READ_ITEMS} ${noun.many}, ${MAX_RANGE_CHARS} chars per ${noun.one} or range, ${MAX_CALL_CHARS} chars a call.`,
        };
    }
    return { ok: true, reads, total };
}

/** The head of one read block: what was read and where to continue if it stopped early. */
export function rangeNote(length: number, read: PlannedRead): string {
    if (read.from === 0 && read.to === length) return `${chars(length)}, whole`;
    if (read.from === read.to) return `chars ${read.from}–${read.to} of ${length} (empty range)`;
    const more = read.to < length ? `, continue at start_char ${read.to}` : ', to the end';
    return `chars ${read.from}–${read.to - 1} of ${length}${more}`;
}

const args = z.object({
    messages: z
        .array(
            z.object({
                index: z.number().int().describe('0-based message index, as shown by chat_search ("#12" → 12). The oldest message is 0.'),
                start_char: z.number().int().optional().describe('0-based char offset inside the message where the range starts. Default 0.'),
                max_chars: z
                    .number()
                    .int()
                    .optional()
                    .describe(`Most chars to read from start_char (1–${MAX_RANGE_CHARS}). Default: to the end of the message.`),
            }),
        )
        .min(1)
        .describe(`Messages to read, at most ${MAX_READ_ITEMS}: whole ones (up to ${MAX_RANGE_CHARS} chars each) or ranges of up to ${MAX_RANGE_CHARS} chars; at most ${MAX_CALL_CHARS} chars a call.`),
});

export const readMessagesTool = defineTool({
    name: 'chat.read_messages',
    alias: aliasOf('chat.read_messages'),
    description: [
        "Reads messages of this run's chat by 0-based index (the oldest message is 0), whole or as char ranges.",
        `Limits: at most ${MAX_READ_ITEMS} messages a call; a whole message or one range of at most ${MAX_RANGE_CHARS} chars each; at most ${MAX_CALL_CHARS} chars a call.`,
        'A longer message is read in ranges (start_char + max_chars); an over-limit request is refused with the length of every message asked for.',
        'Each block starts with "#<index> <role> <speaker>", the ref chat:current#<index> and the range read; then the exact message text.',
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, { input: runInput }) {
        const prefix = readablePrefix(runInput);
        const positions = input.messages.map((request) => positionOfIndex(prefix, request.index));
        const missing = [...new Set(input.messages.filter((_, i) => positions[i] === -1).map((request) => request.index))];
        if (missing.length > 0) {
            const range = prefix.length === 0 ? 'The chat has no messages yet.' : `The chat has ${prefix.length} message${prefix.length === 1 ? '' : 's'}: valid indexes are ${prefix[0]!.index}..${prefix[prefix.length - 1]!.index}.`;
            return failure(
                toolError(
                    'chat.message_not_found',
                    `No message ${missing.map((index) => `#${index}`).join(', ')} in this run's chat. ${range}`,
                    prefix.length === 0 ? 'There is nothing to read.' : `Use indexes from ${prefix[0]!.index} to ${prefix[prefix.length - 1]!.index} (0-based; chat_search shows them as "#<index>").`,
                ),
            );
        }

        const messages = positions.map((position) => prefix[position]!);
        const requests: ReadRequest[] = input.messages.map((request, i) => ({
            label: `#${request.index}`,
            length: messages[i]!.text.length,
            start_char: request.start_char,
            max_chars: request.max_chars,
        }));
        const plan = planReads(requests, { one: 'message', many: 'messages' }, (request, start, max) =>
            JSON.stringify({ index: Number(request.label.slice(1)), start_char: start, max_chars: max }),
        );
        if (!plan.ok) {
            return failure(toolError(plan.problem === 'invalid_range' ? 'chat.invalid_range' : 'chat.read_too_large', plan.message, plan.hint));
        }

        const blocks = messages.map((message, i) => {
            const read = plan.reads[i]!;
            return `=== ${messageLabel(message)} ref ${messageRef(message)} · ${rangeNote(message.text.length, read)} ===\n${message.text.slice(read.from, read.to)}`;
        });
        const header = `${messages.length} message${messages.length === 1 ? '' : 's'} read, ${chars(plan.total)} of text. The text under each "===" line is exact.`;
        return success([header, ...blocks].join('\n\n'), {
            reads: messages.map((message, i) => ({ index: message.index, from: plan.reads[i]!.from, to: plan.reads[i]!.to, length: message.text.length })),
            chars: plan.total,
        });
    },
});
