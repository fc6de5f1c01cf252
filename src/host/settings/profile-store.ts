import { stContext } from '../sillytavern/st-context';

/**
 * The user's own profiles (and their changed copies of built-ins), as raw JSON in SillyTavern's extension
 * settings: they follow the SillyTavern user across browsers. The worker validates them; this side only
 * keeps them. Profiles hold no secrets (a model is named by its Connection Manager profile id).
 */
const SETTINGS_KEY = 'tavern_agent';

interface TavernAgentSettings {
    profiles: Record<string, unknown>;
}

function settings(): TavernAgentSettings {
    const all = stContext().extensionSettings as Record<string, unknown>;
    const current = all[SETTINGS_KEY];
    if (!current || typeof current !== 'object') all[SETTINGS_KEY] = { profiles: {} };
    const value = all[SETTINGS_KEY] as Partial<TavernAgentSettings>;
    if (!value.profiles || typeof value.profiles !== 'object' || Array.isArray(value.profiles)) value.profiles = {};
    return value as TavernAgentSettings;
}

export function storedProfiles(): Record<string, unknown> {
    return structuredClone(settings().profiles);
}

export function saveStoredProfiles(profiles: ReadonlyArray<{ id: string }>): void {
    const store = settings().profiles;
    for (const profile of profiles) store[profile.id] = structuredClone(profile);
    stContext().saveSettingsDebounced();
}

export function deleteStoredProfile(id: string): void {
    delete settings().profiles[id];
    stContext().saveSettingsDebounced();
}
