// 10,000 fuzzed tool calls over every tool, in a module worker in real Chromium on real IndexedDB (the
// product's storage): counts uncaught exceptions and errors without a stable code. Prints one table.
// Run: node --import tsx bench/reliability-fuzz.ts [calls] [seed]
import { build } from 'esbuild';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../tests/harness/browser';
import { serveFolder } from './lib/static-server';
import type { FuzzReport } from './reliability/fuzz-worker';

const REPO_ROOT = path.resolve(import.meta.dirname, '..');

async function main(): Promise<void> {
    const total = Number(process.argv[2] ?? 10_000);
    const seed = Number(process.argv[3] ?? 13);
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'tavern-agent-fuzz-'));
    await build({
        absWorkingDir: REPO_ROOT,
        entryPoints: { 'fuzz-worker': 'bench/reliability/fuzz-worker.ts' },
        outdir,
        bundle: true,
        format: 'esm',
        target: 'es2022',
        platform: 'browser',
        logLevel: 'warning',
    });
    fs.writeFileSync(
        path.join(outdir, 'index.html'),
        `<!doctype html><meta charset="utf-8"><title>fuzz</title><script type="module">
const worker = new Worker('./fuzz-worker.js', { type: 'module' });
globalThis.runFuzz = (total, seed) => new Promise((resolve, reject) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage({ total, seed });
});
</script>\n`,
    );
    const server = await serveFolder(outdir);
    const browser = await launchBrowser();
    try {
        const page = await browser.newPage();
        const pageErrors: string[] = [];
        page.on('pageerror', (error) => pageErrors.push(error.message));
        await page.goto(`${server.url}/`);
        await page.waitForFunction(() => typeof (globalThis as { runFuzz?: unknown }).runFuzz === 'function');
        const report = (await page.evaluate(([n, s]) => (globalThis as unknown as { runFuzz(n: number, s: number): Promise<unknown> }).runFuzz(n!, s!), [total, seed])) as FuzzReport;
        const failures = report.coded + report.uncoded;
        const codedShare = failures === 0 ? 100 : (100 * report.coded) / failures;
        process.stdout.write(
            [
                `| figure | value |`,
                `|---|---|`,
                `| tool calls | ${report.calls} (seed ${seed}; ${Object.keys(report.perTool).length - 1} tools + unknown names) |`,
                `| succeeded | ${report.ok} |`,
                `| refused with a coded error | ${report.coded} |`,
                `| errors without a stable code | ${report.uncoded} |`,
                `| coded share of errors | ${codedShare.toFixed(2)} % |`,
                `| uncaught exceptions | ${report.uncaught + pageErrors.length} |`,
                `| tools that threw (tool.execution_failed) | ${report.toolThrows} |`,
                `| time | ${(report.durationMs / 1000).toFixed(1)} s |`,
                '',
                ...report.samples.map((sample) => `- ${sample}`),
                '',
            ].join('\n'),
        );
        if (report.uncaught + pageErrors.length > 0 || report.uncoded > 0) process.exitCode = 1;
    } finally {
        await browser.close();
        await server.close();
        fs.rmSync(outdir, { recursive: true, force: true });
    }
}

void main();
