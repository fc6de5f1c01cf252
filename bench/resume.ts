// 13. Resume (issue 13): how long the next page takes to pick up a run cut off mid-way — read its journal,
// rebuild the workspace and the conversation, and send the next model request — beside a fresh run's way to
// its first request. The reliability scenario (30 tool calls) on IndexedDB in a module worker, instant model.
import type { Benchmark } from './lib/report';
import { ratioOf } from './lib/report';
import { median } from './lib/stats';

const REPEATS = 15;
/** Where the run is cut, as a share of its journal: early, half-way, and just before it finishes. */
const CUT_SHARES = [0.25, 0.5, 0.9] as const;

interface Timing {
    events: number;
    ending: string;
    toRequestMs: number | null;
    totalMs: number;
}

export const resume: Benchmark = {
    name: 'resume',
    title: '13 Resume: the next page picks up a cut-off run',
    async run({ shared, log }) {
        const bench = await shared.workerPage();
        const fresh = (): Promise<Timing> => bench.call('resumeTiming', null);
        const warm = await fresh();
        const journal = warm.events;
        const cuts = CUT_SHARES.map((share) => Math.round(journal * share));
        for (const cut of cuts) await bench.call('resumeTiming', cut);
        const samples = { freshToRequest: [] as number[], freshTotal: [] as number[], ...Object.fromEntries(cuts.flatMap((cut) => [[`toRequest${cut}`, [] as number[]], [`total${cut}`, [] as number[]]])) } as Record<string, number[]>;
        for (let i = 0; i < REPEATS; i += 1) {
            // Interleaved, so a busy moment of the shared machine slows every variant alike.
            const run = await fresh();
            if (run.ending !== 'completed' || run.toRequestMs === null) throw new Error(`uncut run ended ${run.ending}`);
            samples.freshToRequest!.push(run.toRequestMs);
            samples.freshTotal!.push(run.totalMs);
            for (const cut of cuts) {
                const resumed: Timing = await bench.call('resumeTiming', cut);
                if (resumed.ending !== 'completed' || resumed.toRequestMs === null) throw new Error(`run cut after ${cut} events: resume ended ${resumed.ending}`);
                samples[`toRequest${cut}`]!.push(resumed.toRequestMs);
                samples[`total${cut}`]!.push(resumed.totalMs);
            }
        }
        const freshToRequest = median(samples.freshToRequest!);
        const freshTotal = median(samples.freshTotal!);
        log(`  fresh run: first request ${freshToRequest.toFixed(1)} ms, whole run ${freshTotal.toFixed(1)} ms (${journal} events)`);
        const figures = cuts.flatMap((cut, i) => {
            const toRequest = median(samples[`toRequest${cut}`]!);
            const total = median(samples[`total${cut}`]!);
            log(`  cut after ${cut}: next request ${toRequest.toFixed(1)} ms, to the end ${total.toFixed(1)} ms`);
            return [
                {
                    id: `resume.to-request.${cut}`,
                    label: `Resume a run cut after ${cut} of ${journal} events (${Math.round(CUT_SHARES[i]! * 100)} %): to its next model request`,
                    value: toRequest,
                    unit: 'ms',
                    baseline: { label: 'a fresh run to its first request', value: freshToRequest },
                    ratio: ratioOf(toRequest, freshToRequest),
                },
                { id: `resume.total.${cut}`, label: '… and to the end of the run', value: total, unit: 'ms', baseline: { label: 'the whole uncut run', value: freshTotal }, ratio: ratioOf(total, freshTotal) },
            ];
        });
        return {
            figures,
            details: { repeats: REPEATS, journalEvents: journal, cuts, samples },
            notes: [
                `The reliability scenario (${journal} journal events, 30 tool calls) on IndexedDB in a module worker with an instant model; medians of ${REPEATS} interleaved repeats.`,
                'Resume time counts from the next page marking interrupted runs, through planning the resume from the journal (workspace, conversation, confirmed calls), to the resumed run\'s next model request and to its end.',
            ],
        };
    },
};
