/**
 * Pages handed back for the next fresh open.
 *
 * The suite is CPU-bound on 2 cores, and half its CPU is SillyTavern's page loading (docs/performance.md §23).
 * A page in a new browser context costs about 10 s of CPU to load; the same page, its origin's storage
 * cleared and loaded again, about 7 s: its renderer process and HTTP cache are warm, and it starts with the
 * same empty IndexedDB, localStorage, sessionStorage and cookies a new context has. So a test closes the page it
 * opened with `closePage(page)`, and the session's next `open()` loads SillyTavern into it again.
 *
 * Only a page that `open()` made, alone in its context and still on SillyTavern's page, is kept; it leaves with
 * nothing a test put on it (listeners, routes, permissions). A page with init scripts or exposed functions
 * cannot shed them: a test that adds those closes its context itself.
 */
import type { BrowserContext, Page } from 'playwright-core';

/** What a site clears so that a page starts as in a new context (the HTTP cache is kept: it is the point). */
const STORAGE_TYPES = 'cookies,indexeddb,local_storage,file_systems,websql,service_workers,cache_storage';
/** Bounds leaving SillyTavern's page; a page that does not leave in time is closed instead. */
const LEAVE_TIMEOUT_MS = 15_000;

/** The one page a session keeps for its next open, and the contexts its `open()` made. */
export class RecycledPages {
    private kept: Page | undefined;
    private readonly ours = new WeakSet<BrowserContext>();

    /** `origin`: SillyTavern's, whose storage a kept page has cleared. */
    constructor(private readonly origin: string) {
        pools.add(this);
    }

    /** Marks a context as made by this session's `open()`: its page may be handed back. */
    adopt(context: BrowserContext): void {
        this.ours.add(context);
    }

    owns(page: Page): boolean {
        return this.ours.has(page.context());
    }

    /** The kept page, now the caller's (on about:blank, its origin's storage cleared), or undefined. */
    take(): Page | undefined {
        const page = this.kept;
        this.kept = undefined;
        if (!page || page.isClosed()) return undefined;
        taken.set(page, timesTaken(page) + 1);
        return page;
    }

    /** Empties the page of what the test left and keeps it; closes its context when it cannot be kept. */
    async keep(page: Page): Promise<void> {
        // Handed back twice (a test closed a page openAgentChat still held for reuse): it is kept already.
        if (this.kept === page) return;
        const context = page.context();
        try {
            if (page.isClosed() || context.pages().length !== 1 || new URL(page.url()).origin !== this.origin) throw new Error('not reusable');
            page.removeAllListeners();
            await page.unrouteAll({ behavior: 'ignoreErrors' });
            await context.unrouteAll({ behavior: 'ignoreErrors' });
            await context.clearPermissions();
            // sessionStorage belongs to the tab, so it survives the origin's clearing: emptied while still on the page.
            await page.evaluate(() => sessionStorage.clear());
            // SillyTavern asks before leaving while a chat is being saved or a message edited: leave anyway, as a
            // closed context would.
            page.on('dialog', (dialog) => void dialog.accept().catch(() => undefined));
            await page.goto('about:blank', { timeout: LEAVE_TIMEOUT_MS });
            page.removeAllListeners('dialog');
            const devtools = await context.newCDPSession(page);
            await devtools.send('Storage.clearDataForOrigin', { origin: this.origin, storageTypes: STORAGE_TYPES });
            await devtools.detach();
            await context.clearCookies();
        } catch {
            await context.close().catch(() => undefined);
            return;
        }
        const previous = this.kept;
        this.kept = page;
        await previous?.context().close().catch(() => undefined);
    }

    /** Closes the kept page (the session is ending). */
    async close(): Promise<void> {
        pools.delete(this);
        await this.take()?.context().close().catch(() => undefined);
    }
}

const pools = new Set<RecycledPages>();
const taken = new WeakMap<Page, number>();

/**
 * How many times `open()` has given this page out again: a holder of a page (openAgentChat's `reuse`) compares
 * it to know that the page is still the one it kept, not one a later test was given anew.
 */
export function timesTaken(page: Page): number {
    return taken.get(page) ?? 0;
}

/**
 * Closes a page a test is done with, as `page.context().close()` does (with every page of its context): a page
 * that a session's `open()` made is kept for that session's next open instead.
 */
export async function closePage(page: Page): Promise<void> {
    const pool = [...pools].find((candidate) => candidate.owns(page));
    if (pool) await pool.keep(page);
    else await page.context().close().catch(() => undefined);
}
