// A profiling aid, not a figure: `node --import tsx bench/lib/burst-frames.ts` runs figure 2's burst (one model
// turn of 100 calls) three times on one page and prints, for each, when the page's frames came relative to the
// events' arrival (requestAnimationFrame times), when each row was drawn and when it was painted, and every long
// animation frame (> 50 ms) near it, with its scripts: where the time between arrival and paint goes.
import { call, calls } from '../../tests/harness/agent';
import { openAgentPage, sendAndWait } from './agent-page';
import { Shared } from './shared';
import { installLatencyProbe, collectLatencyProbe } from './probes';

const shared = new Shared();
try {
    const tavern = await shared.tavern();
    const { page, close } = await openAgentPage(tavern);
    const commitTurn = calls(call('workspace_write_file', { path: 'output/main.md', content: 'Quiet.' }), call('workspace_commit', {}), call('workspace_finish', {}));
    tavern.mock.reset();
    tavern.mock.enqueue(calls(call('workspace_list_files', {})), commitTurn);
    await sendAndWait(page, 'warm');
    for (let rep = 0; rep < 3; rep++) {
        tavern.mock.reset();
        tavern.mock.enqueue(calls(...Array.from({ length: 100 }, () => call('workspace_list_files', {}))), commitTurn);
        await page.evaluate(installLatencyProbe, '#tavern_agent_panel_root');
        await page.evaluate(`(() => { globalThis.__loafObserver?.disconnect(); const seen = []; globalThis.__loaf = seen; globalThis.__loafObserver = new PerformanceObserver((l) => { for (const e of l.getEntries()) seen.push({ start: e.startTime, dur: e.duration, render: e.renderStart, style: e.styleAndLayoutStart, block: e.blockingDuration, scripts: e.scripts.map((s) => s.invoker + ' ' + Math.round(s.duration) + ' @' + Math.round(s.startTime) + ' ' + s.sourceURL.split('/').pop()) }); }); globalThis.__loafObserver.observe({ type: 'long-animation-frame' }); })()`);
        await sendAndWait(page, 'burst ' + rep);
        await page.waitForTimeout(300);
        const probe = await page.evaluate(collectLatencyProbe);
        const loaf = (await page.evaluate('globalThis.__loaf')) as Array<{ start: number; dur: number; render: number; style: number; block: number; scripts: string[] }>;
        const list = probe.received.filter((r) => r.name === 'workspace_list_files');
        const arrival = Math.min(...list.map((r) => r.receivedAt));
        const frames = probe.frames.filter((f) => f > arrival - 40 && f < arrival + 200).map((f) => Math.round(f - arrival));
        const spread = Math.max(...list.map((r) => r.receivedAt)) - arrival;
        console.log(`rep ${rep}: ${list.length} list events, arriving over ${Math.round(spread)} ms; frames (rAF) from the first arrival: ${frames.join(' ')} ms`);
        // When each row was drawn and painted: rows drawn together in one task or frame come as one group.
        const groups = new Map<string, number>();
        for (const o of probe.observed) {
            const key = `${Math.round(o.mutatedAt - arrival)}→${Math.round(o.paintedAt - arrival)}`;
            groups.set(key, (groups.get(key) ?? 0) + 1);
        }
        console.log(`  rows drawn → painted (ms from the first arrival, how many): ${[...groups].map(([key, n]) => `${key} ×${n}`).join(', ')}`);
        for (const f of loaf.filter((f) => f.start + f.dur > arrival - 50 && f.start < arrival + 200)) {
            console.log(`  LoAF start ${Math.round(f.start - arrival)} dur ${Math.round(f.dur)} render@${Math.round(f.render - arrival)} style@${Math.round(f.style - arrival)} block ${Math.round(f.block)} :: ${f.scripts.map((s) => s.replace(/@(\d+)/, (_, n) => '@' + (Number(n) - Math.round(arrival)))).join(' | ')}`);
        }
    }
    await close();
} finally {
    await shared.close();
}
