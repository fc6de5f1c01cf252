import { importStModule } from './st-module';

/**
 * SillyTavern's world-info module (public/scripts/world-info.js, 1.19), imported from the page at run time
 * like the other internals (never bundled): the context API lacks entry creation and the chat-lore key.
 */
export interface WorldInfoData {
    entries: Record<string, Record<string, unknown> & { uid: number }>;
}

export interface WorldInfoModule {
    METADATA_KEY: string;
    world_names: string[];
    /** `charLore`: the additional books of each character, by avatar file name without extension. */
    world_info: { charLore?: Array<{ name: string; extraBooks: string[] }> };
    loadWorldInfo(name: string): Promise<WorldInfoData | null | undefined>;
    saveWorldInfo(name: string, data: WorldInfoData, immediately?: boolean): Promise<void>;
    createWorldInfoEntry(name: string, data: WorldInfoData): (Record<string, unknown> & { uid: number }) | undefined;
    createNewWorldInfo(name: string, options?: { interactive?: boolean }): Promise<boolean>;
    /** Refreshes the lorebook editor when it shows this book. */
    reloadEditor(file: string, loadIfNotSelected?: boolean): void;
    /** The page's copies of the books it loaded (loadWorldInfo reads them; get returns a clone). */
    worldInfoCache: { has(name: string): boolean; get(name: string): WorldInfoData | undefined; set(name: string, data: WorldInfoData): void };
}

const WORLD_INFO_MODULE = '/scripts/world-info.js';

export function importWorldInfoModule(): Promise<WorldInfoModule> {
    return importStModule<WorldInfoModule>(WORLD_INFO_MODULE);
}
