import { SkillIndexEntrySchema, type SkillIndexEntry } from '../../contract/skills';
import { stContext } from '../sillytavern/st-context';
import { saveSettingsNow, serverExtensionSetting } from './settings-save';

/**
 * The user's skill index in SillyTavern's extension settings (small: names, scopes, hashes, file lists),
 * beside the bundles in the user's files. Saved at once, not debounced: an install is done only when the
 * server holds its index line. Its own key, so code that rewrites `tavern_agent` (profiles) never drops it.
 */
const SETTINGS_KEY = 'tavern_agent_skills';

export interface SkillIndexState {
    index: SkillIndexEntry[];
    /** Payload hashes of card/preset skills the user said "Not now" to, or that we wrote ourselves. */
    declined: string[];
}

export interface SkillIndexStore {
    read(): SkillIndexState;
    /**
     * Takes the server's current index (another browser may have changed it), applies `change` and saves.
     * When the save fails the index is what it was before, and this rejects.
     */
    update(change: (state: SkillIndexState) => SkillIndexState): Promise<SkillIndexState>;
}

interface StoredSkills {
    version: 1;
    index: unknown[];
    declined: unknown[];
}

function normalize(raw: unknown): SkillIndexState {
    const stored = raw && typeof raw === 'object' ? (raw as Partial<StoredSkills>) : {};
    const index = Array.isArray(stored.index) ? stored.index.flatMap((line) => {
        const parsed = SkillIndexEntrySchema.safeParse(line);
        return parsed.success ? [parsed.data] : [];
    }) : [];
    const declined = Array.isArray(stored.declined) ? stored.declined.filter((h): h is string => typeof h === 'string') : [];
    return { index, declined };
}

function settings(): Record<string, unknown> {
    return stContext().extensionSettings as Record<string, unknown>;
}

function write(state: SkillIndexState): void {
    const stored: StoredSkills = { version: 1, index: structuredClone(state.index), declined: [...state.declined] };
    settings()[SETTINGS_KEY] = stored;
}

let queue: Promise<unknown> = Promise.resolve();

export const settingsSkillIndex: SkillIndexStore = {
    read: () => normalize(structuredClone(settings()[SETTINGS_KEY])),
    update(change) {
        // One update at a time: each starts from what the previous one saved.
        const next = queue.then(async () => {
            const before = settings()[SETTINGS_KEY];
            const server = await serverExtensionSetting(SETTINGS_KEY);
            const base = normalize(structuredClone(server ?? before));
            const changed = change(base);
            write(changed);
            const saved = await saveSettingsNow().catch(() => false);
            if (!saved) {
                // Unchanged: what the server holds (or, offline, what this page had).
                settings()[SETTINGS_KEY] = server ?? before;
                throw new Error('SillyTavern could not save the skill index (settings save failed).');
            }
            return normalize(structuredClone(settings()[SETTINGS_KEY]));
        });
        queue = next.catch(() => undefined);
        return next;
    },
};
