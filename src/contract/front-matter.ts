import { parseDocument } from 'yaml';

/**
 * YAML front matter at the top of a text file (SKILL.md, a persist/ memory block): the one reader both use,
 * bounded before YAML sees the block (the parser's work grows with it) and while aliases expand. It never
 * throws: what it cannot read comes back as a problem its caller words for its own reader.
 */
export interface FrontMatterLimits {
    maxBytes: number;
    maxKeys: number;
    maxAliases: number;
}

export type FrontMatterProblem =
    | { problem: 'missing' | 'unclosed' | 'not_mapping' }
    | { problem: 'too_large'; bytes: number }
    | { problem: 'too_many_keys'; keys: number }
    | { problem: 'aliases' }
    | { problem: 'syntax'; detail: string };

export type FrontMatterRead = ({ ok: true; fields: Record<string, unknown>; body: string }) | ({ ok: false } & FrontMatterProblem);

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*\r?$/m;

export function hasFrontMatter(text: string): boolean {
    return OPENING.test(text);
}

/** The fields of `text`'s front matter (plain JSON data) and the text after its closing line. */
export function readFrontMatter(text: string, limits: FrontMatterLimits): FrontMatterRead {
    const opening = OPENING.exec(text);
    if (!opening) return { ok: false, problem: 'missing' };
    const rest = text.slice(opening[0].length);
    const closing = CLOSING.exec(rest);
    if (!closing) return { ok: false, problem: 'unclosed' };
    const block = rest.slice(0, closing.index);
    const bytes = new TextEncoder().encode(block).length;
    if (bytes > limits.maxBytes) return { ok: false, problem: 'too_large', bytes };
    const document = parseDocument(block, { prettyErrors: false });
    if (document.errors.length > 0) return { ok: false, problem: 'syntax', detail: document.errors[0]!.message.split('\n')[0]! };
    let value: unknown;
    try {
        value = document.toJS({ maxAliasCount: limits.maxAliases });
    } catch (error) {
        // yaml throws a ReferenceError ("Excessive alias count…") once expansion passes maxAliasCount.
        if (error instanceof ReferenceError && /excessive alias/i.test(error.message)) return { ok: false, problem: 'aliases' };
        return { ok: false, problem: 'syntax', detail: error instanceof Error ? error.message : String(error) };
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, problem: 'not_mapping' };
    // Through JSON: dates and other YAML types become plain data that crosses the worker wall and is stored.
    const fields = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
    const keys = Object.keys(fields).length;
    if (keys > limits.maxKeys) return { ok: false, problem: 'too_many_keys', keys };
    const after = rest.slice(closing.index + closing[0].length);
    return { ok: true, fields, body: after.startsWith('\r\n') ? after.slice(2) : after.startsWith('\n') ? after.slice(1) : after };
}
