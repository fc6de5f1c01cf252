import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type BrowserContextOptions } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, type ContextSource } from '../../tests/harness/browser';

/**
 * Chromium whose contexts keep their storage on disk, as a user's browser profile does. Playwright's
 * `browser.newContext()` makes an incognito-like context, whose IndexedDB lives in memory: on this machine a
 * bare readwrite transaction took 0.4 ms there and 0.9 ms on disk, so every figure that waits on the journal
 * was measured on a store no user has. Each context here is a Chromium of its own on a fresh profile folder,
 * removed when the context closes (closing a persistent context closes its browser).
 */
export class DiskBrowser implements ContextSource {
    private readonly open = new Set<BrowserContext>();

    async newContext(options: BrowserContextOptions = {}): Promise<BrowserContext> {
        const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'tavern-agent-bench-profile-'));
        const context = await chromium.launchPersistentContext(profile, { ...options, executablePath: CHROMIUM_EXECUTABLE, headless: true, args: [...CHROMIUM_ARGS] });
        this.open.add(context);
        context.on('close', () => {
            this.open.delete(context);
            // Chromium may still be writing the profile as it exits: retried, and a leftover folder is no error.
            void fs.promises.rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 }).catch(() => undefined);
        });
        return context;
    }

    /** The version Chromium reports (a persistent context has no Browser object to ask). */
    version(): string {
        const printed = execFileSync(CHROMIUM_EXECUTABLE, ['--version'], { encoding: 'utf8' });
        return /\d+(\.\d+){3}/.exec(printed)?.[0] ?? printed.trim();
    }

    async close(): Promise<void> {
        await Promise.all([...this.open].map((context) => context.close().catch(() => undefined)));
    }
}
