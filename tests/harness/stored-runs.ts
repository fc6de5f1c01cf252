import type { Page } from 'playwright-core';

/** A run record as the page's IndexedDB holds it (the fields tests look at). */
export interface StoredRun {
    runId: string;
    chatId: string;
    state: string;
    messageId: number | null;
    createdAt: number;
    updatedAt: number;
    lease?: { owner: string; token?: string; until: number };
}

/** Every run record of the default user's database, read from a page (what every tab's engine reads). */
export async function storedRuns(page: Page): Promise<StoredRun[]> {
    return page.evaluate(
        () =>
            new Promise<StoredRun[]>((resolve, reject) => {
                const open = indexedDB.open('tavern-agent:default-user');
                open.onerror = () => reject(open.error);
                open.onsuccess = () => {
                    const request = open.result.transaction('runs').objectStore('runs').getAll();
                    request.onsuccess = () => {
                        resolve(request.result as StoredRun[]);
                        open.result.close();
                    };
                    request.onerror = () => reject(request.error);
                };
            }),
    );
}

/** The journal of a run, read from the page's IndexedDB (what the timeline and an export are made of). */
export async function journalTypes(page: Page, runId: string): Promise<string[]> {
    return page.evaluate(
        (id) =>
            new Promise<string[]>((resolve, reject) => {
                const open = indexedDB.open('tavern-agent:default-user');
                open.onerror = () => reject(open.error);
                open.onsuccess = () => {
                    const request = open.result.transaction('events').objectStore('events').getAll(IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER]));
                    request.onsuccess = () => {
                        // A record is one journal write (a group of events, database version 4) or, before, one event.
                        resolve((request.result as Array<{ type?: string; group?: Array<{ type: string }> }>).flatMap((record) => (record.group ?? [record]).map((event) => String(event.type))));
                        open.result.close();
                    };
                    request.onerror = () => reject(request.error);
                };
            }),
        runId,
    );
}
