import type { RunLore } from '../../contract/lore';
import type { WorldInfoEntry } from '../../contract/run-input';
import { buildRunLore, type ExtraBook, type LoadedLore } from './lore-capture';
import { chatBookName } from '../sillytavern/chat-lorebook';
import { stContext } from '../sillytavern/st-context';
import { importWorldInfoModule, type WorldInfoModule } from '../sillytavern/world-info-module';

interface CharacterLike {
    avatar?: string;
    data?: { extensions?: { world?: unknown } };
}

interface GroupLike {
    id: string;
    members?: string[];
}

/**
 * In a group, SillyTavern's scan reads only the speaking member's books; issue 19 puts every member's in
 * scope. Returns the members' primary and additional books (loaded), which buildRunLore adds when new.
 */
async function groupMemberBooks(wi: WorldInfoModule): Promise<ExtraBook[]> {
    const context = stContext() as unknown as { groupId?: string | null; groups?: GroupLike[]; characters?: CharacterLike[] };
    if (!context.groupId) return [];
    const group = context.groups?.find((g) => g.id === context.groupId);
    const names = new Set<string>();
    for (const avatar of group?.members ?? []) {
        const character = context.characters?.find((c) => c.avatar === avatar);
        const primary = character?.data?.extensions?.world;
        if (typeof primary === 'string' && primary) names.add(primary);
        const fileName = avatar.replace(/\.[^/.]+$/, '');
        for (const extra of wi.world_info.charLore?.find((lore) => lore.name === fileName)?.extraBooks ?? []) names.add(extra);
    }
    const books: ExtraBook[] = [];
    for (const name of names) {
        if (!wi.world_names.includes(name)) continue;
        const data = await wi.loadWorldInfo(name);
        if (data?.entries) books.push({ name, source: 'member', entries: Object.values(data.entries) });
    }
    return books;
}

/**
 * The lorebooks in scope for a run, frozen with the rest of its input. A failure here never stops the run:
 * the lore tools then say the books were not captured.
 */
export async function captureRunLore(loaded: LoadedLore | null, activated: readonly WorldInfoEntry[]): Promise<RunLore | undefined> {
    try {
        const wi = await importWorldInfoModule();
        return buildRunLore(loaded, await groupMemberBooks(wi), chatBookName(wi), activated);
    } catch (error) {
        console.warn('[Tavern Agent] the lorebooks in scope could not be captured', error);
        return undefined;
    }
}
