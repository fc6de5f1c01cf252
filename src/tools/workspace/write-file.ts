import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { checkWritable } from '../../workspace/paths';
import { checkWrite } from '../../workspace/write-check';
import { aliasOf, defineTool, failure, success } from '../tool';

const args = z.object({
    path: z.string().describe('File to write, inside a writable root, e.g. "output/main.md" or "scratch/notes.md". Missing folders are implied by the path.'),
    content: z
        .string()
        .describe('replace: the complete new text of the file. append: the text to add at the very end, as is (start it with "\\n" if it should begin on a new line). May be empty.'),
    mode: z.enum(['replace', 'append']).default('replace').describe('"replace" (default) overwrites the whole file; "append" adds content to its end and creates the file if it is missing.'),
});

export const writeFileTool = defineTool({
    name: 'workspace.write_file',
    alias: aliasOf('workspace.write_file'),
    description: [
        'Writes UTF-8 text to a workspace file in a writable root (output/, scratch/, plan/, summaries/, persist/ unless your profile narrows them). Hidden stores and the roots themselves cannot be written.',
        'mode "replace" (default) sets the whole file to content; "append" adds content exactly as given to the end (no newline is added for you) and creates a missing file.',
        'To change part of an existing file, prefer workspace_apply_patch. Every write makes a checkpoint. The reply the user sees goes in output/main.md and reaches the chat only through workspace_commit.',
    ].join(' '),
    args,
    readOnly: false,
    async execute(input, { workspace }) {
        const checked = checkWritable(input.path, workspace.policy);
        if (!checked.ok) return failure(checked.error);
        const path = checked.path;
        const previous = workspace.get(path);
        if (!previous && workspace.isDirectory(path)) {
            return failure(toolError('workspace.path_is_directory', `"${path}" is a folder, not a file.`, `Write a file inside it, e.g. "${path}/notes.md".`));
        }
        const segments = path.split('/');
        for (let i = 1; i < segments.length; i += 1) {
            const parent = segments.slice(0, i).join('/');
            if (workspace.get(parent)) {
                return failure(toolError('workspace.invalid_path', `"${parent}" is a file, so "${path}" cannot be created under it.`, 'Choose a path whose folders are not existing files.'));
            }
        }

        // An append keeps what the agent had seen: all of it if it had seen the whole previous version.
        const sawAll = previous !== undefined
            && workspace.readState.versionRead(path) === previous.version
            && workspace.readState.covers(path, [0], previous.content.length);

        const refused = checkWrite(path, previous?.content, input.mode === 'append' && previous ? previous.content + input.content : input.content);
        if (refused) return failure(refused);

        const entry = await workspace.write(path, input.content, input.mode);

        if (input.mode === 'append' && previous) {
            if (sawAll) workspace.readState.recordFull(path, entry.version);
            else workspace.readState.recordRange(path, entry.version, previous.content.length, entry.content.length);
        }

        const chars = input.content.length;
        const details = { path, mode: input.mode, chars, version: entry.version, totalChars: entry.content.length, created: !previous };
        if (!previous) {
            return success(`Created ${path} with ${chars} chars (${input.mode}; version ${entry.version}).`, details);
        }
        if (input.mode === 'append') {
            return success(`Appended ${chars} chars to ${path}; it now has ${entry.content.length} chars (version ${entry.version}).`, details);
        }
        return success(`Replaced ${path} with ${chars} chars (version ${entry.version}).`, details);
    },
});
