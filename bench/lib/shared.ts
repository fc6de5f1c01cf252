import { DiskBrowser } from './disk-browser';
import { openWorkerBench, type WorkerBenchPage } from './worker-page';
import { startBenchTavern, type BenchTavern } from './tavern';

/**
 * What the benchmarks share within one `npm run bench`: one Chromium launcher whose contexts keep their
 * storage on disk (disk-browser.ts), one SillyTavern (with the extension linked and the mock model), one
 * worker bench page. Each starts on first use and stops at the end.
 */
export class Shared {
    private readonly diskBrowser = new DiskBrowser();
    private tavernPromise: Promise<BenchTavern> | null = null;
    private workerPagePromise: Promise<WorkerBenchPage> | null = null;

    browser(): Promise<DiskBrowser> {
        return Promise.resolve(this.diskBrowser);
    }

    async tavern(): Promise<BenchTavern> {
        this.tavernPromise ??= startBenchTavern(this.diskBrowser);
        return this.tavernPromise;
    }

    async workerPage(): Promise<WorkerBenchPage> {
        this.workerPagePromise ??= openWorkerBench(this.diskBrowser);
        return this.workerPagePromise;
    }

    async chromiumVersion(): Promise<string | null> {
        return this.diskBrowser.version();
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
        await this.diskBrowser.close();
    }
}
