// A profiling aid, not a figure: `node --import tsx bench/lib/round-breakdown.ts [N]` runs six Agent Mode turns of
// N list_files rounds (default 20, as figure 1) in a real SillyTavern with the instant mock, and splits a round
// into its parts: the model request in flight (the page's Resource Timing, and when the mock got it), and the
// time between a response and the next request, by the run's own journal (each event's time in the worker)
// against the page's clock. Medians over the middle rounds of all turns; the journal's clock has whole
// milliseconds, so its lines are good to about half a millisecond. Each turn is followed by the same turn without
// its rounds: the difference in CPU time of each process (/proc), per round, is what a round costs the machine.
// `--allow=chat.*,workspace.*` runs the turns with the Writer allowed only those tools (what the tool
// definitions every request carries cost a round); the request's mean size is printed either way.
import fs from 'node:fs';
import { agentOn, call, calls } from '../../tests/harness/agent';
import { slash } from '../../tests/harness/tavern';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import { Shared } from './shared';
import { median } from './stats';
import { newChat } from './tavern';
import { measureTurn } from './turn';

const N = Math.max(2, Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 20));
const ALLOW = process.argv.find((a) => a.startsWith('--allow='))?.slice('--allow='.length).split(',') ?? null;
const NARROW: Profile | null = ALLOW && { ...WRITER_PROFILE, id: 'round-breakdown-narrow', displayName: 'Narrow', tools: { ...WRITER_PROFILE.tools, allow: ALLOW } };
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

/** Linux clock ticks per second for /proc/<pid>/stat (USER_HZ: 100 on every Linux this runs on). */
const TICK_MS = 10;

/** Which part of the machine a process is: SillyTavern's server, this bench (the mock model too), or a Chromium process by type. */
function processKind(pid: number, args: string): string | null {
    if (pid === process.pid) return 'this bench process (the mock model)';
    if (/chromium|chrome/i.test(args)) {
        const type = /--type=([\w-]+)/.exec(args)?.[1];
        if (!type) return 'Chromium browser process (IndexedDB, network)';
        if (type === 'utility') return `Chromium utility (${/--utility-sub-type=([\w.]+)/.exec(args)?.[1] ?? '?'})`;
        return `Chromium ${type}${type === 'renderer' ? ' (page and worker)' : ''}`;
    }
    if (/node/.test(args) && /sillytavern|server\.js/i.test(args)) return "SillyTavern's server";
    return null;
}

/** CPU time (ms) so far of each kind of process on the machine. */
function cpuByKind(): Map<string, number> {
    const totals = new Map<string, number>();
    for (const entry of fs.readdirSync('/proc')) {
        const pid = Number(entry);
        if (!Number.isInteger(pid)) continue;
        try {
            const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
            const kind = processKind(pid, args);
            if (!kind) continue;
            const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
            const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
            // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the command name.
            totals.set(kind, (totals.get(kind) ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_MS);
        } catch {
            /* the process ended meanwhile */
        }
    }
    return totals;
}

function cpuSpent(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
    return new Map([...after].map(([kind, ms]) => [kind, ms - (before.get(kind) ?? 0)]));
}

const shared = new Shared();
try {
    const tavern = await shared.tavern();
    const { page } = await tavern.openChat();
    const rows: Record<string, number[]> = {};
    const add = (label: string, value: number) => (rows[label] ??= []).push(value);
    /** One turn of `rounds` list_files rounds and a commit, in a new chat: its measure and each process's CPU. */
    const agentTurn = async (rounds: number) => {
        await newChat(page);
        await agentOn(page);
        if (NARROW) {
            // Stored as the panel stores a profile (SillyTavern's extension settings), then picked for this chat.
            await page.evaluate((p) => {
                const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles?: Record<string, unknown> }>;
                settings.tavern_agent = { ...settings.tavern_agent, profiles: { ...(settings.tavern_agent?.profiles ?? {}), [p.id]: p } };
            }, NARROW);
            await slash(page, `/agent profile ${NARROW.id}`);
        }
        await page.waitForTimeout(150);
        tavern.mock.reset();
        tavern.mock.enqueue(
            ...Array.from({ length: rounds }, () => calls(call('workspace_list_files', {}))),
            calls(call('workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet.' }), call('workspace_commit', {}), call('workspace_finish', {})),
        );
        await page.evaluate(OBSERVE_REQUESTS);
        const before = cpuByKind();
        const measured = await measureTurn(page, 'Tell me about the forest.');
        return { measured, cpu: cpuSpent(before, cpuByKind()) };
    };
    for (let turn = 0; turn < TURNS; turn += 1) {
        const { measured, cpu: cpuRounds } = await agentTurn(N);
        const origin = (await page.evaluate('performance.timeOrigin')) as number;
        const requests = ((await page.evaluate('globalThis.__roundRequests')) as Timing[]).map((r) => ({ start: origin + r.start, end: origin + r.end }));
        const arrived = tavern.mock.generations().map((r) => r.at);
        for (const generation of tavern.mock.generations()) {
            add('request body (KB)', JSON.stringify(generation.body).length / 1024);
            add('tools offered', ((generation.body as { tools?: unknown[] }).tools ?? []).length);
        }
        const events = (await page.evaluate(LAST_RUN_EVENTS)) as Array<{ type: string; at: number }>;
        const times = (type: string) => events.filter((e) => e.type === type).map((e) => e.at);
        const [requested, responded] = [times('model-request'), times('model-response')];
        if (requests.length !== N + 1 || requested.length !== N + 1) throw new Error(`turn ${turn}: ${requests.length} requests seen, ${requested.length} journaled, expected ${N + 1}`);
        add('turn, click → idle', measured.wallMs);
        // The same turn without its rounds: the difference, per round, is what the rounds cost each process.
        const { measured: zero, cpu: cpuZero } = await agentTurn(0);
        add('the same turn with no rounds', zero.wallMs);
        add('wall time per round, from the two turns', (measured.wallMs - zero.wallMs) / N);
        let total = 0;
        for (const [kind, ms] of cpuRounds) {
            const perRound = (ms - (cpuZero.get(kind) ?? 0)) / N;
            total += perRound;
            add(`CPU per round: ${kind}`, perRound);
        }
        add('CPU per round: all of them', total);
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
    for (const [label, values] of Object.entries(rows)) console.log(`${label.padEnd(46)} ${median(values).toFixed(2).padStart(8)}${label.includes('(KB)') || label.startsWith('tools') ? '' : ' ms'}  (n = ${values.length})`);
} finally {
    await shared.close();
}
