import { builtInProfile, type Profile } from '../../contract/profile';
import { t } from '../../i18n/t';

/**
 * A built-in profile's name and description in the user's language. Only while the stored text is the
 * shipped English one: a name or description the user wrote is theirs, shown as written.
 */

function builtInName(id: string): string | null {
    switch (id) {
        case 'writer':
            return t`Writer`;
        case 'researcher':
            return t`Researcher`;
        case 'editor':
            return t`Editor`;
        case 'game-master':
            return t`Game Master`;
        case 'director':
            return t`Director`;
        case 'lore-keeper':
            return t`Lore keeper`;
        case 'memory-keeper':
            return t`Memory keeper`;
        case 'state-keeper':
            return t`State keeper`;
        default:
            return null;
    }
}

function builtInDescription(id: string): string | null {
    switch (id) {
        case 'writer':
            return t`Drafts the reply in its workspace, revises it, and commits one clean message.`;
        case 'researcher':
            return t`A read-only sub-agent: searches the chat, lore and skills, and writes its findings to scratch/ and summaries/.`;
        case 'editor':
            return t`A sub-agent that reads the draft in output/ and writes review notes to summaries/.`;
        case 'game-master':
            return t`Runs the scene like a tabletop game master: rolls dice for uncertain outcomes and narrates the results.`;
        case 'director':
            return t`Plans before the reply: reads the chat, the lore and the memory, and writes a brief of what the next reply must respect.`;
        case 'lore-keeper':
            return t`Works after each reply: reads it and the lore in scope, and proposes lore changes for you to accept.`;
        case 'memory-keeper':
            return t`Works after each reply: keeps the chat's memory in persist/ up to date, one file per subject.`;
        case 'state-keeper':
            return t`Works after each reply: reads it and updates the chat's state (variables, MVU) to match what happened.`;
        default:
            return null;
    }
}

export function profileName(profile: Pick<Profile, 'id' | 'displayName'>): string {
    const shipped = builtInProfile(profile.id);
    return shipped && shipped.displayName === profile.displayName ? (builtInName(profile.id) ?? profile.displayName) : profile.displayName;
}

export function profileDescription(profile: Pick<Profile, 'id' | 'description'>): string {
    const shipped = builtInProfile(profile.id);
    return shipped && shipped.description === profile.description ? (builtInDescription(profile.id) ?? profile.description) : profile.description;
}
