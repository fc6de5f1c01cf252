import type { RunInput } from '../../contract/run-input';
import type { RunStorage } from '../../store/run-storage';
import type { Workspace } from '../../workspace/workspace';
import { memoryBase, type MemoryBase } from './memory-base';

type Fix = NonNullable<RunInput['fix']>;

/** Where a fix run finds the reply it revises, and where it commits (the default commit path). */
export const FIX_OUTPUT_PATH = 'output/main.md';

/**
 * The memory a fix run starts from: the one the revised message carries (or the newest before it), never a
 * later message's, so persist/ follows the branch the reply is on.
 *
 * The fix run's commit moves the message's marker to the fix run (the host carries the message's old memory
 * along, so a fix that never finishes leaves the chain as it was). The old run's id is then gone from the
 * chat, so a delta against it could not be resolved from the chat on another device: the base is reported
 * as "not in the chat", which makes the fix run write its memory in full into the message.
 */
export async function fixMemoryBase(input: RunInput, storage: RunStorage): Promise<MemoryBase> {
    if (!input.fix) return followedMemoryBase(input, await memoryBase(input.prefix, storage, input.memorySeed));
    const base = await memoryBase(input.prefix.slice(0, input.fix.messageIndex + 1), storage, input.memorySeed);
    return { ...base, inChat: false };
}

/**
 * A keeper after a reply (issue 34) writes its memory into that reply message. When the reply itself gave the
 * base, the message's memory is replaced by the keeper's: a delta against it could not be resolved from the
 * chat any more, so the base is reported as "not in the chat" and the memory is written in full.
 */
function followedMemoryBase(input: RunInput, base: MemoryBase): MemoryBase {
    const followed = input.follows ? input.prefix[input.follows.messageIndex] : undefined;
    return followed?.agentRunId && followed.agentRunId === base.runId ? { ...base, inChat: false } : base;
}

/**
 * Puts the reply's current text into output/main.md before the loop, journaled like any write (so a resume
 * and the timeline see it) and counted as read, so the agent can patch it at once.
 */
export async function seedFixOutput(workspace: Workspace, fix: Fix | undefined): Promise<void> {
    if (!fix) return;
    await workspace.write(FIX_OUTPUT_PATH, fix.text, 'replace');
}

/** What the model is told about a fix run, after the usual instructions. */
export function fixInstructions(): string {
    return [
        'This run REVISES an existing reply instead of writing a new one: the reply is the message shown in the last user message below, as it reads in the chat now (the user\'s own edits included).',
        `Its text is already in ${FIX_OUTPUT_PATH}, and you have read it: change it there (workspace_apply_patch or workspace_write_file) as the user asks, and nothing else.`,
        'workspace_commit then replaces that same message in the chat (it is not a new message). End with workspace_finish.',
        `The file holds only the reply as the character says it: never the bracketed "[Revise your reply…]" header, the "Request:" line or any of these instructions (a commit that contains them is refused).`,
    ].join('\n');
}

const FIX_HEADER = '[Revise your reply (message #';

/**
 * Why a fix run's text may not be committed: it carries the run's own instructions (the bracketed header
 * or the request line), which a model copying the whole last message into the file would leave in the
 * chat. Null when the text is clean. Checked before every commit of a fix run, with any model.
 */
export function fixInstructionsLeak(fix: Fix, text: string): string | null {
    if (text.includes(FIX_HEADER)) return `The text contains this run's instruction header ("${FIX_HEADER}…]"), not only the reply.`;
    if (fix.request.trim() && text.includes(`Request: ${fix.request}`)) return 'The text contains the fix request line ("Request: …"), not only the reply.';
    return null;
}

/** The fix request, with the reply as it is now: the last message the model reads. */
export function fixRequestMessage(fix: Fix): string {
    return [`[Revise your reply (message #${fix.messageIndex}) as the user asks]`, `Request: ${fix.request}`, '', `The reply now (${FIX_OUTPUT_PATH}):`, fix.text].join('\n');
}
