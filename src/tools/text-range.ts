import * as z from 'zod';

/**
 * Line-numbered reads of a text, shared by workspace.read_file and skill.read: where lines start, which
 * range a request asks for (and why it is invalid), and the "<n>│<text>" rendering.
 */

/** Guards the rendered result when a text is mostly very short lines (prefixes would dwarf the text). */
const MAX_RENDERED_CHARS = 120_000;

/** Between the line number and the text; apply_patch recognises it when a model copies it by mistake. */
export const LINE_NUMBER_SEPARATOR = '│';

/** Char offset where each line starts. A final newline ends the last line; it does not start an empty one. */
export function lineStarts(text: string): number[] {
    if (text === '') return [];
    const starts = [0];
    for (let i = text.indexOf('\n'); i !== -1 && i + 1 < text.length; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
}

/** 1-based line number of the line holding `offset`. */
export function lineAt(starts: readonly number[], offset: number): number {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
        const mid = (low + high + 1) >> 1;
        if (starts[mid]! <= offset) low = mid;
        else high = mid - 1;
    }
    return low + 1;
}

/** End of line `line` (1-based), past its newline if it has one. */
export function lineEnd(text: string, starts: readonly number[], line: number): number {
    return line < starts.length ? starts[line]! : text.length;
}

/** The text of line `line` (1-based) without its newline. */
export function lineText(text: string, starts: readonly number[], line: number): string {
    const end = lineEnd(text, starts, line);
    return text.slice(starts[line - 1]!, text[end - 1] === '\n' ? end - 1 : end);
}

export function numberedLine(line: number, width: number, text: string): string {
    return `${String(line).padStart(width)}${LINE_NUMBER_SEPARATOR}${text}`;
}

export interface Slice {
    from: number;
    to: number;
    /** Where to continue, when the read stopped before the range the model asked for. */
    next: { start_line: number } | { start_char: number } | null;
}

/** Whole lines from `first` to `last` that fit the budget; a first line larger than the budget is cut by chars. */
function sliceLines(text: string, starts: readonly number[], first: number, last: number, budget: number): Slice {
    const from = starts[first - 1]!;
    if (lineEnd(text, starts, first) - from > budget) return { from, to: from + budget, next: { start_char: from + budget } };
    let line = first;
    let rendered = 0;
    while (line < last) {
        const end = lineEnd(text, starts, line + 1);
        rendered += lineText(text, starts, line + 1).length + 12;
        if (end - from > budget || rendered > MAX_RENDERED_CHARS) break;
        line += 1;
    }
    return { from, to: lineEnd(text, starts, line), next: line < last ? { start_line: line + 1 } : null };
}

/**
 * The range arguments of a read tool, described the same way for every tool that has them. Bounds are
 * checked by chooseRange, not the schema, so a bad range gets the tool's invalid_range code and a hint.
 */
export const RANGE_ARGS = {
    start_line: z.number().int().optional().describe('First line to read (1-based). Use with line_count; cannot be combined with start_char.'),
    line_count: z.number().int().optional().describe('How many lines to read (at least 1). Default: to the end of the file, within max_chars.'),
    start_char: z.number().int().optional().describe('First character to read (0-based offset). Cannot be combined with start_line/line_count.'),
};

export interface RangeRequest {
    start_line?: number | undefined;
    line_count?: number | undefined;
    start_char?: number | undefined;
}

export type RangeChoice = { ok: true; slice: Slice } | { ok: false; message: string; hint: string };

export function mixesRanges(request: RangeRequest): boolean {
    return (request.start_line !== undefined || request.line_count !== undefined) && request.start_char !== undefined;
}

/**
 * The part of `text` a request asks for, at most `budget` chars of it; or why the range is invalid.
 * `size` describes the text in messages: `"output/a.md" has 12 lines (300 chars)`.
 */
export function chooseRange(text: string, starts: readonly number[], request: RangeRequest, budget: number, size: string): RangeChoice {
    const lines = starts.length;
    if (request.start_line !== undefined && request.start_line < 1) {
        return { ok: false, message: `start_line must be at least 1 (got ${request.start_line}); ${size}.`, hint: `Use a start_line from 1 to ${Math.max(lines, 1)}.` };
    }
    if (request.start_char !== undefined && request.start_char < 0) {
        return { ok: false, message: `start_char must be at least 0 (got ${request.start_char}); ${size}.`, hint: `Use a start_char from 0 to ${Math.max(text.length - 1, 0)}.` };
    }
    if (request.line_count !== undefined && request.line_count < 1) {
        return { ok: false, message: `line_count must be at least 1 (got ${request.line_count}); ${size}.`, hint: 'Ask for one line or more, or leave line_count out to read to the end.' };
    }
    if (request.start_char !== undefined) {
        const start = request.start_char;
        if (start > text.length || (start === text.length && text.length > 0)) {
            return {
                ok: false,
                message: `start_char ${start} is past the end: ${size}.`,
                hint: text.length > 0 ? `Use a start_char from 0 to ${text.length - 1}.` : 'The file is empty; read it without a range.',
            };
        }
        const to = Math.min(text.length, start + budget);
        return { ok: true, slice: { from: start, to, next: to < text.length ? { start_char: to } : null } };
    }
    if (lines === 0) {
        if (request.start_line !== undefined && request.start_line > 1) {
            return { ok: false, message: `start_line ${request.start_line} is past the end: ${size}.`, hint: 'The file is empty; read it without a range.' };
        }
        return { ok: true, slice: { from: 0, to: 0, next: null } };
    }
    const first = request.start_line ?? 1;
    if (first > lines) return { ok: false, message: `start_line ${first} is past the end: ${size}.`, hint: `Use a start_line from 1 to ${lines}.` };
    const last = request.line_count === undefined ? lines : Math.min(lines, first + request.line_count - 1);
    return { ok: true, slice: sliceLines(text, starts, first, last, budget) };
}

/** Renders [from, to) with the text's own line numbers; a range may start or end inside a line. */
export function renderRange(text: string, starts: readonly number[], from: number, to: number): { body: string; firstLine: number; lastLine: number } {
    const firstLine = lineAt(starts, from);
    const pieces = text.slice(from, to).split('\n');
    if (pieces.length > 1 && pieces.at(-1) === '') pieces.pop();
    const lastLine = firstLine + pieces.length - 1;
    const width = String(lastLine).length;
    return { body: pieces.map((piece, i) => numberedLine(firstLine + i, width, piece)).join('\n'), firstLine, lastLine };
}

/** Was the slice cut by chars (a range asked by start_char, or a first line over the budget)? */
export function readByChars(request: RangeRequest, slice: Slice): boolean {
    return request.start_char !== undefined || (slice.next !== null && 'start_char' in slice.next);
}

export function continueHow(next: NonNullable<Slice['next']>): string {
    return 'start_line' in next ? `start_line ${next.start_line}` : `start_char ${next.start_char}`;
}
