import type { SkillOwners } from '../../contract/skills-service';
import { stContext } from '../sillytavern/st-context';

interface OwnerContext {
    characters?: Array<{ avatar?: string; name?: string } | undefined>;
    characterId?: number | string;
    getPresetManager?(apiId: string): { getSelectedPresetName?(): string | undefined } | undefined;
}

/**
 * The open character (by avatar file, the character scope's key) and the selected chat-completion preset:
 * what the skill manager offers as targets beside global and profiles. A group chat has no one character.
 */
export function skillOwners(): SkillOwners {
    const context = stContext() as unknown as OwnerContext;
    const id = context.characterId;
    const character = id === undefined || id === '' ? undefined : context.characters?.[Number(id)];
    const preset = context.getPresetManager?.('openai')?.getSelectedPresetName?.() || null;
    return {
        character: character?.avatar ? { avatar: character.avatar, name: character.name || character.avatar } : null,
        preset,
    };
}
