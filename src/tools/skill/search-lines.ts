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

/** Every line holding at least one token, in line order, scored like chat.search scores messages. */
export function searchLines(prepared: PreparedText, query: ParsedQuery): LineHit[] {
    const { lowered, loweredStarts: starts } = prepared;
    const tokens = query.tokens.slice(0, MAX_TOKENS);
    const lines = starts.length;
    if (lines === 0 || tokens.length === 0) return [];
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
    const all = tokens.length === 32 ? 0xffffffff : (1 << tokens.length) - 1;
    const single = tokens.length === 1 && tokens[0]!.text === query.phrase;
    const hits: LineHit[] = [];
    for (let line = 0; line < lines; line += 1) {
        const mask = masks[line]!;
        if (mask === 0) continue;
        let score = SHARE_WEIGHT * (weights[line]! / totalWeight);
        let column = columns[line]!;
        if (single) {
            score += PHRASE_BONUS;
        } else if (mask === all && query.phrase !== '') {
            const end = line + 1 < lines ? starts[line + 1]! : lowered.length;
            const phraseAt = lowered.slice(starts[line]!, end).indexOf(query.phrase);
            if (phraseAt !== -1) {
                score += PHRASE_BONUS;
                column = phraseAt;
            }
        }
        hits.push({ line: line + 1, score, column });
    }
    return hits;
}

/**
 * The best `limit` items by score, earlier items first among equals, without sorting everything: a common
 * word in a 5 MB skill hits tens of thousands of lines, and only a page of them is shown.
 */
export class TopHits<T extends { score: number }> {
    readonly items: T[] = [];
    total = 0;

    constructor(private readonly limit: number) {}

    offer(item: T): void {
        this.total += 1;
        if (this.items.length === this.limit && item.score <= this.items[this.items.length - 1]!.score) return;
        let at = this.items.length;
        while (at > 0 && this.items[at - 1]!.score < item.score) at -= 1;
        this.items.splice(at, 0, item);
        if (this.items.length > this.limit) this.items.pop();
    }
}
