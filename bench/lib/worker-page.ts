import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import type { ContextSource } from '../../tests/harness/browser';
import type { BenchPage } from '../pages/page';
import { serveFolder } from './static-server';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface WorkerBenchPage {
    page: Page;
    /** Calls one of the page's bench functions (which forwards to the worker where the work runs). */
    call<K extends keyof BenchPage>(name: K, ...args: Parameters<BenchPage[K]>): Promise<Awaited<ReturnType<BenchPage[K]>>>;
    close(): Promise<void>;
}

/**
 * Bundles bench/pages (the page and a module worker importing src/engine, store, workspace and tools)
 * the way build.mjs bundles the extension (esm, es2022, minified), serves it from 127.0.0.1 and opens it.
 */
export async function openWorkerBench(browser: ContextSource): Promise<WorkerBenchPage> {
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'tavern-agent-bench-'));
    await build({
        absWorkingDir: REPO_ROOT,
        // sandbox.js and quickjs.wasm sit beside the bench worker, as dist/ has them beside worker.js.
        entryPoints: { page: 'bench/pages/page.ts', 'worker-bench': 'bench/pages/worker-bench.ts', sandbox: 'src/sandbox-worker.ts' },
        outdir,
        bundle: true,
        format: 'esm',
        target: 'es2022',
        platform: 'browser',
        minify: true,
        logLevel: 'warning',
    });
    fs.copyFileSync(path.join(REPO_ROOT, 'node_modules/@jitl/quickjs-wasmfile-release-sync/dist/emscripten-module.wasm'), path.join(outdir, 'quickjs.wasm'));
    fs.writeFileSync(path.join(outdir, 'index.html'), '<!doctype html><meta charset="utf-8"><title>bench</title><script type="module" src="./page.js"></script>\n');
    const server = await serveFolder(outdir);
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => document.body?.dataset.ready === 'true', undefined, { timeout: 30_000 }).catch((error: unknown) => {
        throw new Error(`bench page did not start: ${String(error)} ${errors.join('; ')}`);
    });
    return {
        page,
        call: (name, ...args) =>
            page.evaluate(
                ([fn, params]) => (globalThis as unknown as { benchPage: Record<string, (...a: unknown[]) => unknown> }).benchPage[fn]!(...params),
                [name, args] as [string, unknown[]],
            ) as never,
        async close() {
            await context.close().catch(() => undefined);
            await server.close();
            fs.rmSync(outdir, { recursive: true, force: true });
        },
    };
}
