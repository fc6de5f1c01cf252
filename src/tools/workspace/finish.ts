import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { aliasOf, defineTool, failure, success } from '../tool';
import { DEFAULT_REPLY_PATH } from './commit';

const args = z.object({
    reason: z.string().optional().describe('A short note on how the run ended, for the timeline.'),
});

export const finishTool = defineTool({
    name: 'workspace.finish',
    alias: aliasOf('workspace.finish'),
    description: [
        'Ends this run. Call it once, last, after workspace_commit has put your reply in the chat.',
        'A run answering the user must have committed at least once, or finish is refused. After finish no more tools run.',
    ].join(' '),
    args,
    readOnly: false,
    async execute(input, { run }) {
        if (run.foreground && !run.hasCommitted()) {
            return failure(
                toolError(
                    'workspace.commit_required',
                    'The run cannot finish yet: no reply has been committed to the chat.',
                    `Write the reply to ${DEFAULT_REPLY_PATH} with workspace_write_file, commit it with workspace_commit, then call workspace_finish.`,
                ),
            );
        }
        run.finish(input.reason ?? null);
        return success(run.hasCommitted() ? 'Run finished; the committed reply stays in the chat.' : 'Run finished.', { reason: input.reason ?? null });
    },
});
