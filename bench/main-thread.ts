// 6. Main thread: long tasks during a 50-round run, page load to APP_READY with and without the extension,
// and the gzip size of the startup bundle.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { call, calls } from '../tests/harness/agent';
import { LINKED_FOLDER, REPO_ROOT } from '../tests/harness/tavern';
import type { ContextSource } from '../tests/harness/browser';
import { openAgentPage, sendAndWait } from './lib/agent-page';
import { collectFrameProbe, installFrameProbe, type FrameProbeResult } from './lib/probes';
import { ratioOf, type Benchmark, type Figure } from './lib/report';
import { median } from './lib/stats';
import { isLinked, newChat, type BenchTavern } from './lib/tavern';

const ROUNDS = 50;
const LOAD_PAIRS = 6;
const PROFILED_LOADS = 3;
const EXTENSION_PATH = `/scripts/extensions/third-party/${LINKED_FOLDER}/`;

/** Long frames during a 50-round Agent Mode run with the timeline open; which of them ran extension code. */
async function longTasksDuringRun(tavern: BenchTavern) {
    const { page, close } = await openAgentPage(tavern);
    try {
        tavern.mock.reset();
        tavern.mock.enqueue(
            ...Array.from({ length: ROUNDS }, () => calls(call('workspace_list_files', {}))),
            calls(call('workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet tonight.' }), call('workspace_commit', {}), call('workspace_finish', {})),
        );
        const since = await page.evaluate(installFrameProbe);
        const started = Date.now();
        await sendAndWait(page, 'Tell me about the forest.');
        const runMs = Date.now() - started;
        await page.waitForTimeout(300); // long-frame entries are reported after their frame
        const probe: FrameProbeResult = await page.evaluate(collectFrameProbe, since);
        const state = await page.evaluate(() => document.querySelector('.tavern-agent__run')?.getAttribute('data-run-state') ?? null);
        const byExtension = probe.longFrames.filter((frame) => frame.scripts.some((s) => s.sourceURL.includes(EXTENSION_PATH)));
        return {
            runMs,
            state,
            longFrames: probe.longFrames.length,
            longTasks: probe.longTasks.length,
            byExtension: byExtension.length,
            extensionScriptMs: byExtension.flatMap((f) => f.scripts.filter((s) => s.sourceURL.includes(EXTENSION_PATH))).reduce((sum, s) => sum + s.duration, 0),
            /** What the extension ran in each of those frames: "<frame ms>: <invoker> <script ms>, …". */
            extensionScripts: byExtension.map(
                (f) => `${f.duration.toFixed(0)} ms frame: ${f.scripts.filter((s) => s.sourceURL.includes(EXTENSION_PATH)).map((s) => `${s.invoker} ${s.duration.toFixed(0)} ms`).join(', ')}`,
            ),
            frames: probe.longFrames,
        };
    } finally {
        await close();
    }
}

/**
 * The floor for figure 6: SillyTavern's own Send on the same kind of fresh page and new chat, Agent Mode off
 * (one plain reply from the instant mock): its long frames, any code. The agent run builds the same prompt
 * with SillyTavern's own builder (the dry run that captures it) and renders the same reply into the chat.
 */
async function longFramesDuringPlainSend(tavern: BenchTavern) {
    const { page, context } = await tavern.openChat();
    try {
        await newChat(page);
        tavern.mock.reset();
        tavern.mock.enqueue({ text: 'The forest is quiet tonight.' });
        const since = await page.evaluate(installFrameProbe);
        const before = await page.evaluate(() => SillyTavern!.getContext().chat.length);
        await page.evaluate(() => {
            const textarea = document.getElementById('send_textarea') as HTMLTextAreaElement;
            textarea.value = 'Tell me about the forest.';
            textarea.dispatchEvent(new Event('input', { bubbles: true }));
            (document.getElementById('send_but') as HTMLElement).click();
        });
        await page.waitForFunction((n) => SillyTavern!.getContext().chat.length > n + 1 && document.body.dataset.generating === undefined, before, { timeout: 60_000, polling: 50 });
        await page.waitForTimeout(300);
        const probe: FrameProbeResult = await page.evaluate(collectFrameProbe, since);
        const reply = await page.evaluate(() => SillyTavern!.getContext().chat.at(-1)?.mes ?? '');
        if (reply !== 'The forest is quiet tonight.') throw new Error(`the plain Send ended with ${JSON.stringify(reply.slice(0, 80))}`);
        return {
            longFrames: probe.longFrames.length,
            longest: probe.longFrames.reduce((most, f) => Math.max(most, f.duration), 0),
            frames: probe.longFrames,
        };
    } finally {
        await context.close().catch(() => undefined);
    }
}

const APP_READY_HOOK = `(() => {
    globalThis.__name ??= (fn) => fn;
    const original = console.debug;
    console.debug = function (...args) {
        if (args[0] === 'Event emitted: app_ready' && !globalThis.__benchAppReady) {
            const state = { emitted: performance.now(), done: 0 };
            globalThis.__benchAppReady = state;
            // SillyTavern awaits each APP_READY listener in turn; the next task runs after the synchronous ones
            // (the extension's start() among them).
            setTimeout(() => { state.done = performance.now(); }, 0);
        }
        return original.apply(this, args);
    };
})();`;

/** Alternating page loads with and without the extension linked, in one browser context, ABBA order. */
async function pageLoads(tavern: BenchTavern, browser: ContextSource, log: (m: string) => void) {
    const link = tavern.extensionLink;
    const setLinked = (on: boolean) => {
        if (on && !isLinked(link)) fs.symlinkSync(REPO_ROOT, link, 'dir');
        if (!on && isLinked(link)) fs.unlinkSync(link);
    };
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(APP_READY_HOOK);
    const page = await context.newPage();
    const workerRequests: string[] = [];
    page.on('request', (request) => {
        if (request.url().includes(`${EXTENSION_PATH}dist/worker.js`)) workerRequests.push(request.url());
    });
    const samples = { with: [] as number[], without: [] as number[], withEmitted: [] as number[], withoutEmitted: [] as number[] };
    let workerAtLoad = 0;
    try {
        for (let pair = 0; pair <= LOAD_PAIRS; pair += 1) {
            const order = pair % 2 === 0 ? [true, false] : [false, true];
            for (const withExtension of order) {
                setLinked(withExtension);
                workerRequests.length = 0;
                await page.goto(`${tavern.st.url}/`, { waitUntil: 'commit' });
                await page.waitForFunction(() => ((globalThis as unknown as { __benchAppReady?: { done: number } }).__benchAppReady?.done ?? 0) > 0, undefined, { timeout: 90_000, polling: 50 });
                const times = await page.evaluate(() => (globalThis as unknown as { __benchAppReady: { emitted: number; done: number } }).__benchAppReady);
                const loaded = await page.evaluate(() => Boolean(globalThis.TavernAgent));
                if (loaded !== withExtension) throw new Error(`page load ${withExtension ? 'with' : 'without'} the extension: TavernAgent ${loaded ? 'present' : 'missing'}`);
                // Any worker request in the settle time after APP_READY would mean the engine loads at startup.
                await page.waitForTimeout(400);
                if (withExtension) workerAtLoad += workerRequests.length;
                if (pair === 0) continue; // warm-up pair: first loads fill the HTTP cache
                (withExtension ? samples.with : samples.without).push(times.done);
                (withExtension ? samples.withEmitted : samples.withoutEmitted).push(times.emitted);
                log(`  load ${withExtension ? 'with   ' : 'without'} the extension: APP_READY at ${times.emitted.toFixed(0)} ms, handled at ${times.done.toFixed(0)} ms`);
            }
        }
    } finally {
        setLinked(true);
        await context.close().catch(() => undefined);
    }
    return { samples, workerRequestsAtLoad: workerAtLoad };
}

interface CpuProfile {
    nodes: Array<{ id: number; callFrame: { url: string; functionName: string } }>;
    samples: number[];
    timeDeltas: number[];
}

/**
 * The extension's own main-thread time in a page load, from a sampling CPU profile (navigation start →
 * APP_READY handled): the time spent in functions from the extension's files, beside all non-idle time.
 */
async function profiledLoads(tavern: BenchTavern, browser: ContextSource) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(APP_READY_HOOK);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const samples: Array<{ extensionMs: number; busyMs: number }> = [];
    try {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        for (let i = 0; i < PROFILED_LOADS; i += 1) {
            await cdp.send('Profiler.start');
            await page.goto(`${tavern.st.url}/`, { waitUntil: 'commit' });
            await page.waitForFunction(() => ((globalThis as unknown as { __benchAppReady?: { done: number } }).__benchAppReady?.done ?? 0) > 0, undefined, { timeout: 90_000, polling: 50 });
            const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile };
            const urlOf = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
            let extension = 0;
            let busy = 0;
            profile.samples.forEach((id, k) => {
                const frame = urlOf.get(id);
                const dt = (profile.timeDeltas[k] ?? 0) / 1000;
                if (!frame || frame.functionName === '(idle)' || frame.functionName === '(program)') return;
                busy += dt;
                if (frame.url.includes(EXTENSION_PATH)) extension += dt;
            });
            samples.push({ extensionMs: extension, busyMs: busy });
        }
    } finally {
        await context.close().catch(() => undefined);
    }
    return samples;
}

/** dist/index.js and the chunks it imports statically: what SillyTavern's page load fetches and runs. */
function startupFiles(dir: string): string[] {
    const seen = new Set<string>();
    const visit = (file: string) => {
        if (seen.has(file)) return;
        seen.add(file);
        const code = fs.readFileSync(path.join(dir, file), 'utf8');
        // Static imports only (`from"./chunks/…"` and bare `import"./chunks/…"`); `import("…")` chunks load later.
        for (const match of code.matchAll(/(?:from|import)\s*"(\.\/[^"]+)"/g)) visit(path.normalize(path.join(path.dirname(file), match[1]!)));
    };
    visit('index.js');
    return [...seen];
}

const gzipOf = (bytes: Buffer) => zlib.gzipSync(bytes, { level: 9 }).length;

/** gzip -9 size of the startup files (each file on its own, summed), and whether dist/ matches a fresh build. */
function bundleSize() {
    const dist = path.join(REPO_ROOT, 'dist');
    const files = startupFiles(dist);
    const gzip = files.reduce((sum, file) => sum + gzipOf(fs.readFileSync(path.join(dist, file))), 0);
    const bytes = files.reduce((sum, file) => sum + fs.statSync(path.join(dist, file)).size, 0);
    const chunks = fs.existsSync(path.join(dist, 'chunks')) ? fs.readdirSync(path.join(dist, 'chunks')).map((name) => `chunks/${name}`) : [];
    const lazyGzip = chunks.filter((file) => !files.includes(file)).reduce((sum, file) => sum + gzipOf(fs.readFileSync(path.join(dist, file))), 0);
    const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'tavern-agent-build-'));
    let fresh: { same: boolean } | null = null;
    try {
        execFileSync(process.execPath, ['build.mjs', '--outdir', outdir], { cwd: REPO_ROOT, stdio: 'pipe' });
        fresh = { same: files.every((file) => fs.existsSync(path.join(outdir, file)) && fs.readFileSync(path.join(outdir, file)).equals(fs.readFileSync(path.join(dist, file)))) };
    } catch {
        fresh = null;
    } finally {
        fs.rmSync(outdir, { recursive: true, force: true });
    }
    return { bytes, gzip, files, lazyGzip, fresh, workerBytes: fs.statSync(path.join(dist, 'worker.js')).size };
}

export const mainThread: Benchmark = {
    name: 'main-thread',
    title: '6 Main thread',
    async run({ shared, log }) {
        const tavern = await shared.tavern();
        const browser = await shared.browser();
        const run = await longTasksDuringRun(tavern);
        if (run.state !== 'completed') throw new Error(`the ${ROUNDS}-round run ended ${run.state}`);
        log(`  ${ROUNDS}-round run: ${run.runMs} ms, ${run.longFrames} long frames, ${run.byExtension} with extension code`);
        const plain = await longFramesDuringPlainSend(tavern);
        log(`  plain Send (Agent Mode off): ${plain.longFrames} long frames, longest ${plain.longest.toFixed(0)} ms`);
        const loads = await pageLoads(tavern, browser, log);
        const profiled = await profiledLoads(tavern, browser);
        const extensionMs = median(profiled.map((p) => p.extensionMs));
        const busyMs = median(profiled.map((p) => p.busyMs));
        log(`  profiled loads: extension ${profiled.map((p) => p.extensionMs.toFixed(1)).join(', ')} ms of ${profiled.map((p) => p.busyMs.toFixed(0)).join(', ')} ms busy`);
        const bundle = bundleSize();
        const withMs = median(loads.samples.with);
        const withoutMs = median(loads.samples.without);
        // Each pair ran back to back: the median of the pairs' ratios cancels the shared machine's drift.
        const pairRatios = loads.samples.with.map((ms, i) => ms / loads.samples.without[i]!);
        const ratio = median(pairRatios);
        const slower = ratio - 1;
        const figures: Figure[] = [
            {
                id: 'main-thread.long-tasks',
                label: `Long tasks (> 50 ms) with extension code, ${ROUNDS}-round run`,
                value: run.byExtension,
                unit: '',
                target: '0',
                met: run.byExtension === 0,
            },
            { id: 'main-thread.long-frames-all', label: '… all long frames in that run (any code)', value: run.longFrames, unit: '' },
            {
                id: 'main-thread.long-frames-plain-send',
                label: "Floor: long frames in SillyTavern's own Send, Agent Mode off (any code; same fresh page and new chat)",
                value: plain.longFrames,
                unit: '',
            },
            { id: 'main-thread.long-frames-plain-send.longest', label: '… its longest frame', value: plain.longest, unit: 'ms' },
            {
                id: 'main-thread.app-ready',
                label: 'Page load to APP_READY handled, with the extension',
                value: withMs,
                unit: 'ms',
                baseline: { label: 'without', value: withoutMs },
                ratio,
                target: '≤ 1.05× (5 % slower)',
                met: slower <= 0.05,
            },
            {
                id: 'main-thread.load-extension-cpu',
                label: "… the extension's own main-thread time in that load (CPU profile)",
                value: extensionMs,
                unit: 'ms',
                baseline: { label: 'all main-thread work to APP_READY', value: busyMs },
                ratio: ratioOf(extensionMs, busyMs),
            },
            {
                id: 'main-thread.bundle-gzip',
                label: `Startup bundle (dist/index.js and the ${bundle.files.length - 1} chunk(s) it imports), gzip -9`,
                value: bundle.gzip / 1024,
                unit: 'KiB',
                target: '≤ 50 KiB',
                met: bundle.gzip <= 50 * 1024,
            },
            { id: 'main-thread.lazy-gzip', label: '… in chunks loaded later (the runtime when the page is idle after APP_READY or at first use, the panel\'s views on first open), gzip -9', value: bundle.lazyGzip / 1024, unit: 'KiB' },
            {
                id: 'main-thread.worker-at-load',
                label: 'Worker requests during page load',
                value: loads.workerRequestsAtLoad,
                unit: '',
                target: '0 (loaded when needed)',
                met: loads.workerRequestsAtLoad === 0,
            },
        ];
        const notes = [
            `Long tasks: Long Animation Frames (> 50 ms) observed on SillyTavern's page from Send to the end of a ${ROUNDS}-round Agent Mode run (one workspace_list_files call per round, instant mock, timeline open); "with extension code" = a frame whose scripts include one from ${EXTENSION_PATH}. The run took ${run.runMs} ms; long tasks (Long Tasks API): ${run.longTasks}.` +
                (run.extensionScripts.length ? ` Extension code in them: ${run.extensionScripts.join('; ')} (FrameRequestCallback = the timeline's per-frame flush and render; import.then = building a model request with SillyTavern's createGenerationParameters; MessagePort.onmessage = a call from the worker).` : ''),
            `Floor: SillyTavern's own Send of one message on a fresh page and a new chat, Agent Mode off, the instant mock answering with one plain reply: ${plain.longFrames} long frames (${plain.frames.map((f) => `${f.duration.toFixed(0)} ms: ${f.scripts.map((s) => `${s.invoker} ${s.duration.toFixed(0)} ms`).join(', ') || 'no script'}`).join('; ')}). SillyTavern builds its prompt and renders its reply in the same way when the agent runs (the dry run that captures the prompt, the commit).`,
            `Page load: navigation start → the task after SillyTavern emitted APP_READY (its listeners, the extension's start() among them, have run), same SillyTavern and browser context, the extension's folder linked and unlinked in turn, ${LOAD_PAIRS} pairs after one warm-up pair, ABBA order; medians, and the ratio is the median of the ${pairRatios.length} pairs' ratios (${pairRatios.map((r) => r.toFixed(2)).join(', ')}): ${(slower * 100).toFixed(1)} %.`,
            `CPU profile: V8 sampling profiler (0.2 ms) over ${PROFILED_LOADS} more loads with the extension (a new browser context), navigation start → APP_READY handled; the extension's time = samples in functions from its files (the module's evaluation, its APP_READY start, the panel button), beside all non-idle samples; medians. Less noisy than the wall-time ratio on a shared machine.`,
            `Bundle: ${bundle.bytes} bytes raw; the worker (dist/worker.js, ${bundle.workerBytes} bytes) is fetched only when a run starts or the panel opens (${loads.workerRequestsAtLoad} requests seen during ${LOAD_PAIRS + 1} page loads with the extension).` +
                (bundle.fresh === null ? ' A fresh build could not be made to compare.' : bundle.fresh.same ? ' dist/ matches a fresh build of the working tree.' : " dist/ differs from a fresh build of the working tree: rebuild before trusting this line."),
        ];
        return {
            figures,
            details: { run: { ...run, frames: run.frames.slice(0, 50) }, plainSend: plain, loads, pairRatios, profiled, bundle },
            notes,
        };
    },
};
