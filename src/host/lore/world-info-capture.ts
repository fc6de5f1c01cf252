import type { WorldInfoEntry } from '../../contract/run-input';

/** An entry as SillyTavern's world-info scan holds it (public/scripts/world-info.js, 1.19). */
interface ScannedEntry {
    world?: string;
    uid?: number;
    comment?: string;
    key?: string[];
    content?: string;
    constant?: boolean;
}

/**
 * Records the world-info activation of one dry run from SillyTavern's events, and tells "no entry activated"
 * from "the activation was not seen". In world-info.js every scan first loads the lorebooks
 * (WORLDINFO_ENTRIES_LOADED); with no entries at all it stops there, otherwise each scan loop ends with
 * WORLDINFO_SCAN_DONE carrying every entry activated so far (an empty map when none matched).
 * WORLD_INFO_ACTIVATED is no use here: SillyTavern skips it in dry runs.
 */
export interface WorldInfoCapture {
    onEntriesLoaded(lore: Record<string, unknown>): void;
    onScanDone(args: { activated?: { entries?: unknown } }): void;
    /** captured is false when the scan was not seen: the run's tools then say so instead of listing nothing. */
    result(): { captured: boolean; entries: WorldInfoEntry[] };
}

export function createWorldInfoCapture(): WorldInfoCapture {
    let loadedEntries: number | null = null;
    let activated: Map<string, ScannedEntry> | null = null;
    return {
        onEntriesLoaded(lore) {
            loadedEntries = Object.values(lore).reduce<number>((sum, list) => sum + (Array.isArray(list) ? list.length : 0), 0);
        },
        onScanDone(args) {
            const entries = args.activated?.entries;
            if (entries instanceof Map) activated = new Map(entries as Map<string, ScannedEntry>);
        },
        result() {
            if (activated) return { captured: true, entries: [...activated.values()].map(toEntry) };
            // Books loaded with no entry in them: SillyTavern had nothing to scan, so nothing was activated.
            return { captured: loadedEntries === 0, entries: [] };
        },
    };
}

function toEntry(entry: ScannedEntry): WorldInfoEntry {
    return {
        book: String(entry.world ?? ''),
        uid: Number(entry.uid ?? 0),
        title: String(entry.comment ?? ''),
        keys: Array.isArray(entry.key) ? entry.key.map(String) : [],
        content: String(entry.content ?? ''),
        constant: Boolean(entry.constant),
    };
}
