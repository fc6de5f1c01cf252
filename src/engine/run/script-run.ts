import type { Profile } from '../../contract/profile';
import type { RunInput } from '../../contract/run-input';
import { STATE_WRITE_TOOLS } from './phase-run';

/** Where a background scripted run leaves its answer: `/agent run` returns this file's text. */
export const SCRIPT_SUMMARY_PATH = 'summaries/summary.md';

/** Roots a background scripted run may write: its notes and its answer, never the reply or the memory. */
const BACKGROUND_WRITABLE = ['scratch', 'summaries'] as const;

/**
 * The profile a scripted run works with. A background run (issue 15: "summaries/, no commit") never
 * commits and writes only scratch/ and summaries/, whatever its profile says; a foreground one is the
 * profile as it is.
 */
export function scriptedProfile(profile: Profile, script: RunInput['script']): Profile {
    if (!script?.background) return profile;
    const visible = [...new Set([...profile.workspace.visibleRoots, ...BACKGROUND_WRITABLE])];
    return {
        ...profile,
        presentation: 'background',
        // No reply to carry state changes either: a background run reads state, never stages a change.
        tools: { ...profile.tools, deny: [...profile.tools.deny, 'workspace.commit', ...STATE_WRITE_TOOLS] },
        workspace: { visibleRoots: visible, writableRoots: [...BACKGROUND_WRITABLE] },
    };
}

/** What the model is told about a scripted run, after the usual instructions. */
export function scriptInstructions(script: NonNullable<RunInput['script']>): string {
    if (!script.background) {
        return 'This run was started by a script: the last user message below is its request. Answer it as the reply, the usual way.';
    }
    return [
        'This run was started by a script as a background task: the last user message below is the task. Nothing you write reaches the chat, and workspace_commit is not available.',
        `Write your answer to ${SCRIPT_SUMMARY_PATH} with workspace_write_file (it is handed back to the script), then call workspace_finish.`,
    ].join('\n');
}
