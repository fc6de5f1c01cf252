/**
 * Which state systems run on this page (issue 36): MVU puts `Mvu` on the window once it is initialized, Tavern
 * Helper puts `TavernHelper` there (design note §2, §3.5). Only their presence is read: nothing of them is called.
 */
export function loadedStateSystems(): { mvu: boolean; tavernHelper: boolean } {
    const page = globalThis as { Mvu?: unknown; TavernHelper?: unknown };
    return { mvu: Boolean(page.Mvu), tavernHelper: Boolean(page.TavernHelper) };
}
