// A profiling aid, not a figure: `node --import tsx bench/lib/profile-run.ts [burst|stream|cold|scroll]` runs one
// Agent Mode turn (100 calls in one turn, or 50 one-call rounds; cold: the 50 rounds as the page's first run,
// as figure 6 measures it) with the CDP sampling profiler on and
// prints where the page's main thread spent its time (self and inclusive, by function), and the long
// animation frames with their scripts. Build dist/ unminified (`MINIFY=0 npm run build`, never committed) to read names.
// `open` profiles opening the 5,000-event run three times; `open-trace` traces one open, by thread.
// `burst-trace` and `stream-trace` record a Chromium trace of the turn and print where each thread spent it
// (`--closed`: with the panel closed, as figure 1 runs).
// `--under=name` adds the self time of what runs under that function; `--callers=name` that function's time by its callers; `--fn=a,b` adds the inclusive time of those functions by name (e.g. the commit's parts).
// `scroll` profiles scrolling the 5,000-event timeline; `scroll-trace` records a Chromium trace of it
// (`floor-trace`: of the panel scrolled over an empty box in its place, the floor) instead and prints, for the whole scroll and for each frame over 33 ms, where every thread of the
// renderer (main, compositor, raster) and the GPU process spent the time: style, layout, paint, scripts.
import type { CDPSession } from 'playwright-core';
import { call, calls } from '../../tests/harness/agent';
import { openAgentPage, sendAndWait } from './agent-page';
import { collectFrameProbe, installFrameProbe } from './probes';
import { Shared } from './shared';
import { syntheticRunExport } from './synthetic-run';
import { importRun, openHistoryList, scrollFloor, scrollThrough, timeOpen } from '../timeline-scroll';

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

/** The sample clock (µs) against performance.now(): the first sample in the page's marker function. */
function sampleClock(profile: Profile, byId: Map<number, ProfileNode>, parent: Map<number, number>, markAt: number): { times: number[]; offset: number } | null {
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
    return offset === null ? null : { times, offset };
}

/** Per long frame with extension code: the functions of the profile's samples inside it, inclusive, top 25. */
function perFrame(profile: Profile, frames: Array<{ startTime: number; duration: number }>, markAt: number): void {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-1).join('/')}:${n.callFrame.lineNumber + 1}`;
    const clock = sampleClock(profile, byId, parent, markAt);
    if (!clock) return console.log('(no clock mark found)');
    const { times, offset } = clock;
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

/**
 * The scroll's main-thread time per animation frame (the intervals between the scroll's rAF callbacks), by
 * whose code it was: the extension (its bundle and chunks, preact included), SillyTavern's MutationObservers
 * (keyboard.js, a11y.js, i18n.js), other scripts, and the browser's own work outside scripts ("(program)":
 * style, layout, paint) and GC. A sample counts for the first of those found from its leaf to the root.
 */
function perScrollFrame(profile: Profile, frameTimes: number[], markAt: number): void {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const categoryOf = new Map<number, string>();
    const category = (id: number): string => {
        const known = categoryOf.get(id);
        if (known) return known;
        const leaf = byId.get(id)!;
        let found = leaf.callFrame.functionName.startsWith('(') ? leaf.callFrame.functionName : 'other script';
        for (let node: ProfileNode | undefined = leaf; node; node = parent.has(node.id) ? byId.get(parent.get(node.id)!) : undefined) {
            const url = node.callFrame.url;
            if (/scripts\/(keyboard|a11y|i18n)\.js/.test(url)) {
                found = 'ST observers';
                break;
            }
            if (url.includes('tavern-agent')) {
                found = 'extension';
                break;
            }
        }
        categoryOf.set(id, found);
        return found;
    };
    const clock = sampleClock(profile, byId, parent, markAt);
    if (!clock) return console.log('(no clock mark found)');
    const { times, offset } = clock;
    const frames = frameTimes.slice(1).map((end, k) => ({ k, start: frameTimes[k]!, end, by: new Map<string, number>() }));
    let f = 0;
    for (let i = 0; i < profile.samples.length; i++) {
        const at = times[i]! / 1000 - offset;
        while (f < frames.length && at >= frames[f]!.end) f++;
        if (f >= frames.length) break;
        if (at < frames[f]!.start) continue;
        const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
        const c = category(profile.samples[i]!);
        frames[f]!.by.set(c, (frames[f]!.by.get(c) ?? 0) + dt);
    }
    const busy = (m: Map<string, number>) => [...m].filter(([k]) => k !== '(idle)').reduce((a, [, v]) => a + v, 0);
    const totals = new Map<string, number>();
    for (const fr of frames) for (const [k, v] of fr.by) totals.set(k, (totals.get(k) ?? 0) + v);
    const busies = frames.map((fr) => busy(fr.by)).sort((a, b) => a - b);
    const at = (q: number) => busies[Math.min(busies.length - 1, Math.floor(q * busies.length))]!;
    console.log(`── main thread per scroll frame (${frames.length} frames): busy mean ${(busies.reduce((a, b) => a + b, 0) / frames.length).toFixed(2)} ms, p50 ${at(0.5).toFixed(1)}, p95 ${at(0.95).toFixed(1)}, max ${busies.at(-1)!.toFixed(1)} ──`);
    console.log(`  per frame, mean: ${[...totals].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${(v / frames.length).toFixed(2)}`).join(' · ')}`);
    const worst = [...frames].sort((a, b) => busy(b.by) - busy(a.by)).slice(0, 8);
    for (const fr of worst) console.log(`  frame ${fr.k + 1} of ${(fr.end - fr.start).toFixed(1)} ms, busy ${busy(fr.by).toFixed(1)}: ${[...fr.by].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(' · ')}`);
}

function summarise(profile: Profile): void {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const self = new Map<string, number>();
    const total = new Map<string, number>();
    // --under=name: self time of the samples with that function on their stack, by function.
    const under = process.argv.find((arg) => arg.startsWith('--under='))?.slice('--under='.length) ?? null;
    const selfUnder = new Map<string, number>();
    // --callers=name: the time of that function's samples by the three frames that called it (who forces a layout, say).
    const callersOf = process.argv.find((arg) => arg.startsWith('--callers='))?.slice('--callers='.length) ?? null;
    const byCallers = new Map<string, number>();
    const label = (n: ProfileNode) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-2).join('/')}:${n.callFrame.lineNumber + 1}:${n.callFrame.columnNumber + 1}`;
    for (let i = 0; i < profile.samples.length; i++) {
        const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
        let node = byId.get(profile.samples[i]!);
        if (!node) continue;
        self.set(label(node), (self.get(label(node)) ?? 0) + dt);
        const seen = new Set<string>();
        const leaf = label(node);
        for (let up: ProfileNode | undefined = node; under && up; up = parent.has(up.id) ? byId.get(parent.get(up.id)!) : undefined) {
            if (up.callFrame.functionName !== under) continue;
            selfUnder.set(leaf, (selfUnder.get(leaf) ?? 0) + dt);
            break;
        }
        if (callersOf && node.callFrame.functionName === callersOf) {
            const chain: string[] = [];
            for (let up = parent.has(node.id) ? byId.get(parent.get(node.id)!) : undefined; up && chain.length < 3; up = parent.has(up.id) ? byId.get(parent.get(up.id)!) : undefined) chain.push(label(up));
            const key = chain.join(' ← ');
            byCallers.set(key, (byCallers.get(key) ?? 0) + dt);
        }
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
    // --fn=a,b: the inclusive time of functions by name, wherever they are in the list (the commit's parts, say).
    const names = process.argv.find((arg) => arg.startsWith('--fn='))?.slice('--fn='.length).split(',') ?? [];
    if (under) console.log(`── self, under ${under} ──\n` + top(selfUnder, 30));
    if (callersOf) console.log(`── ${callersOf}, by its callers ──\n` + top(byCallers, 15));
    if (names.length) console.log('── inclusive, by name ──\n' + top(new Map([...total].filter(([l]) => names.includes(l.split(' ')[0]!))), 60));
}

interface TraceEvent {
    name: string;
    cat: string;
    ph: string;
    ts: number;
    dur?: number;
    /** Thread (CPU) time: what the thread ran, without the time it waited for a core. */
    tdur?: number;
    tts?: number;
    pid: number;
    tid: number;
    args?: { name?: string; data?: Record<string, unknown> };
}

/** Records a trace of `action` (CDP Tracing, returned as a stream) and returns its events. */
async function traceOf(cdp: CDPSession, action: () => Promise<void>): Promise<TraceEvent[]> {
    const categories = process.argv.includes('--light')
        ? ['devtools.timeline', 'blink.user_timing', 'toplevel', 'v8.execute']
        : ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'blink.user_timing', 'v8.execute', 'cc', 'gpu', 'viz', 'benchmark', 'toplevel'];
    await cdp.send('Tracing.start', { traceConfig: { includedCategories: categories }, transferMode: 'ReturnAsStream' });
    await action();
    const complete = new Promise<string>((resolve) => cdp.once('Tracing.tracingComplete', (e: { stream?: string }) => resolve(e.stream ?? '')));
    await cdp.send('Tracing.end');
    const stream = await complete;
    let text = '';
    for (;;) {
        const chunk = (await cdp.send('IO.read', { handle: stream, size: 1 << 20 })) as { data: string; eof: boolean; base64Encoded?: boolean };
        text += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString('utf8') : chunk.data;
        if (chunk.eof) break;
    }
    await cdp.send('IO.close', { handle: stream });
    const parsed = JSON.parse(text) as { traceEvents?: TraceEvent[] } | TraceEvent[];
    return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
}

/** "process/thread" names by "pid:tid", from the trace's metadata events. */
function threadNames(events: TraceEvent[]): Map<string, string> {
    const threadName = new Map<string, string>();
    const processName = new Map<number, string>();
    for (const e of events) {
        if (e.ph === 'M' && e.name === 'thread_name') threadName.set(`${e.pid}:${e.tid}`, String(e.args?.name ?? ''));
        if (e.ph === 'M' && e.name === 'process_name') processName.set(e.pid, String(e.args?.name ?? ''));
    }
    for (const [key, name] of threadName) threadName.set(key, `${processName.get(Number(key.split(':')[0])) ?? '?'}/${name}`);
    return threadName;
}

/**
 * Self time by event name per thread, within [from, to) µs: complete events ('X', and B/E pairs) nested by
 * time on their thread, each counting its duration minus its children's.
 */
function selfTimes(events: TraceEvent[], threadName: Map<string, string>, from: number, to: number): Map<string, Map<string, number>> {
    type Slice = { name: string; start: number; end: number; cpu: number };
    const byThread = new Map<string, Slice[]>();
    const open = new Map<string, TraceEvent[]>();
    for (const e of events) {
        const key = `${e.pid}:${e.tid}`;
        let slice: Slice | null = null;
        // CPU time where the trace has it (a busy machine stretches wall time, not this), else wall time.
        if (e.ph === 'X' && e.dur !== undefined) slice = { name: e.name, start: e.ts, end: e.ts + e.dur, cpu: e.tdur ?? e.dur };
        else if (e.ph === 'B') (open.get(key) ?? open.set(key, []).get(key)!).push(e);
        else if (e.ph === 'E') {
            const b = open.get(key)?.pop();
            if (b) slice = { name: b.name, start: b.ts, end: e.ts, cpu: b.tts !== undefined && e.tts !== undefined ? e.tts - b.tts : e.ts - b.ts };
        }
        // Only slices inside the window count (a frame's work is what started in it).
        if (!slice || slice.start < from || slice.start >= to) continue;
        (byThread.get(key) ?? byThread.set(key, []).get(key)!).push(slice);
    }
    const result = new Map<string, Map<string, number>>();
    for (const [key, slices] of byThread) {
        slices.sort((a, b) => a.start - b.start || b.end - a.end);
        const self = new Map<string, number>();
        const stack: Array<Slice & { child: number }> = [];
        const close = (s: Slice & { child: number }) => self.set(s.name, (self.get(s.name) ?? 0) + Math.max(0, s.cpu - s.child));
        for (const s of slices) {
            while (stack.length && stack.at(-1)!.end <= s.start) close(stack.pop()!);
            const parent = stack.at(-1);
            if (parent) parent.child += s.cpu;
            stack.push({ ...s, child: 0 });
        }
        while (stack.length) close(stack.pop()!);
        result.set(threadName.get(key) ?? key, self);
    }
    return result;
}

function printSelfTimes(title: string, times: Map<string, Map<string, number>>, top: number): void {
    console.log(`── ${title} ──`);
    const threads = [...times].map(([thread, self]) => ({ thread, self, total: [...self.values()].reduce((a, b) => a + b, 0) })).sort((a, b) => b.total - a.total);
    for (const { thread, self, total } of threads) {
        if (total < 1000) continue;
        const rows = [...self].sort((a, b) => b[1] - a[1]).slice(0, top).filter(([, us]) => us >= 300);
        console.log(`  ${thread}: ${(total / 1000).toFixed(1)} ms  ${rows.map(([n, us]) => `${n} ${(us / 1000).toFixed(1)}`).join(' · ')}`);
    }
}

/** Scrolls the big timeline under a trace and prints where each thread spent the long frames. */
async function traceScroll(cdp: CDPSession, scroll: () => Promise<{ intervals: number[]; times: number[] }>, clock: () => Promise<number>, profileClock: () => Promise<number>): Promise<void> {
    let result: { intervals: number[]; times: number[] } = { intervals: [], times: [] };
    let markAt = 0;
    // With --js the sampling profiler runs too, to name the scripts of the frames that took the most CPU.
    const js = process.argv.includes('--js');
    let profileMark = 0;
    if (js) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
        await cdp.send('Profiler.start');
        profileMark = await profileClock();
    }
    const events = await traceOf(cdp, async () => {
        markAt = await clock();
        result = await scroll();
    });
    const profile = js ? ((await cdp.send('Profiler.stop')) as unknown as { profile: Profile }).profile : null;
    const threadName = threadNames(events);
    const mark = events.find((e) => e.name === 'bench-clock' && e.cat.includes('blink.user_timing'));
    if (!mark) return console.log('(no bench-clock mark in the trace)');
    const offset = mark.ts - markAt * 1000;
    const first = result.times[0]!;
    const last = result.times.at(-1)!;
    console.log(`scroll: ${result.intervals.length} frames, worst ${Math.max(...result.intervals).toFixed(1)} ms, over 50: ${result.intervals.filter((x) => x > 50).length}`);
    const whole = selfTimes(events, threadName, first * 1000 + offset, last * 1000 + offset);
    printSelfTimes(`whole scroll (${(last - first).toFixed(0)} ms), self CPU time by thread`, whole, 14);
    for (const [thread, self] of whole) {
        const total = [...self.values()].reduce((a, b) => a + b, 0);
        if (total >= 1000) console.log(`  per frame: ${thread} ${(total / 1000 / result.intervals.length).toFixed(2)} ms`);
    }
    // The main thread's CPU per frame: its top-level slices (tasks), binned by the frame they started in.
    const main = [...threadName].find(([, name]) => name === 'Renderer/CrRendererMain')?.[0];
    const tops: Array<{ start: number; end: number; cpu: number }> = [];
    for (const e of events) {
        if (e.ph !== 'X' || e.dur === undefined || `${e.pid}:${e.tid}` !== main) continue;
        const last = tops.at(-1);
        if (last && e.ts < last.end) continue; // nested in the task before (events come sorted by start)
        tops.push({ start: e.ts, end: e.ts + e.dur, cpu: e.tdur ?? e.dur });
    }
    const cpuOf = result.intervals.map(() => 0);
    for (const top of tops) {
        const at = (top.start - offset) / 1000;
        const k = result.times.findIndex((time, i) => i + 1 < result.times.length && at >= time && at < result.times[i + 1]!);
        if (k >= 0) cpuOf[k]! += top.cpu / 1000;
    }
    const sorted = [...cpuOf].sort((a, b) => a - b);
    const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
    console.log(`main-thread CPU per frame: mean ${(cpuOf.reduce((a, b) => a + b, 0) / cpuOf.length).toFixed(2)} ms, p50 ${q(0.5).toFixed(1)}, p95 ${q(0.95).toFixed(1)}, max ${sorted.at(-1)!.toFixed(1)}; frames over 50 ms of wall time: ${result.intervals.map((ms, i) => (ms > 50 ? `#${i + 1} ${ms.toFixed(0)} ms (CPU ${cpuOf[i]!.toFixed(1)})` : '')).filter(Boolean).join(', ') || 'none'}`);
    cpuOf.forEach((cpu, i) => {
        if (cpu < 30) return;
        const self = selfTimes(events, threadName, result.times[i]! * 1000 + offset, result.times[i + 1]! * 1000 + offset).get('Renderer/CrRendererMain');
        console.log(`  frame #${i + 1}: CPU ${cpu.toFixed(1)} ms: ${[...(self ?? [])].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([n, us]) => `${n} ${(us / 1000).toFixed(1)}`).join(' · ')}`);
        if (profile) perFrame(profile, [{ startTime: result.times[i]!, duration: result.times[i + 1]! - result.times[i]! }], profileMark);
    });
    if (process.argv.includes('--brief')) return;
    result.intervals.forEach((ms, i) => {
        if (ms <= 33.4) return;
        const from = result.times[i]! * 1000 + offset;
        const to = result.times[i + 1]! * 1000 + offset;
        printSelfTimes(`frame ${i + 1} (${ms.toFixed(1)} ms)`, selfTimes(events, threadName, from, to), 12);
    });
}

async function main(): Promise<void> {
    const mode = process.argv[2] ?? 'burst';
    const shared = new Shared();
    try {
        const tavern = await shared.tavern();
        const { page, close } = await openAgentPage(tavern);
        // --closed: the panel closed, as figure 1 runs its turns.
        if (process.argv.includes('--closed')) {
            await page.click('#tavern_agent_button .drawer-icon');
            await page.waitForSelector('#tavern_agent_panel_root .tavern-agent', { state: 'detached' });
        }
        let action: () => Promise<unknown>;
        if (mode === 'open' || mode === 'open-trace') {
            // Where opening the 5,000-event run spends its time, by thread (the worker's read included).
            await openHistoryList(page);
            const small = await importRun(page, 'short-run.json', syntheticRunExport(40, 'bench-short-run').text);
            const big = await importRun(page, 'long-run.json', syntheticRunExport(5000, 'bench-long-run').text);
            for (let i = 0; i < 2; i++) {
                await timeOpen(page, small);
                await timeOpen(page, big);
            }
            await timeOpen(page, small);
            await page.waitForTimeout(300);
            const cdp: CDPSession = await page.context().newCDPSession(page);
            if (mode === 'open') {
                // The page's functions over three opens of the big run (the worker's read is not in this profile).
                await cdp.send('Profiler.enable');
                await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
                await cdp.send('Profiler.start');
                const opens: number[] = [];
                for (let i = 0; i < 3; i++) {
                    opens.push(await timeOpen(page, big));
                    await timeOpen(page, small);
                }
                const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
                console.log(`opens: ${opens.map((ms) => ms.toFixed(0)).join(', ')} ms`);
                summarise(profile);
                await close();
                return;
            }
            let took = 0;
            const events = await traceOf(cdp, async () => {
                took = await timeOpen(page, big);
            });
            const threadName = threadNames(events);
            let from = Infinity;
            let to = -Infinity;
            for (const e of events) {
                if (e.name !== 'EventDispatch' && e.name !== 'FunctionCall' && e.name !== 'RunTask') continue;
                if (threadName.get(`${e.pid}:${e.tid}`) === undefined) continue;
                from = Math.min(from, e.ts);
                to = Math.max(to, e.ts + (e.dur ?? 0));
            }
            console.log(`open: ${took.toFixed(0)} ms`);
            printSelfTimes(`open-trace (${((to - from) / 1000).toFixed(0)} ms of tasks), self CPU time by thread`, selfTimes(events, threadName, from, to + 1), 20);
            await close();
            return;
        }
        if (mode === 'scroll' || mode === 'scroll-trace' || mode === 'floor-trace') {
            await openHistoryList(page);
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
            if (mode.startsWith('burst')) tavern.mock.enqueue(calls(...Array.from({ length: 100 }, () => call('workspace_list_files', {}))), commitTurn);
            else tavern.mock.enqueue(...Array.from({ length: 50 }, () => calls(call('workspace_list_files', {}))), commitTurn);
            action = () => sendAndWait(page, 'Tell me about the forest.');
        }
        const cdp: CDPSession = await page.context().newCDPSession(page);
        if (mode === 'burst-trace' || mode === 'stream-trace') {
            // Where the page's threads spent the run (style, layout, paint, scripts), from Send to the run's end.
            const events = await traceOf(cdp, async () => {
                await action();
            });
            const threadName = threadNames(events);
            let from = Infinity;
            let to = -Infinity;
            for (const e of events) {
                if (e.ph !== 'X' && e.ph !== 'B' && e.ph !== 'E') continue;
                from = Math.min(from, e.ts);
                to = Math.max(to, e.ts + (e.dur ?? 0));
            }
            printSelfTimes(`${mode} (${((to - from) / 1000).toFixed(0)} ms), self CPU time by thread`, selfTimes(events, threadName, from, to + 1), 16);
            const count = (name: string) => events.filter((e) => e.name === name && (e.ph === 'X' || e.ph === 'B')).length;
            console.log(`counts: UpdateLayoutTree ${count('UpdateLayoutTree')}, Layout ${count('Layout')}, Paint ${count('Paint')}, PrePaint ${count('PrePaint')}, Commit ${count('Commit')}`);
            await close();
            return;
        }
        if (mode === 'scroll-trace' || mode === 'floor-trace') {
            const clock = () => page.evaluate(() => performance.mark('bench-clock').startTime);
            const profileClock = async () =>
                (await page.evaluate(
                    'new Function("return function benchClockMark() { const s = performance.now(); while (performance.now() - s < 5) {} return s; }")()()',
                )) as number;
            // floor-trace: the same trace of the panel scrolled over an empty box of the list's height (no rows).
            await traceScroll(cdp, () => (mode === 'floor-trace' ? scrollFloor(page, 'empty') : scrollThrough(page)), clock, profileClock);
            await close();
            return;
        }
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
        const since = await page.evaluate(installFrameProbe);
        await cdp.send('Profiler.start');
        // A named function made from source text: tsx's keepNames would leave an arrow nameless for the profiler.
        const markAt = (await page.evaluate(
            'new Function("return function benchClockMark() { const s = performance.now(); while (performance.now() - s < 5) {} return s; }")()()',
        )) as number;
        const result = await action();
        const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: Profile };
        if (mode === 'scroll') {
            const r = result as { intervals: number[]; times: number[] };
            console.log(`scroll: ${r.intervals.length} frames, worst ${Math.max(...r.intervals).toFixed(1)} ms, over 50: ${r.intervals.filter((x) => x > 50).length}`);
            perScrollFrame(profile, r.times, markAt);
            if (process.argv.includes('--brief')) {
                await close();
                return;
            }
        }
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
