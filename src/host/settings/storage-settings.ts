import { DEFAULT_RETENTION, RetentionPolicySchema, type RetentionPolicy } from '../../contract/storage';
import { stContext } from '../sillytavern/st-context';

/** The retention settings live with the profiles in SillyTavern's extension settings (they follow the user). */
const SETTINGS_KEY = 'tavern_agent';

export function retentionSettings(): RetentionPolicy {
    const all = stContext().extensionSettings as Record<string, unknown>;
    const stored = (all[SETTINGS_KEY] as { retention?: unknown } | undefined)?.retention;
    const parsed = RetentionPolicySchema.safeParse(stored);
    return parsed.success ? parsed.data : { ...DEFAULT_RETENTION };
}

export function saveRetentionSettings(policy: RetentionPolicy): void {
    const all = stContext().extensionSettings as Record<string, unknown>;
    const current = all[SETTINGS_KEY];
    if (!current || typeof current !== 'object') all[SETTINGS_KEY] = { profiles: {} };
    (all[SETTINGS_KEY] as { retention?: RetentionPolicy }).retention = { ...policy };
    stContext().saveSettingsDebounced();
}

/**
 * Asks the browser to keep Tavern Agent's data when space runs low (best effort: browsers may grant it
 * silently, ask, or refuse). Returns whether storage is persistent now.
 */
export async function requestPersistentStorage(): Promise<boolean> {
    const storage = typeof navigator === 'undefined' ? undefined : navigator.storage;
    if (!storage?.persist) return false;
    try {
        return (await storage.persisted()) || (await storage.persist());
    } catch {
        return false;
    }
}
