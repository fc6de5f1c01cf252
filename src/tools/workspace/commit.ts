import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { checkVisible } from '../../workspace/paths';
import { aliasOf, defineTool, failure, success } from '../tool';

export const DEFAULT_REPLY_PATH = 'output/main.md';
/** Where a commit conflict puts the user's own edit of the run's message. */
export const USER_EDIT_PATH = 'output/user_edit.md';

const args = z.object({
    path: z.string().default(DEFAULT_REPLY_PATH).describe(`Workspace file whose text becomes the chat message (default "${DEFAULT_REPLY_PATH}").`),
    mode: z
        .enum(['replace', 'append'])
        .default('replace')
        .describe('"replace" (default) sets this run\'s chat message to the file\'s text; "append" adds the text to that message (creating it if this run has not committed yet).'),
    reason: z.string().optional().describe('A short note on why you commit, for the timeline.'),
});

export const commitTool = defineTool({
    name: 'workspace.commit',
    alias: aliasOf('workspace.commit'),
    description: [
        `Puts the text of a workspace file (default ${DEFAULT_REPLY_PATH}) into the chat as this run's one reply message. The file must exist and not be empty.`,
        'mode "replace" (default) overwrites this run\'s message, "append" adds to it. Commit only the finished reply text, with no notes to yourself.',
        'Write the reply first (workspace_write_file), commit it, then call workspace_finish. You may commit again after more edits; it updates the same message.',
    ].join(' '),
    args,
    readOnly: false,
    async execute(input, { workspace, run }) {
        const checked = checkVisible(input.path, workspace.policy, { allowRoot: false });
        if (!checked.ok) return failure(checked.error);
        const path = checked.path;
        const entry = workspace.get(path);
        if (!entry && workspace.isDirectory(path)) {
            return failure(toolError('workspace.path_is_directory', `"${path}" is a folder, not a file.`, `Commit a file, e.g. "${DEFAULT_REPLY_PATH}".`));
        }
        if (!entry || entry.content.trim() === '') {
            return failure(
                toolError(
                    'workspace.empty_artifact',
                    entry ? `"${path}" is empty (${entry.content.length} chars, only whitespace); there is nothing to commit.` : `"${path}" does not exist; there is nothing to commit.`,
                    `Write the reply to "${path}" with workspace_write_file, then commit it.`,
                ),
            );
        }
        // The committed text is checkpointed first, so the exact version in the chat can always be rebuilt.
        await workspace.checkpointCurrent(path);
        const outcome = await run.commit({ path, text: entry.content, mode: input.mode, reason: input.reason ?? null });
        if ('refused' in outcome) {
            const { code, message, userText } = outcome.refused;
            if (code === 'workspace.empty_artifact' || userText === null) {
                return failure(toolError('workspace.empty_artifact', message, `Write the reply itself to "${path}" (no notes, no thinking block) and commit again.`));
            }
            // The user's text is kept in the workspace, where the model can read and merge it.
            await workspace.write(USER_EDIT_PATH, userText, 'replace');
            return failure(
                toolError(
                    'workspace.commit_conflict',
                    `${message} Their text is in ${USER_EDIT_PATH}; the chat message was not changed.`,
                    `Read ${USER_EDIT_PATH}, fold your changes into the user's text (keep their edits), write the result to "${path}" and commit again; the next commit replaces the message.`,
                ),
            );
        }
        const { messageId } = outcome;
        return success(`Committed ${path} to the chat as message #${messageId} (${input.mode}). Call workspace_finish when the reply is complete.`, {
            path,
            mode: input.mode,
            messageId,
            chars: entry.content.length,
            version: entry.version,
        });
    },
});
