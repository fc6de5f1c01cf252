import * as z from 'zod';
import { toolError, type ToolError } from '../../contract/errors';
import { checkVisible } from '../../workspace/paths';
import type { Workspace } from '../../workspace/workspace';
import { chooseRange, continueHow, lineStarts, mixesRanges, RANGE_ARGS, readByChars, renderRange } from '../text-range';
import { aliasOf, defineTool, failure, success } from '../tool';

/** Hard limit of one read (SPEC §3), also the default when no max_chars is given. */
export const MAX_READ_CHARS = 80_000;
// The line helpers live in ../text-range (skill.read shares them); re-exported for the workspace tools.
export { LINE_NUMBER_SEPARATOR, lineAt, lineEnd, lineStarts, lineText, numberedLine } from '../text-range';

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
    ...RANGE_ARGS,
    max_chars: z
        .number()
        .int()
        .optional()
        .describe(`Most characters of file text to return (1–${MAX_READ_CHARS}, default ${MAX_READ_CHARS}).`),
});

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

        if (mixesRanges(input)) {
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
        if (input.max_chars !== undefined && input.max_chars < 1) {
            return invalidRange(`max_chars must be at least 1 (got ${input.max_chars}); ${size}.`, `Use a max_chars from 1 to ${MAX_READ_CHARS}.`);
        }
        const budget = input.max_chars ?? MAX_READ_CHARS;

        const chosen = chooseRange(content, starts, input, budget, size);
        if (!chosen.ok) return invalidRange(chosen.message, chosen.hint);
        const slice = chosen.slice;

        if (slice.from === 0 && slice.to === content.length) workspace.readState.recordFull(path, version);
        else workspace.readState.recordRange(path, version, slice.from, slice.to);

        const details = { path, version, startChar: slice.from, endChar: slice.to, totalChars: content.length, totalLines: lines, complete: slice.next === null };
        if (content.length === 0) return success(`${path} — empty file, 0 lines (version ${version})`, details);

        const { body, firstLine, lastLine } = renderRange(content, starts, slice.from, slice.to);
        const byChars = readByChars(input, slice);
        const header = byChars
            ? `${path} — chars ${slice.from}–${slice.to - 1} of ${content.length}, lines ${firstLine}–${lastLine} of ${lines} (version ${version})`
            : `${path} — lines ${firstLine}–${lastLine} of ${lines} (version ${version})`;
        const parts = [header, body];
        if (slice.next !== null) {
            const how = continueHow(slice.next);
            parts.push(`[Not everything you asked for: this read stopped at its size limit (${budget} chars of text). To continue, call workspace_read_file with path "${path}" and ${how}.]`);
        }
        return success(parts.join('\n'), { ...details, firstLine, lastLine });
    },
});
