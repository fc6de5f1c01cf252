// A profiling aid, not a figure: `node --import tsx bench/lib/round-breakdown.ts [N]` runs six Agent Mode turns of
// N list_files rounds (default 20, as figure 1) in a real SillyTavern with the instant mock, and splits a round
// into its parts: the model request in flight (the page's Resource Timing, and when the mock got it), and the
// time between a response and the next request, by the run's own journal (each event's time in the worker)
// against the page's clock. Medians over the middle rounds of all turns; the journal's clock has whole
// milliseconds, so its lines are good to about half a millisecond.
import { agentOn, call, calls } from '../../tests/harness/agent';
import { Shared } from './shared';
import { median } from './stats';
import { newChat } from './tavern';
import { measureTurn } from './turn';

const N = Math.max(2, Number(process.argv[2] ?? 20));
const TURNS = 6;

interface Timing {
    start: number;
    end: number;
}

/** Resource Timing of each model request the page sends, from a buffer of its own (SillyTavern fills the page's). */
const OBSERVE_REQUESTS = `(() => {
    globalThis.__roundRequests = [];
    if (globalThis.__roundObserver) return;
    globalThis.__roundObserver = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) {
            if (entry.name.includes('/api/backends/chat-completions/generate')) globalThis.__roundRequests.push({ start: entry.startTime, end: entry.responseEnd });
        }
    });
    globalThis.__roundObserver.observe({ type: 'resource' });
})()`;

const LAST_RUN_EVENTS = `(async () => {
    const runs = await TavernAgent.runs();
    const last = runs.sort((a, b) => b.createdAt - a.createdAt)[0];
    return TavernAgent.events(last.runId, { limit: 1000 });
})()`;

const shared = new Shared();
try {
    const tavern = await shared.tavern();
    const { page } = await tavern.openChat();
    const rows: Record<string, number[]> = {};
    const add = (label: string, value: number) => (rows[label] ??= []).push(value);
    for (let turn = 0; turn < TURNS; turn += 1) {
        await newChat(page);
        await agentOn(page);
        await page.waitForTimeout(150);
        tavern.mock.reset();
        tavern.mock.enqueue(
            ...Array.from({ length: N }, () => calls(call('workspace_list_files', {}))),
            calls(call('workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet.' }), call('workspace_commit', {}), call('workspace_finish', {})),
        );
        await page.evaluate(OBSERVE_REQUESTS);
        const measured = await measureTurn(page, 'Tell me about the forest.');
        const origin = (await page.evaluate('performance.timeOrigin')) as number;
        const requests = ((await page.evaluate('globalThis.__roundRequests')) as Timing[]).map((r) => ({ start: origin + r.start, end: origin + r.end }));
        const arrived = tavern.mock.generations().map((r) => r.at);
        const events = (await page.evaluate(LAST_RUN_EVENTS)) as Array<{ type: string; at: number }>;
        const times = (type: string) => events.filter((e) => e.type === type).map((e) => e.at);
        const [requested, responded] = [times('model-request'), times('model-response')];
        if (requests.length !== N + 1 || requested.length !== N + 1) throw new Error(`turn ${turn}: ${requests.length} requests seen, ${requested.length} journaled, expected ${N + 1}`);
        add('turn, click → idle (ms)', measured.wallMs);
        // The first request carries the whole conversation and the last ends the run: the middle ones are rounds.
        for (let i = 1; i < N; i += 1) {
            const request = requests[i]!;
            add('request in flight (fetch → response end)', request.end - request.start);
            add('  fetch → the mock has it (SillyTavern in)', arrived[i]! - request.start);
            add('  the mock has it → response end (out)', request.end - arrived[i]!);
            add('response end → next request', requests[i + 1]!.start - request.end);
            add('  response end → model-response journaled', responded[i]! - request.end);
            add('  model-response → next model-request', requested[i + 1]! - responded[i]!);
            add('  model-request → its fetch starts (page)', requests[i + 1]!.start - requested[i + 1]!);
        }
    }
    for (const [label, values] of Object.entries(rows)) console.log(`${label.padEnd(46)} ${median(values).toFixed(2).padStart(8)} ms  (n = ${values.length})`);
} finally {
    await shared.close();
}
