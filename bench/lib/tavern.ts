import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openCharacter, openSillyTavern, type ContextSource, type StPage } from '../../tests/harness/browser';
import { startMockModel, type MockModel } from '../../tests/harness/mock-model';
import { startSillyTavern, type SillyTavernServer } from '../../tests/harness/st-server';
import { LINKED_FOLDER, REPO_ROOT, waitForExtension } from '../../tests/harness/tavern';

/** SillyTavern's slider allows up to 50 recursive tool rounds; the default of 5 could not finish N = 20. */
export const BUILT_IN_RECURSE_LIMIT = 50;

export interface BenchTavern {
    mock: MockModel;
    st: SillyTavernServer;
    browser: ContextSource;
    /** The symlink that installs the extension for this SillyTavern user (removed to load the page without it). */
    extensionLink: string;
    /** A fresh context on SillyTavern's page, the extension loaded, Seraphina's chat open. */
    openChat(): Promise<StPage>;
    close(): Promise<void>;
}

/**
 * The real SillyTavern of the e2e harness, the working tree linked as the extension, talking to the
 * instant scripted mock. Built-in tool calling stays off until a figure switches it on in the page.
 */
export async function startBenchTavern(browser: ContextSource): Promise<BenchTavern> {
    const mock = await startMockModel();
    let st: SillyTavernServer;
    try {
        st = await startSillyTavern({
            modelUrl: mock.url,
            source: 'custom',
            // BENCH_EXTENSION_DIR: another checkout's build under the same bench, for figures in pairs (bench/pairs.sh).
            linkExtensions: [{ folder: LINKED_FOLDER, dir: process.env.BENCH_EXTENSION_DIR || REPO_ROOT }],
            patchSettings(settings) {
                settings.oai_settings.tool_call_recurse_limit = BUILT_IN_RECURSE_LIMIT;
            },
        });
    } catch (error) {
        await mock.close();
        throw error;
    }
    const server = st;
    return {
        mock,
        st: server,
        browser,
        extensionLink: path.join(server.userDir, 'extensions', LINKED_FOLDER),
        async openChat() {
            const opened = await openSillyTavern(browser, server.url);
            await definePageNameHelper(opened.page);
            await waitForExtension(opened.page);
            await openCharacter(opened.page);
            return opened;
        },
        async close() {
            await server.stop().catch(() => undefined);
            await mock.close().catch(() => undefined);
        },
    };
}

/**
 * tsx compiles with esbuild keepNames, which wraps named functions inside page.evaluate callbacks in a
 * `__name(...)` call the page does not have; an identity helper makes such callbacks safe.
 */
export async function definePageNameHelper(page: Page): Promise<void> {
    await page.evaluate('globalThis.__name ??= (fn) => fn');
}

/** Starts a new chat with the open character and waits for its greeting alone. */
export async function newChat(page: Page): Promise<void> {
    const before = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId());
    await page.evaluate(() => SillyTavern!.getContext().executeSlashCommandsWithOptions('/newchat'));
    await page.waitForFunction(
        (previous) => {
            const ctx = SillyTavern!.getContext();
            return ctx.getCurrentChatId() !== previous && ctx.chat.length === 1;
        },
        before,
        { timeout: 30_000 },
    );
}

export function isLinked(link: string): boolean {
    return fs.lstatSync(link, { throwIfNoEntry: false })?.isSymbolicLink() ?? false;
}
