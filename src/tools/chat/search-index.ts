import type { PrefixMessage } from '../../contract/run-input';
import type { SearchDeadline } from '../search-deadline';

/**
 * Pure search over the frozen chat prefix: query tokenizing, one lowercased corpus per snapshot, ranked hits.
 * Speed: each message is lowercased once per prefix array (WeakMap memo), then a search is one native
 * indexOf per token and message within the scanned window, no regex and no per-call lowercasing.
 */

export type SearchRole = 'user' | 'assistant' | 'system';

export interface QueryToken {
    /** Lowercased text looked for as a substring. */
    text: string;
    /** Longer tokens weigh more; a CJK/kana character counts double (it carries about a word's meaning). */
    weight: number;
    /** Words of one or two letters ("no", "is") match whole words only: as substrings they are everywhere. */
    wholeWord: boolean;
}

export interface ParsedQuery {
    tokens: QueryToken[];
    /** The whole query, lowercased with runs of whitespace collapsed; finding it earns the phrase bonus. */
    phrase: string;
}

/** Han, kana and Hangul are written without spaces: runs of them become overlapping bigrams. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3005\u3006\u30fc\uff70]/u;
const WORD_CHAR = /[\p{L}\p{N}\p{M}_]/u;
const APOSTROPHE = /['\u2019]/;
const MARK = /\p{M}/u;
const SHORT_WORD = 2;

function tokenWeight(text: string): number {
    let weight = 0;
    for (const char of text) weight += CJK_CHAR.test(char) ? 2 : 1;
    return weight;
}

/** Query → tokens: lowercased words (split on whitespace and punctuation) and bigrams of CJK/kana runs. */
export function parseQuery(query: string): ParsedQuery {
    const lowered = query.toLowerCase().replace(/[\u0000-\u001f\u007f]/g, ' ');
    const phrase = lowered.trim().replace(/\s+/g, ' ');
    const runs: Array<{ kind: 'cjk' | 'word'; chars: string[] }> = [];
    let current: { kind: 'cjk' | 'word'; chars: string[] } | null = null;
    const chars = Array.from(lowered);
    for (let i = 0; i < chars.length; i += 1) {
        const char = chars[i]!;
        const next = chars[i + 1];
        if (CJK_CHAR.test(char)) {
            if (current?.kind !== 'cjk') runs.push((current = { kind: 'cjk', chars: [] }));
            current.chars.push(char);
        } else if (WORD_CHAR.test(char)) {
            // A combining mark continues whatever run it follows.
            if (current === null || (current.kind !== 'word' && !MARK.test(char))) runs.push((current = { kind: 'word', chars: [] }));
            current.chars.push(char);
        } else if (APOSTROPHE.test(char) && current?.kind === 'word' && next !== undefined && WORD_CHAR.test(next) && !CJK_CHAR.test(next) && !MARK.test(next)) {
            // "don't" stays one word.
            current.chars.push(char);
        } else {
            current = null;
        }
    }

    const texts: string[] = [];
    for (const run of runs) {
        if (run.chars.length === 0) continue;
        if (run.kind === 'word' || run.chars.length === 1) texts.push(run.chars.join(''));
        else for (let i = 0; i + 1 < run.chars.length; i += 1) texts.push(run.chars[i]! + run.chars[i + 1]!);
    }
    let unique = [...new Set(texts)];
    // A lone Latin letter ("a", "I") matches nearly everything: dropped when the query has better tokens.
    const strong = unique.filter((text) => Array.from(text).length > 1 || CJK_CHAR.test(text));
    if (strong.length > 0) unique = strong;
    // A query of punctuation only ("?!") is looked for as it is.
    if (unique.length === 0 && phrase !== '') unique = [phrase];
    return {
        tokens: unique.map((text) => ({ text, weight: tokenWeight(text), wholeWord: Array.from(text).length <= SHORT_WORD && WORD_CHAR.test(text) && !CJK_CHAR.test(text) })),
        phrase,
    };
}

/**
 * The lowercased texts of one prefix, in prefix order. Filled lazily, so a search limited to the newest
 * messages only lowercases those; each message is lowercased at most once per snapshot.
 */
export class Corpus {
    private readonly lowered: Array<string | undefined>;

    constructor(private readonly prefix: readonly PrefixMessage[]) {
        this.lowered = new Array<string | undefined>(prefix.length).fill(undefined);
    }

    text(position: number): string {
        return (this.lowered[position] ??= this.prefix[position]!.text.toLowerCase());
    }
}

const corpora = new WeakMap<readonly PrefixMessage[], Corpus>();

/** The memo of a snapshot: the frozen prefix array is the key. */
export function corpusOf(prefix: readonly PrefixMessage[]): Corpus {
    let corpus = corpora.get(prefix);
    if (!corpus) {
        corpus = new Corpus(prefix);
        corpora.set(prefix, corpus);
    }
    return corpus;
}

/** A letter, digit or mark of a space-separated script: what a whole word may not touch. */
export function isWordCharAt(text: string, at: number): boolean {
    if (at < 0 || at >= text.length) return false;
    const code = text.charCodeAt(at);
    if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || code === 0x5f;
    const char = text[at]!;
    return WORD_CHAR.test(char) && !CJK_CHAR.test(char);
}

/** First occurrence of `word` not inside a longer word ("no" in "No, never" but not in "north"). */
function findWholeWord(text: string, word: string): number {
    for (let at = text.indexOf(word); at !== -1; at = text.indexOf(word, at + 1)) {
        if (!isWordCharAt(text, at - 1) && !isWordCharAt(text, at + word.length)) return at;
    }
    return -1;
}

/** Hidden messages (`is_system`) are searched, filtered and shown as role system. */
export function effectiveRole(message: PrefixMessage): SearchRole {
    return message.hidden ? 'system' : message.role;
}

export interface SearchOptions {
    /** Positions in the prefix array, inclusive. */
    first: number;
    last: number;
    role?: SearchRole | undefined;
    /** When the search must stop (a call's time budget); absent: it covers the range. */
    deadline?: SearchDeadline;
}

export interface SearchHit {
    /** Position in the prefix array. */
    position: number;
    score: number;
    /** Offset of the match the snippet centres on, in the lowercased message text, and its length. */
    matchAt: number;
    matchLength: number;
}

const SHARE_WEIGHT = 0.8;
const PHRASE_BONUS = 0.2;

/**
 * Every message in [first, last] holding at least one token, scored by the weighted share of tokens it
 * holds (0.8) plus the phrase bonus (0.2), ranked by score, then visible before hidden, then newest first.
 */
/**
 * The hits of `query` in positions `first`–`last`, searched newest first; with a deadline that passes, the
 * search stops there and `searchedFrom` says the oldest position it reached (first when it covered all).
 */
export function searchPrefix(prefix: readonly PrefixMessage[], query: ParsedQuery, options: SearchOptions): { hits: SearchHit[]; searchedFrom: number } {
    const { first, last, role, deadline } = options;
    if (last < first || query.tokens.length === 0) return { hits: [], searchedFrom: first };
    const corpus = corpusOf(prefix);
    const hits: SearchHit[] = [];
    let searchedFrom = last + 1;
    for (let position = last; position >= first; position -= 1) {
        if (deadline?.passed()) break;
        searchedFrom = position;
        if (role !== undefined && effectiveRole(prefix[position]!) !== role) continue;
        const match = matchText(corpus.text(position), query);
        if (match) hits.push({ position, ...match });
    }
    // Equal scores: what the story shows (visible) before hidden notes, then newest first.
    hits.sort((a, b) => b.score - a.score || Number(prefix[a.position]!.hidden) - Number(prefix[b.position]!.hidden) || b.position - a.position);
    return { hits, searchedFrom };
}

export interface TextMatch {
    score: number;
    /** Offset of the match a snippet centres on, in the lowercased text, and its length. */
    matchAt: number;
    matchLength: number;
}

/**
 * How well one lowercased text matches a query, or null when it holds none of its tokens: the weighted
 * share of tokens it holds (0.8) plus the phrase bonus (0.2). The one matcher of chat.search and
 * worldinfo.search, so both treat case, short words and CJK alike.
 */
export function matchText(text: string, query: ParsedQuery): TextMatch | null {
    const { tokens, phrase } = query;
    if (tokens.length === 0) return null;
    const totalWeight = tokens.reduce((sum, token) => sum + token.weight, 0);
    // One token that is the whole query: every hit holds the phrase too.
    const single = tokens.length === 1 && tokens[0]!.text === phrase;
    let weight = 0;
    let count = 0;
    let at = -1;
    let length = 0;
    for (const token of tokens) {
        const found = token.wholeWord ? findWholeWord(text, token.text) : text.indexOf(token.text);
        if (found === -1) continue;
        weight += token.weight;
        count += 1;
        if (at === -1 || found < at) {
            at = found;
            length = token.text.length;
        }
    }
    if (count === 0) return null;
    let score = SHARE_WEIGHT * (weight / totalWeight);
    if (single) {
        score += PHRASE_BONUS;
    } else if (count === tokens.length && phrase !== '') {
        // The phrase holds every token, so it can only be there when they all are.
        const phraseAt = text.indexOf(phrase);
        if (phraseAt !== -1) {
            score += PHRASE_BONUS;
            at = phraseAt;
            length = phrase.length;
        }
    }
    return { score, matchAt: at, matchLength: length };
}

/** Maps an offset in `text.toLowerCase()` back to `text`, for the rare letters that change length. */
export function originalOffset(text: string, loweredOffset: number): number {
    let lowered = 0;
    let offset = 0;
    for (const char of text) {
        if (lowered >= loweredOffset) break;
        lowered += char.toLowerCase().length;
        offset += char.length;
    }
    return offset;
}

export const SNIPPET_CHARS = 200;

function isLowSurrogate(code: number): boolean {
    return code >= 0xdc00 && code <= 0xdfff;
}

/** About SNIPPET_CHARS of plain text centred on a match, newlines collapsed, cuts marked with "…". */
export function snippetOf(text: string, at: number, length: number, width = SNIPPET_CHARS): string {
    const centre = at + Math.floor(length / 2);
    let start = Math.max(0, centre - Math.floor(width / 2));
    let end = Math.min(text.length, start + width);
    start = Math.max(0, end - width);
    if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start -= 1;
    if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end += 1;
    const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
    return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

/** Where message `index` sits in the prefix (usually at `index` itself), or -1. */
export function positionOfIndex(prefix: readonly PrefixMessage[], index: number): number {
    if (prefix[index]?.index === index) return index;
    const position = firstPositionFrom(prefix, index);
    return prefix[position]?.index === index ? position : -1;
}

/** First position whose message index is ≥ index (prefix.length when none is). */
export function firstPositionFrom(prefix: readonly PrefixMessage[], index: number): number {
    let low = 0;
    let high = prefix.length;
    while (low < high) {
        const mid = (low + high) >> 1;
        if (prefix[mid]!.index < index) low = mid + 1;
        else high = mid;
    }
    return low;
}

/** "#12 assistant Seraphina", "#3 system hidden Tester": the head of a hit or a read. */
export function messageLabel(message: PrefixMessage): string {
    const name = message.name.replace(/\s+/g, ' ').trim();
    return `#${message.index} ${effectiveRole(message)}${message.hidden ? ' hidden' : ''}${name === '' ? '' : ` ${name}`}`;
}

export function messageRef(message: PrefixMessage): string {
    return `chat:current#${message.index}`;
}
