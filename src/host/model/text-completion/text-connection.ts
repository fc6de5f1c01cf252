import { stContext } from '../../sillytavern/st-context';
import { storedConnectionProfiles } from '../connection-profiles';

/** SillyTavern's CONNECT_API_MAP entry for a connection profile's `api` (main API, and source or text type). */
export function connectionApiOf(api: string): { selected: string; type?: string; source?: string } {
    const map = (stContext() as unknown as { CONNECT_API_MAP?: Record<string, { selected?: string; type?: string; source?: string }> }).CONNECT_API_MAP;
    const entry = map?.[api];
    return { selected: entry?.selected ?? '', ...(entry?.type ? { type: entry.type } : {}), ...(entry?.source ? { source: entry.source } : {}) };
}

/** A Connection Manager profile as SillyTavern stores it (its instruct template and state are read for text routes). */
export function rawConnectionProfile(id: string): { instruct?: string; 'instruct-state'?: string } | undefined {
    const found = storedConnectionProfiles().find((p) => p.id === id);
    if (!found) return undefined;
    return {
        ...(typeof found.instruct === 'string' ? { instruct: found.instruct } : {}),
        ...(typeof found['instruct-state'] === 'string' ? { 'instruct-state': found['instruct-state'] } : {}),
    };
}
