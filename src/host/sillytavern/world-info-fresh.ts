import { stContext } from './st-context';
import type { WorldInfoData, WorldInfoModule } from './world-info-module';

/** SillyTavern's lorebook editor saves a book this long after the last change (world-info.js saveWorldDebounced: debounce_timeout.relaxed). */
const EDITOR_SAVE_DELAY_MS = 1_000;

async function fetchBook(name: string): Promise<WorldInfoData | null> {
    const response = await fetch('/api/worldinfo/get', { method: 'POST', headers: stContext().getRequestHeaders(), body: JSON.stringify({ name }), cache: 'no-cache' });
    if (!response.ok) return null;
    const data = (await response.json()) as WorldInfoData | null; // the book file as the server stores it
    return data?.entries ? data : null;
}

/**
 * A lorebook as SillyTavern's server holds it now, which the page's own copy (loadWorldInfo's cache) may not
 * be: another tab or device may have saved the book since this page read it, and writing the page's copy back
 * would undo that. A change of this page's lorebook editor still waiting for its delayed save is let land
 * first: when the page's copy differs from the server's, the delay is waited out and the server read again.
 * A copy still different then is stale; the server's replaces it (and the editor shows it).
 */
export async function loadWorldInfoFresh(wi: WorldInfoModule, name: string): Promise<WorldInfoData | null> {
    const cached = wi.worldInfoCache.has(name) ? JSON.stringify(wi.worldInfoCache.get(name)) : null;
    let server = await fetchBook(name);
    if (!server || cached === null || JSON.stringify(server) === cached) return server ?? (await wi.loadWorldInfo(name)) ?? null;
    await new Promise((resolve) => setTimeout(resolve, EDITOR_SAVE_DELAY_MS + 300));
    server = await fetchBook(name);
    if (!server) return (await wi.loadWorldInfo(name)) ?? null;
    if (JSON.stringify(server) !== JSON.stringify(wi.worldInfoCache.get(name))) {
        wi.worldInfoCache.set(name, server);
        wi.reloadEditor(name, false);
    }
    return structuredClone(server);
}
