// 18. The per-round cost account (issue 41 §1) beside the time of a round: what one tool round does, counted
// exactly (tests/harness/round-account.ts, pinned by tests/e2e/round-account.test.ts), and how long a round
// takes from the spacing of model requests, panel closed and open. The counts come from a page that counts;
// the times from a page that does not (the counters read a stack per call).
import type { Page } from 'playwright-core';
import { agentOn } from '../tests/harness/agent';
import { openCharacter, openSillyTavern } from '../tests/harness/browser';
import { countEvents, countingContexts, FINISH_ROUND, LIST_FILES_ROUND, measureRounds, type RoundAccount } from '../tests/harness/round-account';
import { waitForExtension } from '../tests/harness/tavern';
import { openPanel } from './lib/agent-page';
import type { Benchmark, Figure } from './lib/report';
import { median } from './lib/stats';
import { definePageNameHelper, newChat, type BenchTavern } from './lib/tavern';
import { measureTurn } from './lib/turn';

/** Rounds counted per turn: the second is the one reported; the third shows what grows. */
const COUNTED_ROUNDS = 3;
const TIMED_ROUNDS = 5;
const TIMED_TURNS = 4;

type PanelState = 'closed' | 'open';

const LINES: ReadonlyArray<[keyof RoundAccount, string, string]> = [
    ['messagesToWorker', 'Messages page → worker', ''],
    ['bytesToWorker', '… their payload', 'B'],
    ['messagesToPage', 'Messages worker → page', ''],
    ['bytesToPage', '… their payload', 'B'],
    ['idbTransactions', 'IndexedDB transactions', ''],
    ['broadcastPosts', 'BroadcastChannel posts', ''],
    ['sillyTavernEvents', 'SillyTavern events emitted', ''],
    ['fetches', 'Fetches', ''],
    ['pageTimers', 'Timers set on the page (timeout, interval, frame)', ''],
    ['workerTimers', 'Timers set in the worker', ''],
    ['panelMutations', 'Panel: DOM mutation records', ''],
    ['panelNodes', '… distinct nodes touched', ''],
    ['badgeMutations', 'Send badge: DOM mutation records', ''],
    ['badgeNodes', '… distinct nodes touched', ''],
];

async function setPanel(page: Page, state: PanelState): Promise<void> {
    if (state === 'open') return openPanel(page);
    if (await page.locator('aside.tavern-agent').count()) await page.click('#tavern_agent_button .drawer-icon');
    await page.locator('aside.tavern-agent').waitFor({ state: 'detached' });
}

/** The account of one round (the second of a run), and what the third adds to it. */
async function countRounds(tavern: BenchTavern, state: PanelState): Promise<{ round: RoundAccount; next: RoundAccount; details: string[] }> {
    const { page, context } = await openSillyTavern(countingContexts(tavern.browser), tavern.st.url);
    try {
        await definePageNameHelper(page);
        await waitForExtension(page);
        await countEvents(page);
        await openCharacter(page);
        await newChat(page);
        await agentOn(page);
        await setPanel(page, state);
        const measured = await measureRounds(page, tavern.mock, COUNTED_ROUNDS);
        return { round: measured.rounds[1]!, next: measured.rounds[2]!, details: measured.details[1]! };
    } finally {
        await context.close().catch(() => undefined);
    }
}

/** Per-round time from the spacing of model requests at the mock, over turns of TIMED_ROUNDS instant rounds. */
async function timeRounds(page: Page, tavern: BenchTavern, state: PanelState): Promise<number[]> {
    await newChat(page);
    await agentOn(page);
    await setPanel(page, state);
    await page.waitForTimeout(150);
    tavern.mock.reset();
    tavern.mock.enqueue(...Array.from({ length: TIMED_ROUNDS }, () => LIST_FILES_ROUND), FINISH_ROUND);
    await measureTurn(page, 'Tell me about the forest.');
    const arrivals = tavern.mock.generations().map((request) => request.at);
    if (arrivals.length !== TIMED_ROUNDS + 1) throw new Error(`round-account: ${arrivals.length} model requests, expected ${TIMED_ROUNDS + 1}`);
    return arrivals.slice(1).map((at, i) => at - arrivals[i]!);
}

export const roundAccount: Benchmark = {
    name: 'round-account',
    title: '18 Per-round cost account',
    async run({ shared, log }) {
        const tavern = await shared.tavern();
        const counted = { closed: await countRounds(tavern, 'closed'), open: await countRounds(tavern, 'open') };
        log(`  counted: closed ${JSON.stringify(counted.closed.round)}, open ${JSON.stringify(counted.open.round)}`);
        const gaps: Record<PanelState, number[]> = { closed: [], open: [] };
        const { page, context } = await tavern.openChat();
        try {
            await timeRounds(page, tavern, 'closed'); // warm-up: the worker starts with the first run
            for (let turn = 0; turn < TIMED_TURNS; turn += 1) {
                for (const state of ['closed', 'open'] as const) gaps[state].push(...(await timeRounds(page, tavern, state)));
            }
        } finally {
            await context.close().catch(() => undefined);
        }
        log(`  per-round spacing: closed ${median(gaps.closed)} ms, open ${median(gaps.open)} ms`);
        const figures: Figure[] = [];
        for (const state of ['closed', 'open'] as const) {
            figures.push({ id: `round-account.time.${state}`, label: `Time per tool round, panel ${state} (spacing of model requests, median)`, value: median(gaps[state]), unit: 'ms' });
        }
        for (const [field, label, unit] of LINES) {
            for (const state of ['closed', 'open'] as const) {
                if (field.startsWith('panel') && state === 'closed') continue;
                figures.push({ id: `round-account.${field}.${state}`, label: `${label}, panel ${state}`, value: counted[state].round[field], unit });
            }
        }
        return {
            figures,
            details: { counted, gapsMs: gaps },
            notes: [
                `Counts: the second of ${COUNTED_ROUNDS} tool rounds of one workspace_list_files call, Writer profile, real SillyTavern, the mock holding each response until the page and the worker are quiet (tests/harness/round-account.ts); exact, and pinned by tests/e2e/round-account.test.ts. Per round, the model-request event grows by ${counted.closed.next.bytesToPage - counted.closed.round.bytesToPage} B (its list of part hashes) and the open panel by ${counted.open.next.panelNodes - counted.open.round.panelNodes} nodes (each drawn row's aria-setsize).`,
                `Times: a page without counters, ${TIMED_TURNS} turns of ${TIMED_ROUNDS} instant rounds per panel state, interleaved; the median gap between consecutive model requests at the mock.`,
                `What the round did, panel open: ${counted.open.details.join('; ')}`,
            ],
        };
    },
};
