// 2. Event-to-panel latency: from the journal append in the worker (event.at) to the timeline row painted.
import type { Page } from 'playwright-core';
import { call, calls } from '../tests/harness/agent';
import type { MockTurn } from '../tests/harness/mock-model';
import { openAgentPage, sendAndWait } from './lib/agent-page';
import { collectLatencyProbe, installLatencyProbe, journalRecordSizes, runPaintFloor, type LatencyProbeResult, type ReceivedEvent } from './lib/probes';
import type { Benchmark, Figure } from './lib/report';
import { median, percentile } from './lib/stats';
import type { BenchTavern } from './lib/tavern';

const BURST_CALLS = 100;
const STREAM_ROUNDS = 50;
const PANEL_ROOT = '#tavern_agent_panel_root';

/** Order of the states one row goes through, so an event counts as painted once its row shows it or a later state. */
const RANK: Record<string, number> = { 'model-request': 0, 'model-response': 1, 'tool-call-start': 1, 'tool-call-complete': 2, 'tool-call-fail': 2 };

interface Latency {
    seq: number;
    type: string;
    name: string | null;
    round: number | null;
    /** Worker append (event.at) → the page received it. */
    arrivalMs: number;
    /** Worker append → its row painted. */
    paintMs: number | null;
    /** Animation frames begun after the append up to the paint: 1 = painted in the very next frame. */
    frames: number | null;
}

/** The row an event shows on (timeline-model.ts keys): null for events with no row of their own. */
function rowKeyOf(event: ReceivedEvent, lastModelRequest: number | null): string | null {
    switch (event.type) {
        case 'model-request':
            return `m${event.seq}`;
        case 'model-response':
            return lastModelRequest === null ? `m${event.seq}` : `m${lastModelRequest}`;
        case 'tool-call-start':
        case 'tool-call-complete':
        case 'tool-call-fail':
            // A call's row is keyed by the provider's id the model announced it with; the row carries the
            // run-unique id of its events as data-call-id.
            return event.callId === null ? null : `call:${event.callId}`;
        default:
            return null;
    }
}

/**
 * From `at` (Date.now() in the worker) to `paintedAt` (the page's clock): the time, and the animation frames
 * begun in between (1 = painted in the very next frame). `at` is truncated to the millisecond: the append
 * happened within [at, at + 1).
 */
function paintOf(probe: LatencyProbeResult, at: number, paintedAt: number): { ms: number; frames: number } {
    const appendedAt = at - probe.clockOffset;
    return { ms: paintedAt + probe.clockOffset - at, frames: probe.frames.filter((t) => t > appendedAt + 0.5 && t <= paintedAt).length };
}

function latencies(probe: LatencyProbeResult): Latency[] {
    const byRow = new Map<string, Array<{ rank: number; paintedAt: number }>>();
    for (const o of probe.observed) {
        if (!o.type || RANK[o.type] === undefined) continue;
        for (const key of o.callId ? [o.key, `call:${o.callId}`] : [o.key]) {
            const list = byRow.get(key) ?? [];
            list.push({ rank: RANK[o.type]!, paintedAt: o.paintedAt });
            byRow.set(key, list);
        }
    }
    const out: Latency[] = [];
    let lastModelRequest: number | null = null;
    for (const event of [...probe.received].sort((a, b) => a.seq - b.seq)) {
        const key = rowKeyOf(event, lastModelRequest);
        if (event.type === 'model-request') lastModelRequest = event.seq;
        if (key === null) continue;
        const rank = RANK[event.type]!;
        const painted = (byRow.get(key) ?? []).filter((o) => o.rank >= rank && o.paintedAt + probe.clockOffset >= event.at - 1).map((o) => o.paintedAt);
        const first = painted.length ? Math.min(...painted) : null;
        const paint = first === null ? null : paintOf(probe, event.at, first);
        out.push({
            seq: event.seq,
            type: event.type,
            name: event.name,
            round: event.round,
            arrivalMs: event.receivedAt + probe.clockOffset - event.at,
            paintMs: paint?.ms ?? null,
            frames: paint?.frames ?? null,
        });
    }
    return out;
}

async function measure(tavern: BenchTavern, page: Page, script: MockTurn[], pick: (l: Latency) => boolean) {
    tavern.mock.reset();
    tavern.mock.enqueue(...script);
    await page.evaluate(installLatencyProbe, PANEL_ROOT);
    const started = Date.now();
    await sendAndWait(page, 'Tell me about the forest.');
    const runMs = Date.now() - started;
    await page.waitForTimeout(200);
    const probe = await page.evaluate(collectLatencyProbe);
    const runId = probe.received[0]?.runId;
    const recordSizes = runId ? await page.evaluate(journalRecordSizes, runId) : [];
    const all = latencies(probe).filter(pick);
    const painted = all.filter((l) => l.paintMs !== null).map((l) => l.paintMs!);
    const span = (() => {
        const chosen = probe.received.filter((e) => all.some((l) => l.seq === e.seq));
        return chosen.length ? Math.max(...chosen.map((e) => e.at)) - Math.min(...chosen.map((e) => e.at)) : 0;
    })();
    return {
        runMs,
        events: all.length,
        painted: painted.length,
        spanMs: span,
        p50: percentile(painted, 50),
        p95: percentile(painted, 95),
        max: Math.max(...painted),
        framesP50: percentile(all.filter((l) => l.frames !== null).map((l) => l.frames!), 50),
        framesP95: percentile(all.filter((l) => l.frames !== null).map((l) => l.frames!), 95),
        arrivalP50: percentile(all.map((l) => l.arrivalMs), 50),
        arrivalP95: percentile(all.map((l) => l.arrivalMs), 95),
        /** The JSON length of each record the run's journal stored (one per write). */
        recordSizes,
        samples: all,
    };
}

/**
 * The floor: bare worker messages, each adding one row element in the task it arrives in, timed by the same
 * probe; `batch` messages at a time, each batch after one IndexedDB write of `recordChars` when given.
 */
async function measureFloor(page: Page, count: number, spacingMs: number, journal: { batch: number; recordChars: number } = { batch: 1, recordChars: 0 }) {
    await page.evaluate(installLatencyProbe, PANEL_ROOT);
    const samples = await page.evaluate(runPaintFloor, { rootSelector: PANEL_ROOT, count, spacingMs, ...journal });
    const probe = await page.evaluate(collectLatencyProbe);
    const paintedAt = new Map(probe.observed.map((o) => [o.key, o.paintedAt]));
    const paints: number[] = [];
    const frames: number[] = [];
    for (const sample of samples) {
        const painted = paintedAt.get(sample.key);
        if (painted === undefined) continue;
        const paint = paintOf(probe, sample.at, painted);
        paints.push(paint.ms);
        frames.push(paint.frames);
    }
    return { count: samples.length, painted: paints.length, p50: percentile(paints, 50), p95: percentile(paints, 95), framesP95: percentile(frames, 95) };
}

const TOOL_EVENTS = new Set(['tool-call-start', 'tool-call-complete']);
const MODEL_EVENTS = new Set(['model-request', 'model-response']);
/** The events of the measured calls: the list_files calls, not the closing write/commit/finish. */
const isListCall = (l: Latency) => TOOL_EVENTS.has(l.type) && l.name === 'workspace_list_files';

export const eventLatency: Benchmark = {
    name: 'event-latency',
    title: '2 Event-to-panel latency',
    async run({ shared, log }) {
        const tavern = await shared.tavern();
        const { page, close } = await openAgentPage(tavern);
        try {
            const hooks = await page.evaluate(() => Boolean(document.querySelector('#tavern_agent_panel_root .tavern-agent__timeline')));
            if (!hooks) {
                return { figures: [], details: {}, notes: [], skipped: 'the panel has no timeline (.tavern-agent__timeline) to measure yet' };
            }
            const commitTurn = calls(call('workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet tonight.' }), call('workspace_commit', {}), call('workspace_finish', {}));
            // Warm-up run: the worker starts, the timeline draws its first rows.
            await measure(tavern, page, [calls(call('workspace_list_files', {})), commitTurn], () => true);

            // The burst: one model turn with 100 calls, 200 tool events as fast as the engine journals them.
            const burst = await measure(
                tavern,
                page,
                [calls(...Array.from({ length: BURST_CALLS }, () => call('workspace_list_files', {}))), commitTurn],
                isListCall,
            );
            log(`  burst: ${burst.events} events in ${burst.spanMs} ms, ${burst.painted} painted rows in view, p50 ${burst.p50.toFixed(1)} ms, p95 ${burst.p95.toFixed(1)} ms`);
            // The stream: 50 one-call rounds, every event on a row at the end of the list (in view).
            const stream = await measure(
                tavern,
                page,
                [...Array.from({ length: STREAM_ROUNDS }, () => calls(call('workspace_list_files', {}))), commitTurn],
                (l) => isListCall(l) || (MODEL_EVENTS.has(l.type) && l.round !== null && l.round <= STREAM_ROUNDS),
            );
            log(`  stream: ${stream.events} events in ${stream.spanMs} ms, ${stream.painted} painted, p50 ${stream.p50.toFixed(1)} ms, p95 ${stream.p95.toFixed(1)} ms`);
            // The floors, on the same page right after: what a bare message and one new element cost.
            const streamFloor = await measureFloor(page, STREAM_ROUNDS * 4, Math.max(1, Math.round(stream.spanMs / Math.max(1, stream.events))));
            const burstFloor = await measureFloor(page, BURST_CALLS * 2, 0);
            // Journal first, as the engine: each round's events after one write of a round's stored size, and
            // the burst's after one write of its largest record.
            // Without the run's records the floor would silently be a bare one: say so instead.
            if (stream.recordSizes.length === 0 || burst.recordSizes.length === 0) throw new Error("the runs' journal records could not be read back for the journal-first floors");
            const roundChars = median(stream.recordSizes);
            const burstChars = Math.max(...burst.recordSizes);
            const journalStreamFloor = await measureFloor(page, STREAM_ROUNDS * 4, Math.max(1, Math.round(stream.spanMs / STREAM_ROUNDS)), { batch: 4, recordChars: roundChars });
            const journalBurstFloor = await measureFloor(page, BURST_CALLS * 2, 0, { batch: BURST_CALLS * 2, recordChars: burstChars });
            log(`  floors: stream p95 ${streamFloor.p95.toFixed(1)} ms, burst p95 ${burstFloor.p95.toFixed(1)} ms; journal-first: stream p95 ${journalStreamFloor.p95.toFixed(1)} ms (${roundChars} chars a write), burst p95 ${journalBurstFloor.p95.toFixed(1)} ms (${burstChars} chars)`);
            const figures: Figure[] = [
                {
                    id: 'event-latency.burst.p50',
                    label: `Burst of ${burst.events} events (${BURST_CALLS} calls in one turn): p50`,
                    value: burst.p50,
                    unit: 'ms',
                },
                {
                    id: 'event-latency.burst.p95',
                    label: `… p95 (${burst.painted} events whose row was in view)`,
                    value: burst.p95,
                    unit: 'ms',
                    target: '≤ 16 ms',
                    met: Number.isFinite(burst.p95) ? burst.p95 <= 16 : null,
                },
                { id: 'event-latency.stream.p50', label: `Stream of ${stream.events} events (${STREAM_ROUNDS} one-call rounds): p50`, value: stream.p50, unit: 'ms' },
                {
                    id: 'event-latency.stream.p95',
                    label: `… p95 (${stream.painted} painted)`,
                    value: stream.p95,
                    unit: 'ms',
                    target: '≤ 16 ms',
                    met: Number.isFinite(stream.p95) ? stream.p95 <= 16 : null,
                },
                {
                    id: 'event-latency.burst.frames-p95',
                    label: 'Burst: frames from append to paint, p95',
                    value: burst.framesP95,
                    unit: 'frames',
                    target: '1 (the next frame)',
                    met: Number.isFinite(burst.framesP95) ? burst.framesP95 <= 1 : null,
                },
                {
                    id: 'event-latency.stream.frames-p95',
                    label: 'Stream: frames from append to paint, p95',
                    value: stream.framesP95,
                    unit: 'frames',
                    target: '1 (the next frame)',
                    met: Number.isFinite(stream.framesP95) ? stream.framesP95 <= 1 : null,
                },
                { id: 'event-latency.burst.arrival-p95', label: 'Burst: worker append → page received, p95', value: burst.arrivalP95, unit: 'ms' },
                { id: 'event-latency.stream.arrival-p95', label: 'Stream: worker append → page received, p95', value: stream.arrivalP95, unit: 'ms' },
                { id: 'event-latency.floor.stream.p95', label: `Floor: ${streamFloor.count} bare worker messages at the stream's pace, each adding one row element: p95`, value: streamFloor.p95, unit: 'ms' },
                { id: 'event-latency.floor.stream.frames-p95', label: '… frames from post to paint, p95', value: streamFloor.framesP95, unit: 'frames' },
                { id: 'event-latency.floor.burst.p95', label: `Floor: ${burstFloor.count} such messages at once (a burst): p95`, value: burstFloor.p95, unit: 'ms' },
                { id: 'event-latency.floor.burst.frames-p95', label: '… frames from post to paint, p95', value: burstFloor.framesP95, unit: 'frames' },
                {
                    id: 'event-latency.floor.journal-stream.p95',
                    label: `Floor, journal first: the stream's pace, each round's 4 messages posted after one IndexedDB write of a round's stored size (${roundChars} chars): p95`,
                    value: journalStreamFloor.p95,
                    unit: 'ms',
                },
                { id: 'event-latency.floor.journal-stream.frames-p95', label: '… frames from the stamp before the write to paint, p95', value: journalStreamFloor.framesP95, unit: 'frames' },
                {
                    id: 'event-latency.floor.journal-burst.p95',
                    label: `Floor, journal first: ${journalBurstFloor.count} messages at once after one write of the burst's largest record (${Math.round(burstChars / 1024)} K chars): p95`,
                    value: journalBurstFloor.p95,
                    unit: 'ms',
                },
                { id: 'event-latency.floor.journal-burst.frames-p95', label: '… frames, p95', value: journalBurstFloor.framesP95, unit: 'frames' },
            ];
            return {
                figures,
                details: { burst, stream, streamFloor, burstFloor, journalStreamFloor, journalBurstFloor },
                notes: [
                    `Latency = the row painted (the first task after the frame that paints the row added or taking the event's state: MutationObserver → MessageChannel, via the next requestAnimationFrame when the change was made outside a frame's rendering) − event.at (Date.now() in the worker when the event is appended, before its IndexedDB write), the page's clock aligned to Date.now(); real SillyTavern, instant mock, timeline open and following.`,
                    `Burst: one model turn with ${BURST_CALLS} workspace_list_files calls, their ${burst.events} tool-call-start/complete events journaled within ${burst.spanMs} ms. The timeline lists all ${BURST_CALLS} calls as soon as the model answers and follows the end, so the rows of the first calls are scrolled out of view (not drawn) when their events come: only the ${burst.painted} events whose row was in view can be painted and timed.`,
                    'A row can only be painted at a frame: the wait from the append to the next frame alone is 0–16.7 ms (p95 ≈ 15.9 ms at 60 Hz), so "p95 ≤ 16 ms" needs every event painted in the next frame with next to no transfer and render time. The frames line counts animation frames begun after the append up to the paint (1 = the next frame).',
                    `Floors, on the same page and probe right after: a bare worker (no comlink, no journal) posts tiny messages stamped with Date.now(), ${streamFloor.count} of them as far apart as the stream's events and ${burstFloor.count} at once, and the page adds one row element per message inside the panel in the task it arrives in (no framework): the wait for the next frame and the paint, with nothing of ours in between.`,
                    `Journal-first floors: the same bare worker stamps each batch, writes one record of the size the run's journal stored for it (read back from the page's database after each run: the median write of the stream, the largest of the burst) in one IndexedDB readwrite transaction of its own database on the same disk, and posts the batch when it commits: the engine's order (append, write, then deliver) with nothing else of ours.`,
                    `Stream: ${STREAM_ROUNDS} rounds of one call, their ${stream.events} model-request/response and tool-call-start/complete events over ${stream.spanMs} ms (the fastest a run goes through SillyTavern's backend), each on a row at the end of the list.`,
                ],
            };
        } finally {
            await close();
        }
    },
};
