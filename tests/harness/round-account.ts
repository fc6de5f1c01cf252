// The per-round cost account (issue 41 §1): what one tool round of an agent turn does, counted exactly. The
// mock model holds each response until the page and the worker are quiet, then the log of each side is
// marked: one round is what lies between the marks at two consecutive model requests (the response, the tool,
// its journal, the next request, and everything the panel and the badge draw for them). Holding the response
// is what makes the counts exact: nothing of one round is still in flight when the next one is marked.
import type { Page, Worker } from 'playwright-core';
import { call, calls } from './agent';
import type { ContextSource } from './browser';
import type { MockModel, MockTurn } from './mock-model';
import { COUNTER_GLOBAL, countSillyTavernEvents, installRoundCounters, type CountEntry, type CounterOptions } from './round-counters';
import { LINKED_FOLDER } from './tavern';

export const COUNTER_OPTIONS: CounterOptions = {
    extensionPath: `/scripts/extensions/third-party/${LINKED_FOLDER}/`,
    areas: { panel: 'aside.tavern-agent', badge: '#tavern_agent_send_badge' },
    clocks: ['[data-stat="elapsed"]'],
    keepPayloads: process.env.ROUND_ACCOUNT_PAYLOADS === '1',
};

/** One round's cost. Every field is a count of that round alone. */
export interface RoundAccount {
    /** postMessage calls page → worker (the Worker and comlink's ports) and their payload size. */
    messagesToWorker: number;
    bytesToWorker: number;
    /** postMessage calls worker → page. */
    messagesToPage: number;
    bytesToPage: number;
    /** IndexedDB transactions the worker opened. */
    idbTransactions: number;
    /** BroadcastChannel posts, page and worker. */
    broadcastPosts: number;
    /** eventSource.emit / emitAndWait calls with extension code on the stack. */
    sillyTavernEvents: number;
    /** fetch() calls by the extension, page and worker. */
    fetches: number;
    /** setTimeout, setInterval and requestAnimationFrame calls by the extension on the page. */
    pageTimers: number;
    /** setTimeout and setInterval calls in the worker. */
    workerTimers: number;
    /** Mutation records under the panel, and the distinct nodes they touched. */
    panelMutations: number;
    panelNodes: number;
    /** The same under the Send badge. */
    badgeMutations: number;
    badgeNodes: number;
}

export interface MeasuredRounds {
    /** One account per round, from the first response to the last tool round's next request. */
    rounds: RoundAccount[];
    /** What each kind was, per round: `kind: name ×count` lines, to say what a changed number is made of. */
    details: string[][];
}

/** Contexts whose pages count from their first script on. */
export function countingContexts(browser: ContextSource): ContextSource {
    return {
        async newContext(options) {
            const context = await browser.newContext(options);
            // tsx keeps function names with a helper the page does not have (tests/harness/browser.ts says more).
            await context.addInitScript({ content: 'globalThis.__name ??= (fn) => fn;' });
            await context.addInitScript(installRoundCounters, COUNTER_OPTIONS);
            return context;
        },
    };
}

/** Counts SillyTavern's events too; call once SillyTavern's page is ready. */
export async function countEvents(page: Page): Promise<void> {
    await page.evaluate(countSillyTavernEvents);
}

function engineWorker(page: Page): Worker {
    const worker = page.workers().find((w) => w.url().includes('/dist/worker.js'));
    if (!worker) throw new Error("round account: the engine's worker is not running");
    return worker;
}

/** The worker's counters, installed on first use (the worker starts with the first run or the panel). */
async function workerLog(page: Page): Promise<Worker> {
    const worker = engineWorker(page);
    await worker.evaluate('globalThis.__name ??= (fn) => fn;');
    await worker.evaluate(installRoundCounters, COUNTER_OPTIONS);
    return worker;
}

interface Mark {
    page: number;
    worker: number;
}

// Read through evaluate: in the worker over the DevTools protocol, never a message the counters would see.
const LENGTH = `(() => { const log = globalThis.${COUNTER_GLOBAL}; log.flush(); return log.entries.length; })()`;
const UNTICKED = `(() => { const log = globalThis.${COUNTER_GLOBAL}; log.flush(); return log.entries.filter((e) => !e.tick).length; })()`;

async function mark(page: Page, worker: Worker): Promise<Mark> {
    return { page: Number(await page.evaluate(LENGTH)), worker: Number(await worker.evaluate(LENGTH)) };
}

/** Waits until neither side has logged anything but clock ticks for two looks in a row. */
async function settle(page: Page, worker: Worker): Promise<void> {
    const look = async () => `${String(await page.evaluate(UNTICKED))}/${String(await worker.evaluate(UNTICKED))}`;
    let last = '';
    for (let i = 0; i < 50; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 120));
        const now = await look();
        if (now === last) return;
        last = now;
    }
    throw new Error('round account: the page never went quiet');
}

/** What the page or the worker can evaluate: an expression, over the DevTools protocol. */
interface Evaluator {
    evaluate(expression: string): Promise<unknown>;
}

async function entries(target: Evaluator, from: number, to: number): Promise<CountEntry[]> {
    const read = await target.evaluate(`globalThis.${COUNTER_GLOBAL}.entries.slice(${from}, ${to})`);
    if (!Array.isArray(read)) throw new Error('round account: no counter log');
    // The log holds only what installRoundCounters appended: CountEntry objects, copied out as JSON.
    return read as CountEntry[];
}

/** The ids of the calls clock ticks made: the worker's replies to them are left out wherever they fall. */
export function tickCallIds(pageEntries: readonly CountEntry[]): Set<string | null> {
    return new Set(pageEntries.filter((e) => e.tick && e.id !== null).map((e) => e.id));
}

/**
 * The account of one round from both sides' entries between two marks. Clock ticks, and replies to them, are
 * left out: `tickIds` are the ids of every call a tick made so far, as a tick's call may be answered after the
 * round it was made in ended (seen on a loaded machine: the 5 s check of the worker, answered a round later).
 */
export function accountOf(pageEntries: readonly CountEntry[], workerEntries: readonly CountEntry[], tickIds = tickCallIds(pageEntries)): RoundAccount {
    const page = pageEntries.filter((e) => e.ours && !e.tick);
    const worker = workerEntries.filter((e) => !e.tick && !(e.kind === 'post' && tickIds.has(e.id)));
    const of = (list: readonly CountEntry[], kind: CountEntry['kind'], name?: string) => list.filter((e) => e.kind === kind && (name === undefined || e.name === name));
    const bytes = (list: readonly CountEntry[]) => list.reduce((sum, e) => sum + e.bytes, 0);
    const nodes = (list: readonly CountEntry[]) => new Set(list.flatMap((e) => e.nodes ?? [])).size;
    return {
        messagesToWorker: of(page, 'post').length,
        bytesToWorker: bytes(of(page, 'post')),
        messagesToPage: of(worker, 'post').length,
        bytesToPage: bytes(of(worker, 'post')),
        idbTransactions: of(worker, 'idb').length,
        broadcastPosts: of(page, 'broadcast').length + of(worker, 'broadcast').length,
        sillyTavernEvents: of(page, 'emit').length,
        fetches: of(page, 'fetch').length + of(worker, 'fetch').length,
        pageTimers: of(page, 'timer').length,
        workerTimers: of(worker, 'timer').length,
        panelMutations: of(page, 'dom', 'panel').length,
        panelNodes: nodes(of(page, 'dom', 'panel')),
        badgeMutations: of(page, 'dom', 'badge').length,
        badgeNodes: nodes(of(page, 'dom', 'badge')),
    };
}

/** `side kind: name ×n` for every kind counted in a round: what its numbers are made of. */
function detailOf(pageEntries: readonly CountEntry[], workerEntries: readonly CountEntry[]): string[] {
    const counts = new Map<string, number>();
    const tally = (side: string, list: readonly CountEntry[]) => {
        for (const e of list) {
            const key = `${side} ${e.kind}${e.ours ? '' : ' (not ours)'}${e.tick ? ' (clock)' : ''}: ${e.name}${e.payload === undefined ? '' : ` ${e.bytes} B ${e.payload}`}`;
            counts.set(key, (counts.get(key) ?? 0) + 1);
        }
    };
    tally('page', pageEntries);
    tally('worker', workerEntries);
    return [...counts].map(([key, n]) => `${key} ×${n}`).sort();
}

export const LIST_FILES_ROUND: MockTurn = calls(call('workspace_list_files', {}));
export const FINISH_ROUND: MockTurn = calls(call('workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet tonight.' }), call('workspace_commit', {}), call('workspace_finish', {}));

/** Model turns of other runs in the same turn: a director's before the measured run, a keeper's after it. */
export interface AroundRounds {
    before?: MockTurn[];
    after?: MockTurn[];
}

/**
 * Sends a message with Send in the open chat (Agent Mode on) and counts each of `rounds` tool rounds of one
 * workspace_list_files call; the run then writes, commits and finishes. Resolves when SillyTavern is idle
 * again (a keeper after the reply may still be working).
 */
export async function measureRounds(page: Page, mock: MockModel, rounds: number, script: AroundRounds = {}): Promise<MeasuredRounds> {
    const leading = script.before ?? [];
    // The finishing request is held too: its mark must come before the commit.
    const gates = Array.from({ length: rounds + 1 }, () => {
        let resolve = () => undefined as void;
        const promise = new Promise<void>((done) => (resolve = done));
        return { promise, resolve };
    });
    mock.reset();
    mock.enqueue(...leading, ...gates.map((gate, i) => ({ ...(i < rounds ? LIST_FILES_ROUND : FINISH_ROUND), waitFor: gate.promise })), ...(script.after ?? []));
    const before = await page.evaluate(() => SillyTavern!.getContext().chat.length);
    await page.fill('#send_textarea', 'Tell me about the forest.');
    await page.click('#send_but');
    const marks: Mark[] = [];
    let worker: Worker | null = null;
    try {
        for (let k = 1; k <= rounds + 1; k += 1) {
            await mock.waitForGenerations(leading.length + k);
            worker ??= await workerLog(page);
            await settle(page, worker);
            marks.push(await mark(page, worker));
            gates[k - 1]?.resolve();
        }
    } finally {
        for (const gate of gates) gate.resolve();
    }
    await page.waitForFunction((n) => SillyTavern!.getContext().chat.length >= n + 2 && document.body.dataset.generating === undefined, before, { timeout: 30_000 });
    const measured: MeasuredRounds = { rounds: [], details: [] };
    const tickIds = tickCallIds(await entries(page, 0, marks.at(-1)!.page));
    for (let k = 1; k < marks.length; k += 1) {
        const pageEntries = await entries(page, marks[k - 1]!.page, marks[k]!.page);
        const workerEntries = await entries(worker!, marks[k - 1]!.worker, marks[k]!.worker);
        measured.rounds.push(accountOf(pageEntries, workerEntries, tickIds));
        measured.details.push(detailOf(pageEntries, workerEntries));
    }
    return measured;
}
