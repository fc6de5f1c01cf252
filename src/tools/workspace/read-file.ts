import * as z from 'zod';
import { toolError, type ToolError } from '../../contract/errors';
import { checkVisible } from '../../workspace/paths';
import type { Workspace } from '../../workspace/workspace';
import { aliasOf, defineTool, failure, success } from '../tool';

/** Hard limit of one read (SPEC §3), also the default when no max_chars is given. */
export const MAX_READ_CHARS = 80_000;
/** Guards the rendered result when a file is mostly very short lines (prefixes would dwarf the text). */
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

/** file_not_found with a hint naming files of the same name, the usual slip being the folder. */
export function fileNotFound(workspace: Workspace, path: string): ToolError {
    const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
    const similar = workspace
        .list()
        .map((file) => file.path)
        .filter((candidate) => candidate.slice(candidate.lastIndexOf('/') + 1).toLowerCase() === name)
        .slice(0, 5);
    return toolError(
        'workspace.file_not_found',
        `"${path}" does not exist in the workspace.`,
        similar.length > 0
            ? `Did you mean ${similar.map((p) => `"${p}"`).join(' or ')}?`
            : 'Call workspace_list_files to see which files exist.',
    );
}

// Bounds are checked in execute, not in the schema: every range problem gets workspace.invalid_range and a
// read over the limit gets workspace.read_too_large, each with a hint that says what would fit.
const args = z.object({
    path: z.string().describe('File to read, relative to the workspace, e.g. "output/main.md".'),
    start_line: z.number().int().optional().describe('First line to read (1-based). Use with line_count; cannot be combined with start_char.'),
    line_count: z.number().int().optional().describe('How many lines to read (at least 1). Default: to the end of the file, within max_chars.'),
    start_char: z.number().int().optional().describe('First character to read (0-based offset). Cannot be combined with start_line/line_count.'),
    max_chars: z
        .number()
        .int()
        .optional()
        .describe(`Most characters of file text to return (1–${MAX_READ_CHARS}, default ${MAX_READ_CHARS}).`),
});

interface Slice {
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

/** Renders [from, to) with the file's own line numbers; a range may start or end inside a line. */
function render(text: string, starts: readonly number[], from: number, to: number): { body: string; firstLine: number; lastLine: number } {
    const firstLine = lineAt(starts, from);
    const pieces = text.slice(from, to).split('\n');
    if (pieces.length > 1 && pieces.at(-1) === '') pieces.pop();
    const lastLine = firstLine + pieces.length - 1;
    const width = String(lastLine).length;
    return { body: pieces.map((piece, i) => numberedLine(firstLine + i, width, piece)).join('\n'), firstLine, lastLine };
}

function invalidRange(message: string, hint: string) {
    return failure(toolError('workspace.invalid_range', message, hint));
}

export const readFileTool = defineTool({
    name: 'workspace.read_file',
    alias: aliasOf('workspace.read_file'),
    description: [
        'Reads a text file from the workspace. Each line comes back as "<line number>│<text>", e.g. "  12│She laughed.".',
        'The number and the "│" are NOT part of the file: never copy them into old_string of workspace_apply_patch or into write_file content.',
        `Without a range you get the whole file, up to ${MAX_READ_CHARS} characters; a longer file returns its first part and says how to continue.`,
        'Read a range with start_line (+ line_count), or with start_char (+ max_chars); line and char ranges cannot be mixed.',
        'Reading records which text you have seen: workspace_apply_patch only edits text you read (or wrote) in its current version.',
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, { workspace }) {
        const checked = checkVisible(input.path, workspace.policy, { allowRoot: false });
        if (!checked.ok) return failure(checked.error);
        const path = checked.path;
        const entry = workspace.get(path);
        if (!entry) {
            if (workspace.isDirectory(path)) {
                return failure(toolError('workspace.path_is_directory', `"${path}" is a folder, not a file.`, `Call workspace_list_files with path "${path}" to see its files.`));
            }
            return failure(fileNotFound(workspace, path));
        }

        const lineRange = input.start_line !== undefined || input.line_count !== undefined;
        if (lineRange && input.start_char !== undefined) {
            return failure(
                toolError(
                    'workspace.mixed_range',
                    `Read of "${path}" mixes a line range (start_line/line_count) with a char range (start_char).`,
                    'Use either start_line + line_count, or start_char + max_chars.',
                ),
            );
        }

        const { content, version } = entry;
        const starts = lineStarts(content);
        const lines = starts.length;
        const size = `"${path}" has ${lines} line${lines === 1 ? '' : 's'} (${content.length} chars)`;
        if (input.max_chars !== undefined && input.max_chars > MAX_READ_CHARS) {
            return failure(
                toolError(
                    'workspace.read_too_large',
                    `max_chars ${input.max_chars} is over the limit of ${MAX_READ_CHARS} characters a read; ${size}.`,
                    `Use a max_chars up to ${MAX_READ_CHARS} and read the rest with start_char or start_line.`,
                ),
            );
        }
        if (input.start_line !== undefined && input.start_line < 1) {
            return invalidRange(`start_line must be at least 1 (got ${input.start_line}); ${size}.`, `Use a start_line from 1 to ${Math.max(lines, 1)}.`);
        }
        if (input.start_char !== undefined && input.start_char < 0) {
            return invalidRange(`start_char must be at least 0 (got ${input.start_char}); ${size}.`, `Use a start_char from 0 to ${Math.max(content.length - 1, 0)}.`);
        }
        if (input.max_chars !== undefined && input.max_chars < 1) {
            return invalidRange(`max_chars must be at least 1 (got ${input.max_chars}); ${size}.`, `Use a max_chars from 1 to ${MAX_READ_CHARS}.`);
        }
        if (input.line_count !== undefined && input.line_count < 1) {
            return invalidRange(`line_count must be at least 1 (got ${input.line_count}); ${size}.`, 'Ask for one line or more, or leave line_count out to read to the end.');
        }
        const budget = input.max_chars ?? MAX_READ_CHARS;

        let slice: Slice;
        if (input.start_char !== undefined) {
            const start = input.start_char;
            if (start > content.length || (start === content.length && content.length > 0)) {
                return invalidRange(
                    `start_char ${start} is past the end: ${size}.`,
                    content.length > 0 ? `Use a start_char from 0 to ${content.length - 1}.` : 'The file is empty; read it without a range.',
                );
            }
            const to = Math.min(content.length, start + budget);
            slice = { from: start, to, next: to < content.length ? { start_char: to } : null };
        } else if (lines === 0) {
            if (input.start_line !== undefined && input.start_line > 1) {
                return invalidRange(`start_line ${input.start_line} is past the end: ${size}.`, 'The file is empty; read it without a range.');
            }
            slice = { from: 0, to: 0, next: null };
        } else {
            const first = input.start_line ?? 1;
            if (first > lines) {
                return invalidRange(`start_line ${first} is past the end: ${size}.`, `Use a start_line from 1 to ${lines}.`);
            }
            const last = input.line_count === undefined ? lines : Math.min(lines, first + input.line_count - 1);
            slice = sliceLines(content, starts, first, last, budget);
        }

        if (slice.from === 0 && slice.to === content.length) workspace.readState.recordFull(path, version);
        else workspace.readState.recordRange(path, version, slice.from, slice.to);

        const details = { path, version, startChar: slice.from, endChar: slice.to, totalChars: content.length, totalLines: lines, complete: slice.next === null };
        if (content.length === 0) return success(`${path} — empty file, 0 lines (version ${version})`, details);

        const { body, firstLine, lastLine } = render(content, starts, slice.from, slice.to);
        const byChars = input.start_char !== undefined || (slice.next !== null && 'start_char' in slice.next);
        const header = byChars
            ? `${path} — chars ${slice.from}–${slice.to - 1} of ${content.length}, lines ${firstLine}–${lastLine} of ${lines} (version ${version})`
            : `${path} — lines ${firstLine}–${lastLine} of ${lines} (version ${version})`;
        const parts = [header, body];
        if (slice.next !== null) {
            const how = 'start_line' in slice.next ? `start_line ${slice.next.start_line}` : `start_char ${slice.next.start_char}`;
            parts.push(`[Not everything you asked for: this read stopped at its size limit (${budget} chars of text). To continue, call workspace_read_file with path "${path}" and ${how}.]`);
        }
        return success(parts.join('\n'), { ...details, firstLine, lastLine });
    },
});
