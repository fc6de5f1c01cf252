// 16. Long runs (issue 38): the tokens a 40-round run with 10 KB tool results sends, with and without
// compaction, and the time compaction adds to each round. Measured, never asserted.
import type { Benchmark } from './lib/report';
import { ratioOf } from './lib/report';
import { median } from './lib/stats';

const ROUNDS = 40;
const RESULT_CHARS = 10_000;
const REPEATS = 7;
/** A 32k-token connection at the default threshold (0.6) and recent rounds (4). */
const CONTEXT = 32_000;
const BASE = { rounds: ROUNDS, resultChars: RESULT_CHARS, threshold: 0.6, keepRecentRounds: 4 };

export const longRuns: Benchmark = {
    name: 'long-runs',
    title: '16 Long runs: compaction',
    async run({ shared, log }) {
        const bench = await shared.workerPage();
        // Warm-up: JIT and the database.
        await bench.call('compactionRun', { ...BASE, rounds: 6, contextSize: CONTEXT });
        const off: Array<{ ms: number; tokensSent: number; charsSent: number }> = [];
        const checked: Array<{ ms: number }> = [];
        const on: Array<{ ms: number; tokensSent: number; charsSent: number; compactions: number }> = [];
        const variants = [
            async () => off.push(await bench.call('compactionRun', { ...BASE, contextSize: null })),
            async () => checked.push(await bench.call('compactionRun', { ...BASE, contextSize: 100_000_000 })),
            async () => on.push(await bench.call('compactionRun', { ...BASE, contextSize: CONTEXT })),
        ];
        for (let i = 0; i < REPEATS; i += 1) {
            // Interleaved and in turn first, so a busy moment of the shared machine slows every variant alike.
            for (let k = 0; k < variants.length; k += 1) await variants[(i + k) % variants.length]!();
        }
        const tokensOff = median(off.map((r) => r.tokensSent));
        const tokensOn = median(on.map((r) => r.tokensSent));
        const perRound = (runs: Array<{ ms: number }>) => median(runs.map((r) => r.ms)) / ROUNDS;
        const added = perRound(on) - perRound(off);
        const checkOnly = perRound(checked) - perRound(off);
        log(`  tokens sent: ${tokensOn.toFixed(0)} with compaction, ${tokensOff.toFixed(0)} without (${(tokensOn / tokensOff).toFixed(2)}×); ${on[0]!.compactions} compactions a run`);
        log(`  per round: ${perRound(off).toFixed(2)} ms without, ${perRound(checked).toFixed(2)} ms checking only, ${perRound(on).toFixed(2)} ms compacting`);
        return {
            figures: [
                {
                    id: 'long-runs.tokens',
                    label: `Tokens sent in a ${ROUNDS}-round run with ${RESULT_CHARS / 1000} KB tool results, compaction at 0.6 of a ${CONTEXT / 1000}k context, 4 recent rounds kept`,
                    value: tokensOn,
                    unit: 'tokens',
                    baseline: { label: 'without compaction', value: tokensOff },
                    ratio: ratioOf(tokensOn, tokensOff),
                    target: '≤ 0.4×',
                    met: tokensOn <= 0.4 * tokensOff,
                },
                { id: 'long-runs.added', label: '… time compaction adds to each round (the check, and the compactions with their copies), medians', value: added, unit: 'ms', target: '≤ 1 ms', met: added <= 1 },
                { id: 'long-runs.check', label: '… of which the check alone (a context so large it never compacts)', value: checkOnly, unit: 'ms' },
            ],
            details: { off, checked, on },
            notes: [
                `Each run is the real loop on IndexedDB in the bench's worker with an instant model: round 1 writes a ${RESULT_CHARS / 1000} KB file, rounds 2–${ROUNDS - 1} read it whole, round ${ROUNDS} commits and finishes. Tokens are the engine's estimate (about four characters a token) of every request, tool definitions included, as a host that keeps no conversation gets them (the counting's own time is taken out of the run's); ${REPEATS} runs of each, interleaved, each first in turn, medians.`,
                'Added time: the whole run per round with compaction against without. It includes the per-round size check, the compactions (stubs, the copies stored with their event) and the smaller requests that follow; a real model\'s time on the tokens saved is not in it.',
            ],
        };
    },
};
