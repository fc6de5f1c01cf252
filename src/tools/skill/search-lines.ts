import type { SkillFile } from '../../contract/skills';
import { isWordCharAt, type ParsedQuery } from '../chat/search-index';
import { lineStarts } from '../text-range';

/**
 * Line-based search of one skill text file with chat.search's query rules (case-insensitive, words and
 * CJK bigrams, short words whole, phrase bonus). Speed: each file is lowercased and split into lines once
 * per run (memo on the cached file object), then a search is one native indexOf pass per token.
 */
export interface PreparedText {
    text: string;
    lowered: string;
    /** Line starts in the lowered text (lowercasing keeps every newline, so line numbers hold for the original). */
    loweredStarts: number[];
    starts: number[];
}

const prepared = new WeakMap<SkillFile, PreparedText>();

export function prepareText(file: SkillFile): PreparedText {
    let entry = prepared.get(file);
    if (!entry) {
        const lowered = file.content.toLowerCase();
        const starts = lineStarts(file.content);
        entry = { text: file.content, lowered, loweredStarts: lowered.length === file.content.length ? starts : lineStarts(lowered), starts };
        prepared.set(file, entry);
    }
    return entry;
}

export interface LineHit {
    /** 1-based. */
    line: number;
    score: number;
    /** Offset of the first match in the lowered line. */
    column: number;
}

const SHARE_WEIGHT = 0.8;
const PHRASE_BONUS = 0.2;
/** Tokens past this many are ignored (a bit each in a 32-bit mask). */
const MAX_TOKENS = 31;

/** Column of the phrase's first occurrence on each line (-1: none): one indexOf pass over the whole text. */
function phraseColumns(lowered: string, starts: readonly number[], phrase: string): Int32Array {
    const columns = new Int32Array(starts.length).fill(-1);
    let line = 0;
    for (let at = lowered.indexOf(phrase); at !== -1; at = lowered.indexOf(phrase, at + 1)) {
        while (line + 1 < starts.length && starts[line + 1]! <= at) line += 1;
        if (columns[line] === -1) columns[line] = at - starts[line]!;
    }
    return columns;
}

/**
 * Every line holding at least one token, in line order, scored like chat.search scores messages, handed
 * to `visit` (no array of hits: a common word matches tens of thousands of lines).
 */
export function searchLines(prepared: PreparedText, query: ParsedQuery, visit: (hit: LineHit) => void): void {
    const { lowered, loweredStarts: starts } = prepared;
    const tokens = query.tokens.slice(0, MAX_TOKENS);
    const lines = starts.length;
    if (lines === 0 || tokens.length === 0) return;
    const masks = new Uint32Array(lines);
    const weights = new Float64Array(lines);
    const columns = new Int32Array(lines).fill(-1);
    let totalWeight = 0;
    tokens.forEach((token, index) => {
        totalWeight += token.weight;
        const bit = 1 << index;
        const length = token.text.length;
        let line = 0;
        for (let at = lowered.indexOf(token.text); at !== -1; at = lowered.indexOf(token.text, at + 1)) {
            if (token.wholeWord && (isWordCharAt(lowered, at - 1) || isWordCharAt(lowered, at + length))) continue;
            // Matches come in order: the line pointer only moves forward.
            while (line + 1 < lines && starts[line + 1]! <= at) line += 1;
            if ((masks[line]! & bit) === 0) {
                masks[line] = masks[line]! | bit;
                weights[line] = weights[line]! + token.weight;
            }
            const column = at - starts[line]!;
            if (columns[line] === -1 || column < columns[line]!) columns[line] = column;
        }
    });
    const all = (1 << tokens.length) - 1;
    const single = tokens.length === 1 && tokens[0]!.text === query.phrase;
    // The phrase can only be on lines holding every token; looked for once over the text, not per line.
    const phrases = !single && query.phrase !== '' && masks.includes(all) ? phraseColumns(lowered, starts, query.phrase) : null;
    for (let line = 0; line < lines; line += 1) {
        const mask = masks[line]!;
        if (mask === 0) continue;
        let score = SHARE_WEIGHT * (weights[line]! / totalWeight);
        let column = columns[line]!;
        if (single) {
            score += PHRASE_BONUS;
        } else if (phrases !== null && mask === all && phrases[line] !== -1) {
            score += PHRASE_BONUS;
            column = phrases[line]!;
        }
        visit({ line: line + 1, score, column });
    }
}

/**
 * The best `limit` items by score, earlier items first among equals, without sorting everything: a common
 * word in a 5 MB skill hits tens of thousands of lines, and only a page of them is shown.
 */
export class TopHits<T extends { score: number }> {
    readonly items: T[] = [];
    total = 0;

    constructor(private readonly limit: number) {}

    /** Counts a hit; builds and keeps it only when it ranks among the best so far. */
    offer(score: number, make: () => T): void {
        this.total += 1;
        if (this.items.length === this.limit && score <= this.items[this.items.length - 1]!.score) return;
        const item = make();
        let at = this.items.length;
        while (at > 0 && this.items[at - 1]!.score < score) at -= 1;
        this.items.splice(at, 0, item);
        if (this.items.length > this.limit) this.items.pop();
    }
}
