// 14. The pipeline's own overhead on a turn (issue 34): a director before SillyTavern's own reply, against
// SillyTavern's plain Send, in real SillyTavern with the instant mock model. Everything but model time: the
// turn's wall time (Send clicked → SillyTavern idle again) less the time its model requests were in flight
// at the mock. Both kinds interleaved on one page; the director runs with 1 round, then 3.
import type { Page } from 'playwright-core';
import { call, calls } from '../tests/harness/agent';
import type { MockTurn, RecordedRequest } from '../tests/harness/mock-model';
import { slash } from '../tests/harness/tavern';
import { ratioOf, type Benchmark } from './lib/report';
import { median } from './lib/stats';
import { newChat, type BenchTavern } from './lib/tavern';
import { measureTurn } from './lib/turn';

const REPEATS = 7;
const REPLY = 'The road north climbs into the pines, and the lanterns end at the last farm.';
const BRIEF = '- The user asks about the road north.\n- Keep Seraphina gentle; mention the lanterns.';
const DIRECTOR_ROUNDS = [1, 3] as const;
const TARGET = 1.2;

const offersTools = (request: RecordedRequest) => Array.isArray(request.body?.tools) && request.body.tools.length > 0;

/** A director's run of `rounds` model turns: read-only rounds first (as it looks things up), then its brief and finish. */
function directorScript(rounds: number): MockTurn[] {
    const lookUps = Array.from({ length: rounds - 1 }, () => calls(call('workspace_list_files', {})));
    return [...lookUps, calls(call('workspace_write_file', { path: 'output/brief.md', content: BRIEF }), call('workspace_finish', {}))];
}

interface TurnSample {
    wallMs: number;
    modelMs: number;
    overheadMs: number;
    toolRequests: number;
}

async function measure(page: Page, tavern: BenchTavern, rounds: number | null): Promise<TurnSample> {
    const { mock } = tavern;
    await slash(page, rounds === null ? '/agent off' : '/agent on');
    mock.reset();
    mock.route({ when: (request) => !offersTools(request), turns: [{ text: REPLY }], repeat: true });
    if (rounds !== null) mock.route({ when: offersTools, turns: directorScript(rounds) });
    const turn = await measureTurn(page, 'What lies north?');
    const requests = mock.generations();
    await mock.waitUntil(() => requests.every((request) => request.endedAt !== undefined), 'every model request answered');
    const plain = requests.filter((request) => !offersTools(request));
    const tools = requests.length - plain.length;
    const last = await page.evaluate(() => SillyTavern!.getContext().chat.at(-1)?.mes ?? '');
    if (plain.length !== 1 || last !== REPLY || tools !== (rounds ?? 0)) {
        throw new Error(`turn with ${rounds ?? 'no'} director rounds: ${plain.length} plain and ${tools} tool requests, last message ${JSON.stringify(last.slice(0, 60))}`);
    }
    if (rounds !== null && !JSON.stringify(plain[0]!.body.messages).includes('mention the lanterns')) throw new Error('the brief did not reach the plain request');
    const modelMs = requests.reduce((sum, request) => sum + (request.endedAt! - request.at), 0);
    return { wallMs: turn.wallMs, modelMs, overheadMs: turn.wallMs - modelMs, toolRequests: tools };
}

export const pipelineTurn: Benchmark = {
    name: 'pipeline-turn',
    title: "14 A director before SillyTavern's own reply: the pipeline's overhead on a turn",
    async run({ shared, log }) {
        const tavern = await shared.tavern();
        const { page, context } = await tavern.openChat();
        try {
            await newChat(page);
            await slash(page, '/agent on');
            const set = await slash(page, '/agent pipeline before=director reply=sillytavern');
            if (!set.startsWith('{')) throw new Error(`the pipeline was not set: ${set}`);
            const samples: Record<string, TurnSample[]> = { plain: [], ...Object.fromEntries(DIRECTOR_ROUNDS.map((n) => [`director${n}`, []])) };
            // Warm-up: the worker starts on the first agent run; SillyTavern's tokenizer caches fill.
            await measure(page, tavern, null);
            await measure(page, tavern, 1);
            for (let i = 0; i < REPEATS; i += 1) {
                samples.plain!.push(await measure(page, tavern, null));
                for (const rounds of DIRECTOR_ROUNDS) samples[`director${rounds}`]!.push(await measure(page, tavern, rounds));
                log(`  repeat ${i + 1}/${REPEATS}: ${Object.entries(samples).map(([kind, list]) => `${kind} ${list.at(-1)!.overheadMs.toFixed(0)} ms`).join(', ')}`);
            }
            const overhead = (kind: string) => median(samples[kind]!.map((sample) => sample.overheadMs));
            const plain = overhead('plain');
            const one = overhead('director1');
            const three = overhead('director3');
            const ratio1 = ratioOf(one, plain);
            const ratio3 = ratioOf(three, plain);
            return {
                figures: [
                    {
                        id: 'pipeline-turn.overhead.rounds=1',
                        label: "Turn with a 1-round director, then SillyTavern's reply: all but model time",
                        value: one,
                        unit: 'ms',
                        baseline: { label: "SillyTavern's plain Send, same chat", value: plain },
                        ratio: ratio1,
                        target: `≤ ${TARGET}×`,
                        met: ratio1 === null ? null : ratio1 <= TARGET,
                    },
                    {
                        id: 'pipeline-turn.overhead.rounds=3',
                        label: '… with a 3-round director (2 look-up rounds, then its brief)',
                        value: three,
                        unit: 'ms',
                        baseline: { label: "SillyTavern's plain Send, same chat", value: plain },
                        ratio: ratio3,
                    },
                    { id: 'pipeline-turn.per-round', label: "… each round of the director's beyond its first", value: (three - one) / 2, unit: 'ms' },
                    { id: 'pipeline-turn.model', label: '… model time left out (1-round director turn: both requests at the mock)', value: median(samples.director1!.map((s) => s.modelMs)), unit: 'ms' },
                ],
                details: { repeats: REPEATS, directorRounds: DIRECTOR_ROUNDS, samples },
                notes: [
                    `Real SillyTavern, the instant mock model, one page and chat (Agent Mode switched per turn). Each turn: Send clicked → SillyTavern idle again (page clock), less the time each model request was in flight at the mock (its arrival to its answer sent). Baseline: Agent Mode off, SillyTavern's own Send (one plain request). Pipeline: \`before=director reply=sillytavern\`; the director's run (its input frozen by a dry run of SillyTavern's prompt assembly, its journal in IndexedDB, its model requests through SillyTavern's backend), its brief stored on the user message and injected into SillyTavern's own generation, which then runs as in the baseline. ${REPEATS} interleaved repeats after one warm-up of each; medians.`,
                ],
            };
        } finally {
            await context.close().catch(() => undefined);
        }
    },
};
