// A profiling aid, not a figure: `node --import tsx bench/lib/profile-run.ts [burst|stream|cold|scroll]` runs one
// Agent Mode turn (100 calls in one turn, or 50 one-call rounds; cold: the 50 rounds as the page's first run,
// as figure 6 measures it) with the CDP sampling profiler on and
// prints where the page's main thread spent its time (self and inclusive, by function), and the long
// animation frames with their scripts. Build dist/ unminified (`MINIFY=0 npm run build`, never committed) to read names.
import type { CDPSession } from 'playwright-core';
import { call, calls } from '../../tests/harness/agent';
import { openAgentPage, sendAndWait } from './agent-page';
import { collectFrameProbe, installFrameProbe } from './probes';
import { Shared } from './shared';
import { syntheticRunExport } from './synthetic-run';
import { importRun, scrollThrough, timeOpen } from '../timeline-scroll';

interface ProfileNode {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
    hitCount?: number;
}

interface Profile {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
    startTime: number;
}

/** Per long frame with extension code: the functions of the profile's samples inside it, inclusive, top 25. */
function perFrame(profile: Profile, frames: Array<{ startTime: number; duration: number }>, markAt: number): void {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-1).join('/')}:${n.callFrame.lineNumber + 1}`;
    // The sample clock (µs) against performance.now(): the first sample in the page's marker function.
    let t = profile.startTime;
    const times: number[] = [];
    let offset: number | null = null;
    for (let i = 0; i < profile.samples.length; i++) {
        t += profile.timeDeltas[i] ?? 0;
        times.push(t);
        if (offset !== null) continue;
        for (let node = byId.get(profile.samples[i]!); node; node = parent.has(node.id) ? byId.get(parent.get(node.id)!) : undefined) {
            if (node.callFrame.functionName === 'benchClockMark') {
                offset = t / 1000 - markAt;
                break;
            }
        }
    }
    if (offset === null) return console.log('(no clock mark found)');
    for (const f of frames) {
        const total = new Map<string, number>();
        for (let i = 0; i < profile.samples.length; i++) {
            const at = times[i]! / 1000 - offset;
            if (at < f.startTime || at > f.startTime + f.duration) continue;
            const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
            const seen = new Set<string>();
            for (let node = byId.get(profile.samples[i]!); node; node = parent.has(node.id) ? byId.get(parent.get(node.id)!) : undefined) {
                const l = label(node);
                if (!seen.has(l)) total.set(l, (total.get(l) ?? 0) + dt);
                seen.add(l);
            }
        }
        console.log(`── frame at ${f.startTime.toFixed(0)} (${f.duration.toFixed(0)} ms) ──`);
        console.log([...total].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.TOP ?? 30)).map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`).join('\n'));
    }
}

function summarise(profile: Profile): void {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
    for (let i = 0; i < profile.samples.length; i++) {
        const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
        let node = byId.get(profile.samples[i]!);
        if (!node) continue;
        self.set(label(node), (self.get(label(node)) ?? 0) + dt);
        const seen = new Set<string>();
        while (node) {
            const l = label(node);
            if (!seen.has(l)) total.set(l, (total.get(l) ?? 0) + dt);
            seen.add(l);
            const p = parent.get(node.id);
            node = p === undefined ? undefined : byId.get(p);
        }
    }
    const top = (m: Map<string, number>, n: number) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => `${v.toFixed(1).padStart(8)} ms  ${k}`).join('\n');
    console.log('── self ──\n' + top(self, 40));
    console.log('── inclusive ──\n' + top(total, 60));
}

async function main(): Promise<void> {
    const mode = process.argv[2] ?? 'burst';
    const shared = new Shared();
    try {
        const tavern = await shared.tavern();
        const { page, close } = await openAgentPage(tavern);
        let action: () => Promise<unknown>;
        if (mode === 'scroll') {
            await page.evaluate(() => {
                const details = document.querySelector('#tavern_agent_panel_root details.tavern-agent__history') as HTMLDetailsElement | null;
                if (details) details.open = true;
            });
            const id = await importRun(page, 'long-run.json', syntheticRunExport(5000, 'bench-long-run').text);
            await timeOpen(page, id);
            await page.waitForTimeout(300);
            action = () => scrollThrough(page);
        } else {
            const commitTurn = calls(call('workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet tonight.' }), call('workspace_commit', {}), call('workspace_finish', {}));
            tavern.mock.reset();
            if (mode !== 'cold') {
                tavern.mock.enqueue(calls(call('workspace_list_files', {})), commitTurn);
                await sendAndWait(page, 'warm up');
                tavern.mock.reset();
            }
            if (mode === 'burst') tavern.mock.enqueue(calls(...Array.from({ length: 100 }, () => call('workspace_list_files', {}))), commitTurn);
            else tavern.mock.enqueue(...Array.from({ length: 50 }, () => calls(call('workspace_list_files', {}))), commitTurn);
            action = () => sendAndWait(page, 'Tell me about the forest.');
        }
        const cdp: CDPSession = await page.context().newCDPSession(page);
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        const since = await page.evaluate(installFrameProbe);
        await cdp.send('Profiler.start');
        // A named function made from source text: tsx's keepNames would leave an arrow nameless for the profiler.
        const markAt = (await page.evaluate(
            'new Function("return function benchClockMark() { const s = performance.now(); while (performance.now() - s < 5) {} return s; }")()()',
        )) as number;
        const result = await action();
        if (mode === 'scroll') {
            const r = result as { intervals: number[] };
            console.log(`scroll: ${r.intervals.length} frames, worst ${Math.max(...r.intervals).toFixed(1)} ms, over 50: ${r.intervals.filter((x) => x > 50).length}`);
        }
        const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
        await page.waitForTimeout(300);
        const frames = await page.evaluate(collectFrameProbe, since);
        summarise(profile);
        console.log('── long frames ──');
        for (const f of frames.longFrames) {
            console.log(`${f.duration.toFixed(0)} ms (blocking ${f.blockingDuration.toFixed(0)}): ${f.scripts.map((s) => `${s.invokerType}/${s.invoker} ${s.duration.toFixed(0)} ms ${s.sourceURL.split('/').slice(-2).join('/')}`).join(' | ')}`);
        }
        perFrame(profile, frames.longFrames.filter((f) => mode === 'scroll' || f.scripts.some((s) => s.sourceURL.includes('tavern-agent'))), markAt);
        await close();
    } finally {
        await shared.close();
    }
}

await main();
