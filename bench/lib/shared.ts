import type { Browser } from 'playwright-core';
import { launchBrowser } from '../../tests/harness/browser';
import { openWorkerBench, type WorkerBenchPage } from './worker-page';
import { startBenchTavern, type BenchTavern } from './tavern';

/**
 * What the benchmarks share within one `npm run bench`: one Chromium, one SillyTavern (with the extension
 * linked and the mock model), one worker bench page. Each starts on first use and stops at the end.
 */
export class Shared {
    private browserPromise: Promise<Browser> | null = null;
    private tavernPromise: Promise<BenchTavern> | null = null;
    private workerPagePromise: Promise<WorkerBenchPage> | null = null;

    browser(): Promise<Browser> {
        this.browserPromise ??= launchBrowser();
        return this.browserPromise;
    }

    async tavern(): Promise<BenchTavern> {
        this.tavernPromise ??= this.browser().then((browser) => startBenchTavern(browser));
        return this.tavernPromise;
    }

    async workerPage(): Promise<WorkerBenchPage> {
        this.workerPagePromise ??= this.browser().then((browser) => openWorkerBench(browser));
        return this.workerPagePromise;
    }

    async chromiumVersion(): Promise<string | null> {
        return this.browserPromise ? (await this.browserPromise).version() : null;
    }

    async close(): Promise<void> {
        const closeQuietly = async (promise: Promise<{ close(): Promise<void> }> | null) => {
            if (!promise) return;
            try {
                await (await promise).close();
            } catch {
                /* already gone */
            }
        };
        await closeQuietly(this.workerPagePromise);
        await closeQuietly(this.tavernPromise);
        await closeQuietly(this.browserPromise);
    }
}
