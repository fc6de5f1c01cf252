import { cardSkillsPayload } from '../../contract/card-payload';
import type { SkillScope } from '../../contract/skills';
import { t } from '../../i18n/t';
import { stContext, type StContext } from '../sillytavern/st-context';

/** A card's or preset's embedded `tauritavern.skills` payload, and where its skills install. */
export interface OwnerPayload {
    kind: 'card' | 'preset';
    /** The character's avatar file, or the preset's name. */
    owner: string;
    scope: SkillScope;
    payload: unknown;
}

export interface EmbeddedOwners {
    /** The open character's and the selected chat-completion preset's payloads, where they carry one. */
    embedded(): Promise<OwnerPayload[]>;
    /** The target's current payload (possibly none) and its name; null when there is no such target open. */
    current(target: 'card' | 'preset'): Promise<{ owner: string; payload: unknown } | null>;
    /**
     * Writes the payload into the target, keeping every other `tauritavern` field (agent profiles…). `owner` is
     * the one `current` named: when another character or preset is open by now, nothing is written.
     */
    write(target: 'card' | 'preset', payload: unknown, owner: string): Promise<void>;
}

interface Character {
    avatar: string;
    name?: string;
    data?: { extensions?: Record<string, unknown> };
    extensions?: Record<string, unknown>;
}

interface PresetManager {
    readPresetExtensionField(options: { name?: string; path: string }): unknown;
    writePresetExtensionField(options: { name?: string; path: string; value: unknown }): Promise<void>;
}

/** Context members this module needs beyond the shared StContext type. */
type OwnerContext = StContext & {
    characters: Character[];
    chatCompletionSettings?: { preset_settings_openai?: string };
    unshallowCharacter?: (characterId: number | string) => Promise<void>;
    writeExtensionField(characterId: number | string, key: string, value: unknown): Promise<void>;
    getPresetManager(apiId?: string): PresetManager | null;
};

function context(): OwnerContext {
    return stContext() as OwnerContext;
}

function tauriOf(extensions: Record<string, unknown> | undefined): Record<string, unknown> | null {
    const value = extensions?.tauritavern;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** The open character (not in a group chat: there the card's skills are offered when its own chat opens). */
async function openCharacter(): Promise<{ id: number | string; character: Character } | null> {
    const ctx = context();
    if (ctx.groupId || ctx.characterId === undefined || ctx.characterId === null) return null;
    const id = ctx.characterId;
    // SillyTavern may load characters shallow (lazy loading): the card's extensions come with the full one.
    await ctx.unshallowCharacter?.(id);
    const character = context().characters[Number(id)];
    return character ? { id, character } : null;
}


/** The selected chat-completion preset (SillyTavern's `oai_settings.preset_settings_openai`). */
export function selectedPresetName(): string | null {
    const name = context().chatCompletionSettings?.preset_settings_openai;
    return typeof name === 'string' && name ? name : null;
}

export function openCharacterAvatar(): string | null {
    const ctx = context();
    if (ctx.characterId === undefined || ctx.characterId === null) return null;
    return ctx.characters[Number(ctx.characterId)]?.avatar ?? null;
}

function presetPayload(name: string): unknown {
    return context().getPresetManager('openai')?.readPresetExtensionField({ name, path: 'tauritavern.skills' }) ?? null;
}

export const stEmbeddedOwners: EmbeddedOwners = {
    async embedded() {
        const found: OwnerPayload[] = [];
        const open = await openCharacter();
        const card = open ? cardSkillsPayload(open.character) : null;
        if (open && card) found.push({ kind: 'card', owner: open.character.avatar, scope: { character: open.character.avatar }, payload: card });
        const preset = selectedPresetName();
        const fromPreset = preset ? presetPayload(preset) : null;
        if (preset && fromPreset) found.push({ kind: 'preset', owner: preset, scope: { preset }, payload: fromPreset });
        return found;
    },
    async current(target) {
        if (target === 'card') {
            const open = await openCharacter();
            return open ? { owner: open.character.avatar, payload: cardSkillsPayload(open.character) } : null;
        }
        const preset = selectedPresetName();
        return preset ? { owner: preset, payload: presetPayload(preset) } : null;
    },
    async write(target, payload, owner) {
        const ctx = context();
        if (target === 'card') {
            const open = await openCharacter();
            if (!open) throw new Error(t`Open a character chat first: skills are written into the open character's card.`);
            // The payload was made from that card's skills: written into another one, it would replace that card's.
            if (open.character.avatar !== owner) throw new Error(t`Another character was opened meanwhile: nothing was written into its card.`);
            // writeExtensionField replaces the whole `tauritavern` object: keep what is there (agentProfiles…).
            const existing = tauriOf(open.character.data?.extensions) ?? {};
            await ctx.writeExtensionField(open.id, 'tauritavern', { ...structuredClone(existing), skills: payload });
            return;
        }
        const preset = selectedPresetName();
        const manager = ctx.getPresetManager('openai');
        if (!preset || !manager) throw new Error(t`Select a Chat Completion preset first.`);
        if (preset !== owner) throw new Error(t`Another preset was selected meanwhile: nothing was written into it.`);
        // Sets only `tauritavern.skills` and saves the preset the way SillyTavern's own preset fields do.
        await manager.writePresetExtensionField({ name: preset, path: 'tauritavern.skills', value: payload });
    },
};
