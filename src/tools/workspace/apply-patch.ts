import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { checkWrite } from '../../workspace/write-check';
import { checkWritable } from '../../workspace/paths';
import { aliasOf, defineTool, failure, success } from '../tool';
import { fileNotFound, lineAt, lineStarts, LINE_NUMBER_SEPARATOR } from './read-file';

const args = z.object({
    path: z.string().describe('File to edit, inside a writable root, e.g. "output/main.md".'),
    old_string: z
        .string()
        .min(1)
        .describe('The exact text to replace, copied from what workspace_read_file showed WITHOUT the "<n>│" line-number prefixes. Include enough surrounding text to make it unique.'),
    new_string: z.string().describe('The text that replaces old_string (may be empty to delete it).'),
    replace_all: z.boolean().default(false).describe('Replace every occurrence instead of requiring exactly one (default false).'),
});

/** What a line copied from read_file output starts with: padding, the number, and a separator. */
const COPIED_PREFIX = /^\s*\d+\s*(?:│|\||:|\t)/;
const EXACT_PREFIX = new RegExp(`^ *\\d+${LINE_NUMBER_SEPARATOR}`);

function occurrences(text: string, needle: string): number[] {
    const offsets: number[] = [];
    for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) offsets.push(at);
    return offsets;
}

/** "line 4" or "lines 4, 9, 20" for the first ten offsets. */
function linesOf(starts: readonly number[], offsets: readonly number[]): string {
    const lines = [...new Set(offsets.slice(0, 10).map((offset) => lineAt(starts, offset)))];
    return `${lines.length === 1 ? 'line' : 'lines'} ${lines.join(', ')}${offsets.length > 10 ? ', …' : ''}`;
}

/** The hint for 0 matches, naming the usual causes when they can be seen. */
function notFoundHint(content: string, old: string): string {
    const lines = old.split('\n').filter((line) => line.trim() !== '');
    if (lines.length > 0 && lines.every((line) => COPIED_PREFIX.test(line))) {
        const stripped = old
            .split('\n')
            .map((line) => line.replace(EXACT_PREFIX, ''))
            .join('\n');
        const found = stripped !== old ? occurrences(content, stripped).length : 0;
        return (
            'old_string seems to include the line-number prefixes of workspace_read_file ("12│") on every line. ' +
            'They are not part of the file: send only the text after "│".' +
            (found > 0 ? ` Without them it matches ${found} time${found === 1 ? '' : 's'}.` : '')
        );
    }
    const lowered = content.toLowerCase();
    const at = lowered.indexOf(old.toLowerCase());
    if (at !== -1) {
        return `A match that differs only in letter case starts at line ${lineAt(lineStarts(lowered), at)}; copy the text exactly as read.`;
    }
    return 'Read the file again with workspace_read_file and copy old_string exactly (spaces and line breaks included), without the "<n>│" line-number prefix.';
}

export const applyPatchTool = defineTool({
    name: 'workspace.apply_patch',
    alias: aliasOf('workspace.apply_patch'),
    description: [
        'Edits one workspace file by exact text replacement: old_string becomes new_string.',
        'Rules: (1) read the file first with workspace_read_file (or have written it whole with workspace_write_file in this run); old_string must lie in text you have read.',
        '(2) If the file changed since you read it, read it again. (3) Copy old_string exactly, WITHOUT the "<n>│" line-number prefix that read_file shows.',
        '(4) old_string must occur exactly once; add surrounding text to make it unique, or set replace_all to change every occurrence.',
        'Each successful patch makes a checkpoint.',
    ].join(' '),
    args,
    readOnly: false,
    async execute(input, { workspace }) {
        const checked = checkWritable(input.path, workspace.policy);
        if (!checked.ok) return failure(checked.error);
        const path = checked.path;
        const entry = workspace.get(path);
        if (!entry) {
            if (workspace.isDirectory(path)) {
                return failure(toolError('workspace.path_is_directory', `"${path}" is a folder, not a file.`, 'Patch a file inside it; workspace_list_files shows them.'));
            }
            return failure(fileNotFound(workspace, path));
        }
        if (input.old_string === input.new_string) {
            return failure(toolError('workspace.patch_no_change', `old_string and new_string are the same; "${path}" would not change.`, 'Put the changed text in new_string.'));
        }

        const { readState } = workspace;
        const versionRead = readState.versionRead(path);
        if (versionRead === undefined) {
            return failure(
                toolError(
                    'workspace.patch_requires_read',
                    `"${path}" has not been read in this run, so it cannot be patched yet.`,
                    `Call workspace_read_file on "${path}" first, then copy old_string from what it shows.`,
                ),
            );
        }
        if (versionRead !== entry.version) {
            return failure(
                toolError(
                    'workspace.stale_file',
                    `"${path}" changed since you read it (you read version ${versionRead}; it is now version ${entry.version}).`,
                    `Read "${path}" again with workspace_read_file, then patch against its current text.`,
                ),
            );
        }

        const { content } = entry;
        const offsets = occurrences(content, input.old_string);
        if (offsets.length === 0) {
            return failure(
                toolError('workspace.patch_not_found', `old_string (${input.old_string.length} chars) was not found in "${path}" (version ${entry.version}).`, notFoundHint(content, input.old_string)),
            );
        }
        const starts = lineStarts(content);
        if (offsets.length > 1 && !input.replace_all) {
            return failure(
                toolError(
                    'workspace.patch_not_unique',
                    `old_string occurs ${offsets.length} times in "${path}" (${linesOf(starts, offsets)}).`,
                    'Add surrounding text to old_string so it matches exactly once, or set replace_all to true to change all of them.',
                ),
            );
        }
        if (!readState.covers(path, offsets, input.old_string.length)) {
            return failure(
                toolError(
                    'workspace.patch_requires_read',
                    `old_string in "${path}" (${linesOf(starts, offsets)}) is not inside the text you have read of version ${entry.version}.`,
                    `Read those lines of "${path}" with workspace_read_file (or the whole file), then patch again.`,
                ),
            );
        }

        let next = '';
        let from = 0;
        for (const offset of offsets) {
            next += content.slice(from, offset) + input.new_string;
            from = offset + input.old_string.length;
        }
        next += content.slice(from);
        const refused = checkWrite(path, content, next);
        if (refused) return failure(refused);
        const patched = await workspace.patch(path, next, offsets.map((offset) => ({ offset, oldLength: input.old_string.length, newLength: input.new_string.length })));

        const count = offsets.length;
        return success(
            `Replaced ${count} occurrence${count === 1 ? '' : 's'} in ${path} (${linesOf(starts, offsets)} before the edit); ` +
                `it now has ${patched.content.length} chars (version ${patched.version}).`,
            { path, replacements: count, version: patched.version, totalChars: patched.content.length },
        );
    },
});
