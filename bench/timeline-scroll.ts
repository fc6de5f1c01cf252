// 7. A 5,000-event run in the timeline: time to open it, and frame times while scrolling through it.
import type { Page } from 'playwright-core';
import { openAgentPage } from './lib/agent-page';
import { collectFrameProbe, installFrameProbe } from './lib/probes';
import type { Benchmark, Figure } from './lib/report';
import { max, median, percentile } from './lib/stats';
import { syntheticRunExport } from './lib/synthetic-run';
import { LINKED_FOLDER } from '../tests/harness/tavern';

const EVENTS = 5_000;
const OPENS = 5;
const SCROLL_STEP_PX = 400;
const MAX_SCROLL_FRAMES = 400;
const EXTENSION_PATH = `/scripts/extensions/third-party/${LINKED_FOLDER}/`;

/** Opens the panel's history list, where the runs to open and the import input are. */
export async function openHistoryList(page: Page): Promise<void> {
    await page.evaluate(() => {
        const details = document.querySelector('#tavern_agent_panel_root details.tavern-agent__history') as HTMLDetailsElement | null;
        if (details) details.open = true;
    });
}

/** Imports a run export through the timeline's own "Import a run" input; returns the new run's id. */
export async function importRun(page: Page, name: string, text: string): Promise<string> {
    const before = await page.evaluate(() => Array.from(document.querySelectorAll('[data-history-run]')).map((e) => e.getAttribute('data-history-run')));
    await page.setInputFiles('#tavern_agent_run_import', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
    const handle = await page.waitForFunction(
        (known) => Array.from(document.querySelectorAll('[data-history-run]')).map((e) => e.getAttribute('data-history-run')).find((id) => id && !known.includes(id)) ?? null,
        before,
        { timeout: 60_000 },
    );
    return (await handle.jsonValue()) as string;
}

/** Click on the run in the history → its first rows painted (the first task after that frame). */
export async function timeOpen(page: Page, runId: string): Promise<number> {
    return page.evaluate(
        (id) =>
            new Promise<number>((resolve, reject) => {
                const button = document.querySelector(`[data-history-run="${id}"] .tavern-agent__history-open`) as HTMLElement | null;
                if (!button) return reject(new Error(`no history entry for ${id}`));
                const root = document.getElementById('tavern_agent_panel_root')!;
                const timer = setTimeout(() => reject(new Error(`run ${id} did not open`)), 60_000);
                const channel = new MessageChannel();
                let start = 0;
                channel.port1.onmessage = () => {
                    clearTimeout(timer);
                    resolve(performance.now() - start);
                };
                const shown = () => Boolean(root.querySelector(`.tavern-agent__run[data-run-id="${id}"] [data-row-key]`));
                const observer = new MutationObserver(() => {
                    if (!shown()) return;
                    observer.disconnect();
                    channel.port2.postMessage(0);
                });
                observer.observe(root, { subtree: true, childList: true, attributes: true });
                start = performance.now();
                button.click();
            }),
        runId,
    );
}

/** Scrolls the timeline from top to bottom, SCROLL_STEP_PX per frame; returns the frame intervals. */
export async function scrollThrough(page: Page): Promise<{ intervals: number[]; times: number[]; frames: number; scrolledPx: number; rowsDrawn: number }> {
    return page.evaluate(
        ({ step, limit }) =>
            new Promise((resolve) => {
                const scroller = document.querySelector('#tavern_agent_panel_root .tavern-agent__scroll') as HTMLElement;
                scroller.scrollTop = 0;
                const intervals: number[] = [];
                // Each frame's start (performance.now()), to find a long frame in a trace or a profile.
                const times: number[] = [];
                const keys = new Set<string>();
                let last = 0;
                let frames = 0;
                const tick = (now: number) => {
                    if (last) intervals.push(now - last);
                    last = now;
                    times.push(now);
                    for (const row of scroller.querySelectorAll('[data-row-key]')) keys.add(row.getAttribute('data-row-key')!);
                    const bottom = scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1;
                    if (bottom || frames >= limit) {
                        resolve({ intervals, times, frames, scrolledPx: scroller.scrollTop, rowsDrawn: keys.size });
                        return;
                    }
                    frames += 1;
                    scroller.scrollTop += step;
                    requestAnimationFrame(tick);
                };
                requestAnimationFrame(tick);
            }),
        { step: SCROLL_STEP_PX, limit: MAX_SCROLL_FRAMES },
    );
}

/**
 * Floors for the scroll, measured on the same page and panel, with the timeline's own list hidden and a
 * stand-in of the same height scrolled the same way (no script runs while it scrolls); the list is put back
 * afterwards. `empty`: an empty box, so what is left is the browser's cost of scrolling this panel at all
 * (its backdrop blur, compositing, raster of the panel). `static`: the rows drawn now, cloned and repeated to
 * the run's length as static HTML, each `content-visibility: auto` so that the browser itself renders only
 * the rows near the view (its own virtualization, with each row's measured height).
 */
export async function scrollFloor(page: Page, kind: 'empty' | 'static'): Promise<{ intervals: number[]; times: number[]; frames: number; scrolledPx: number; rowsDrawn: number }> {
    await page.evaluate((k) => {
        const list = document.querySelector('#tavern_agent_panel_root .tavern-agent__events') as HTMLElement;
        const rows = Array.from(list.children) as HTMLElement[];
        const total = Number(rows[0]?.getAttribute('aria-setsize') ?? rows.length);
        const copy = list.cloneNode(false) as HTMLElement;
        copy.setAttribute('data-bench-floor', '');
        if (k === 'empty') {
            copy.style.padding = '0px';
            copy.style.height = `${list.offsetHeight}px`;
        } else {
            copy.style.paddingTop = '0px';
            copy.style.paddingBottom = '0px';
            const heights = rows.map((row) => row.offsetHeight);
            for (let i = 0; i < total; i += 1) {
                const row = rows[i % rows.length]!.cloneNode(true) as HTMLElement;
                row.style.contentVisibility = 'auto';
                row.style.containIntrinsicSize = `auto ${heights[i % rows.length]}px`;
                copy.appendChild(row);
            }
        }
        list.style.display = 'none';
        list.after(copy);
    }, kind);
    await page.waitForTimeout(300);
    try {
        return await scrollThrough(page);
    } finally {
        await page.evaluate(() => {
            document.querySelector('[data-bench-floor]')?.remove();
            (document.querySelector('#tavern_agent_panel_root .tavern-agent__events') as HTMLElement).style.display = '';
        });
    }
}

/** The page's JS heap after a full garbage collection (CDP), in MiB: what stays alive, not garbage not yet collected. */
async function heapAfterGc(page: Page): Promise<number> {
    const cdp = await page.context().newCDPSession(page);
    try {
        await cdp.send('HeapProfiler.enable');
        await cdp.send('HeapProfiler.collectGarbage');
        await cdp.send('HeapProfiler.collectGarbage');
        const { usedSize } = await cdp.send('Runtime.getHeapUsage');
        return usedSize / 1024 / 1024;
    } finally {
        await cdp.detach().catch(() => undefined);
    }
}

export const timelineScroll: Benchmark = {
    name: 'timeline-scroll',
    title: '7 Timeline with 5,000 events',
    async run({ shared, log }) {
        const tavern = await shared.tavern();
        const { page, close } = await openAgentPage(tavern);
        try {
            const ready = await page.evaluate(() => Boolean(document.getElementById('tavern_agent_run_import')));
            if (!ready) return { figures: [], details: {}, notes: [], skipped: 'the timeline has no run import (#tavern_agent_run_import) to load a 5,000-event run with yet' };
            const big = syntheticRunExport(EVENTS, 'bench-long-run');
            const small = syntheticRunExport(40, 'bench-short-run');
            await openHistoryList(page);
            const bigId = await importRun(page, 'long-run.json', big.text);
            const smallId = await importRun(page, 'short-run.json', small.text);
            const opens: number[] = [];
            for (let i = 0; i < OPENS; i += 1) {
                await timeOpen(page, smallId);
                await page.waitForTimeout(150);
                opens.push(await timeOpen(page, bigId));
                await page.waitForTimeout(150);
                log(`  open ${i + 1}/${OPENS}: ${opens.at(-1)!.toFixed(0)} ms`);
            }
            // Let the first heights settle, then scroll from the top to the end.
            await page.waitForTimeout(300);
            const since = await page.evaluate(installFrameProbe);
            const scroll = await scrollThrough(page);
            await page.waitForTimeout(300);
            const frames = await page.evaluate(collectFrameProbe, since);
            const floor = await scrollFloor(page, 'empty');
            await page.waitForTimeout(300);
            const floorRows = await scrollFloor(page, 'static');
            await page.waitForTimeout(300);
            const longWithExtension = frames.longFrames.filter((f) => f.scripts.some((s) => s.sourceURL.includes(EXTENSION_PATH)));
            // Memory: the page's heap with the big run open (scrolled through, so every row was drawn once),
            // then with the 40-event run open instead; the difference is what the big timeline holds.
            const heapBig = await heapAfterGc(page);
            await timeOpen(page, smallId);
            await page.waitForTimeout(300);
            const heapSmall = await heapAfterGc(page);
            log(`  heap: ${heapBig.toFixed(1)} MiB with the big run open, ${heapSmall.toFixed(1)} MiB with the small one`);
            const worst = max(scroll.intervals);
            const over50 = scroll.intervals.filter((ms) => ms > 50).length;
            log(`  scroll: ${scroll.frames} frames, worst ${worst.toFixed(1)} ms, ${over50} over 50 ms`);
            const figures: Figure[] = [
                {
                    id: 'timeline.open',
                    label: `Open a ${big.events.toLocaleString('en-US')}-event run (${big.rows.toLocaleString('en-US')} rows), median`,
                    value: median(opens),
                    unit: 'ms',
                    target: '≤ 200 ms',
                    met: median(opens) <= 200,
                },
                { id: 'timeline.open.max', label: `… slowest of ${OPENS} opens`, value: max(opens), unit: 'ms' },
                {
                    id: 'timeline.scroll.worst',
                    label: `Scrolling it end to end: worst frame (${scroll.frames} frames)`,
                    value: worst,
                    unit: 'ms',
                    target: 'no frame > 50 ms',
                    met: over50 === 0,
                },
                { id: 'timeline.scroll.p95', label: '… p95 frame', value: percentile(scroll.intervals, 95), unit: 'ms' },
                { id: 'timeline.scroll.over50', label: '… frames over 50 ms (of them with extension code)', value: over50, unit: `(${longWithExtension.length})` },
                { id: 'timeline.scroll.floor.worst', label: `… floor: the panel scrolled over an empty box of the list's height, no script (${floor.frames} frames): worst frame`, value: max(floor.intervals), unit: 'ms' },
                { id: 'timeline.scroll.floor.p95', label: '… that floor: p95 frame', value: percentile(floor.intervals, 95), unit: 'ms' },
                { id: 'timeline.scroll.floor.over50', label: '… that floor: frames over 50 ms', value: floor.intervals.filter((ms) => ms > 50).length, unit: '' },
                { id: 'timeline.scroll.static.worst', label: `… the same rows as static HTML, \`content-visibility: auto\`, no script (${floorRows.frames} frames): worst frame`, value: max(floorRows.intervals), unit: 'ms' },
                { id: 'timeline.scroll.static.p95', label: '… static rows: p95 frame', value: percentile(floorRows.intervals, 95), unit: 'ms' },
                { id: 'timeline.scroll.static.over50', label: '… static rows: frames over 50 ms', value: floorRows.intervals.filter((ms) => ms > 50).length, unit: '' },
                {
                    id: 'timeline.heap',
                    label: `Page JS heap with the ${big.events.toLocaleString('en-US')}-event run open, after GC`,
                    value: Math.round(heapBig * 10) / 10,
                    unit: 'MiB',
                    baseline: { label: `the ${small.events}-event run open instead`, value: Math.round(heapSmall * 10) / 10 },
                    ratio: heapSmall > 0 ? heapBig / heapSmall : null,
                },
                { id: 'timeline.heap.delta', label: `… held by the ${big.events.toLocaleString('en-US')}-event timeline (the difference)`, value: Math.round((heapBig - heapSmall) * 100) / 100, unit: 'MiB' },
            ];
            return {
                figures,
                details: { events: big.events, rows: big.rows, opens, scroll, floor, floorRows, longFrames: frames.longFrames, heapMiB: { big: heapBig, small: heapSmall } },
                notes: [
                    `A synthetic run export of ${big.events} events (per round a model call and three tool calls, one a write with its file-write and checkpoint events; payloads typed by the contract) imported through the timeline's "Import a run" input, then opened from the history: click → first rows painted (the first task after that frame), ${OPENS} times alternating with a 40-event run; the open includes reading the run from IndexedDB through the worker.`,
                    `Scrolling: the timeline's scroller moved ${SCROLL_STEP_PX} px per animation frame from the top to the end (${Math.round(scroll.scrolledPx)} px, ${scroll.rowsDrawn} distinct rows drawn); frame time = the interval between requestAnimationFrame callbacks.`,
                    `Floors, scrolled the same way right after, with the timeline's list hidden and a stand-in of its height in its place (no script runs while they scroll): an empty box (the browser's cost of scrolling this panel at all: its backdrop blur, compositing, raster), and the rows drawn at the end of the scroll, cloned and repeated to the run's ${big.rows.toLocaleString('en-US')} rows as static HTML, each row \`content-visibility: auto\` (the browser's own virtualization).`,
                    `Heap: CDP Runtime.getHeapUsage after two HeapProfiler.collectGarbage, the whole page (SillyTavern and the extension's main thread; the worker's heap is not in it), first with the ${big.events.toLocaleString('en-US')}-event run open after scrolling through it, then with the ${small.events}-event run open instead.`,
                ],
            };
        } finally {
            await close();
        }
    },
};
