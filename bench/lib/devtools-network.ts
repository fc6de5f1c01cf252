import type { Page } from 'playwright-core';

/**
 * True when the bench runs under bench/lib/no-devtools-network.cjs (`npm run bench:no-devtools-network`): the
 * pages have no DevTools Network domain, as a user's browser, and Playwright sees none of their requests.
 */
export function devtoolsNetworkOff(): boolean {
    return (globalThis as { __benchDevtoolsNetworkOff?: boolean }).__benchDevtoolsNetworkOff === true;
}

/**
 * Records in the page the string bodies of its POSTs to `url` (as the page's code names it), for when
 * Playwright sees no requests: the page's `fetch` is wrapped once; `take()` returns what was posted since the
 * last take. A wrapper call is one comparison and one push a request, the same on every path measured.
 */
export async function recordPostBodies(page: Page, url: string): Promise<{ take(): Promise<string[]> }> {
    await page.evaluate((target) => {
        const state = globalThis as unknown as { __benchPostBodies?: string[] };
        if (state.__benchPostBodies) return;
        const bodies: string[] = [];
        state.__benchPostBodies = bodies;
        const original = globalThis.fetch;
        globalThis.fetch = function recordedFetch(input: RequestInfo | URL, init?: RequestInit) {
            if (input === target && init?.method === 'POST' && typeof init.body === 'string') bodies.push(init.body);
            return original.call(this, input, init);
        };
    }, url);
    return {
        take: () =>
            page.evaluate(() => {
                const bodies = (globalThis as unknown as { __benchPostBodies: string[] }).__benchPostBodies;
                return bodies.splice(0, bodies.length);
            }),
    };
}
