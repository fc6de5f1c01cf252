import type { Profile } from '../../contract/profile';
import { buildInstructions } from './build-run';
import { BRIEF_MAX_CHARS, BRIEF_PATH, type RunInput, type RunPhase } from '../../contract/run-input';

/** A run's phase in its turn: absent means the reply (every run before issue 34). */
export function phaseOf(input: Pick<RunInput, 'phase'>): RunPhase {
    return input.phase ?? 'reply';
}

/**
 * The profile an agent around the reply works with (issue 34): a `before` or `after` agent never writes the
 * chat (it is not offered workspace.commit) and ends with workspace.finish without a commit, whatever its
 * profile says; a reply agent's profile is as it is.
 */
export function phasedProfile(profile: Profile, phase: RunPhase): Profile {
    if (phase === 'reply') return profile;
    // A director's state changes would have no reply to go with: it reads state, a keeper after the reply may write it.
    const deny = phase === 'before' ? ['workspace.commit', ...STATE_WRITE_TOOLS] : ['workspace.commit'];
    return { ...profile, presentation: 'background', tools: { ...profile.tools, deny: [...profile.tools.deny, ...deny] } };
}

/** The tools that stage state changes (issue 36): only a run that writes a reply, or a keeper after one, may. */
export const STATE_WRITE_TOOLS = ['state.patch', 'state.set'];

/** What the model is told of its phase, after the usual instructions (none for a reply agent). */
export function phaseInstructions(input: RunInput): string | null {
    const speaker = input.chat.characterName || 'the character';
    switch (phaseOf(input)) {
        case 'before':
            return [
                `This run comes BEFORE ${speaker}'s next reply is written: you do not write the reply, and nothing you write reaches the chat.`,
                `Gather what the reply must respect, and write a short brief for it to ${BRIEF_PATH} with workspace_write_file: it goes into the prompt of the reply. Then call workspace_finish.`,
            ].join('\n');
        case 'after': {
            if (input.build) return buildInstructions(input.build, input.profile.workspace.writableRoots.includes('persist'));
            const at = input.follows?.messageIndex;
            return [
                `This run comes AFTER a reply was added to the chat${at === undefined ? '' : ` (message #${at}, the last message below)`}: work on that reply as your profile says, in the background. You cannot change the chat.`,
                "persist/ is this chat's memory: what you leave there when you finish is carried by that reply message, for the runs after it. End with workspace_finish.",
            ].join('\n');
        }
        case 'reply':
            return input.brief ? `A director prepared this brief for the reply. Respect it:\n${input.brief}` : null;
    }
}

/** A director's brief from its workspace file, cut to what a prompt takes. */
export function briefText(file: string | undefined): string {
    return (file ?? '').trim().slice(0, BRIEF_MAX_CHARS);
}
