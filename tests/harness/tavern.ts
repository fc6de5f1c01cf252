import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startMockModel, type MockModel } from './mock-model';
import { startSillyTavern, type ModelSource, type SillyTavernServer, type StartSillyTavernOptions } from './st-server';
import { DEFAULT_VIEWPORT, launchBrowser, loadSillyTavern, openSillyTavern, type StPage } from './browser';
import { RecycledPages } from './recycled-pages';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** The folder name the extension gets when linked into a test SillyTavern. */
export const LINKED_FOLDER = 'tavern-agent';

export interface TavernSession {
    mock: MockModel;
    st: SillyTavernServer;
    browser: Browser;
    /**
     * Opens SillyTavern's page with fresh storage (IndexedDB, localStorage, cookies): the page the last
     * `closePage` handed back, loaded again after its origin's storage was cleared, else one in a new browser
     * context (tests/harness/recycled-pages.ts).
     */
    open(viewport?: { width: number; height: number }): Promise<StPage>;
    close(): Promise<void>;
}

/**
 * One mock model, one SillyTavern and one Chromium for a test file. `link` installs the working tree as the
 * extension (fast, for behaviour tests); the install test uses SillyTavern's own installer instead.
 * `builtIns: 'all'` keeps every built-in extension, as a user has them (the install and the panel's look);
 * behaviour tests run without the ones nothing here touches, so each page load costs less. `setup` starts
 * SillyTavern as `npm start` does (scripts/demo-setup.ts).
 */
export async function startTavernSession(
    opts: { source?: ModelSource; link?: boolean; builtIns?: 'all' | 'lean'; setup?: Pick<StartSillyTavernOptions, 'linkExtensions' | 'patchSettings'> } = {},
): Promise<TavernSession> {
    const mock = await startMockModel();
    let st: SillyTavernServer | undefined;
    let browser: Browser | undefined;
    try {
        st = await startSillyTavern({
            modelUrl: mock.url,
            source: opts.source ?? 'custom',
            linkExtensions: opts.link === false ? [] : [{ folder: LINKED_FOLDER, dir: REPO_ROOT }],
            builtInExtensions: opts.builtIns ?? 'lean',
            // `setup` replaces the above where it says otherwise: the `npm start` demo's extensions and settings.
            ...opts.setup,
        });
        browser = await launchBrowser();
    } catch (error) {
        await browser?.close();
        await st?.stop();
        await mock.close();
        throw error;
    }
    const server = st;
    const chromium = browser;
    const recycled = new RecycledPages(new URL(server.url).origin);
    return {
        mock,
        st: server,
        browser: chromium,
        async open(viewport) {
            const kept = recycled.take();
            if (kept) {
                await kept.setViewportSize(viewport ?? DEFAULT_VIEWPORT);
                return loadSillyTavern(kept, server.url);
            }
            const opened = await openSillyTavern(chromium, server.url, viewport ? { viewport } : {});
            recycled.adopt(opened.context);
            return opened;
        },
        async close() {
            await recycled.close();
            await chromium.close().catch(() => undefined);
            await server.stop().catch(() => undefined);
            await mock.close().catch(() => undefined);
        },
    };
}

/** Runs a slash command the way the chat box would and returns its pipe result. */
export async function slash(page: Page, command: string): Promise<string> {
    return page.evaluate(async (text) => {
        const result = await SillyTavern!.getContext().executeSlashCommandsWithOptions(text, { handleParserErrors: false, handleExecutionErrors: false });
        return String(result?.pipe ?? '');
    }, command);
}

export async function waitForExtension(page: Page): Promise<void> {
    await page.waitForFunction(() => Boolean(globalThis.TavernAgent) && Boolean(document.getElementById('tavern_agent_button')));
}
