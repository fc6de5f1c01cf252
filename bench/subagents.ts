// 9. Sub-agents: what one delegate + await round costs with an instant model, and whether three children
// with a 300 ms model really run at once (against the same three run one after another).
import type { Benchmark } from './lib/report';
import { ratioOf } from './lib/report';
import { median } from './lib/stats';

const REPEATS = 5;
/** Instant runs are short and noisy on a shared machine: more of them. */
const INSTANT_REPEATS = 15;
const CHILD_MS = 300;

export const subagents: Benchmark = {
    name: 'subagents',
    title: '9 Sub-agents: delegate + await, parallel children',
    async run({ shared, log }) {
        const bench = await shared.workerPage();
        const check = (what: string, result: { state: string; childRequests: number; error: string | null }, children: number) => {
            if (result.state !== 'completed' || result.childRequests !== children) {
                throw new Error(`${what}: run ${result.state} with ${result.childRequests} child request(s), expected ${children}${result.error ? ` (${result.error})` : ''}`);
            }
        };
        // Warm-up: JIT, the database, the first delegation.
        check('warm-up', await bench.call('subagentRun', 'round', 0), 1);
        const samples = { plain: [] as number[], round: [] as number[], parallel: [] as number[], serial: [] as number[] };
        for (let i = 0; i < INSTANT_REPEATS; i += 1) {
            // Interleaved, so a busy moment of the shared machine slows both variants alike.
            const plain = await bench.call('subagentRun', 'plain', 0);
            check('plain', plain, 0);
            const round = await bench.call('subagentRun', 'round', 0);
            check('round', round, 1);
            samples.plain.push(plain.ms);
            samples.round.push(round.ms);
        }
        log(`  instant: delegate + await run ${median(samples.round).toFixed(1)} ms, plain run ${median(samples.plain).toFixed(1)} ms (medians of ${INSTANT_REPEATS})`);
        for (let i = 0; i < REPEATS; i += 1) {
            const parallel = await bench.call('subagentRun', 'parallel', CHILD_MS);
            check('parallel', parallel, 3);
            const serial = await bench.call('subagentRun', 'serial', CHILD_MS);
            check('serial', serial, 3);
            samples.parallel.push(parallel.ms);
            samples.serial.push(serial.ms);
            log(`  repeat ${i + 1}/${REPEATS}: parallel ${parallel.ms.toFixed(0)} ms, serial ${serial.ms.toFixed(0)} ms`);
        }
        const round = median(samples.round);
        const plain = median(samples.plain);
        const parallel = median(samples.parallel);
        const serial = median(samples.serial);
        const ratio = ratioOf(parallel, serial);
        return {
            figures: [
                {
                    id: 'subagents.round',
                    label: 'Run with one delegate + await round, instant model',
                    value: round,
                    unit: 'ms',
                    baseline: { label: 'the same run with 2 list_files rounds instead', value: plain },
                    ratio: ratioOf(round, plain),
                },
                { id: 'subagents.round-extra', label: '… the delegate + await round beyond the plain one (the child: a model turn, task_return, its summary)', value: round - plain, unit: 'ms' },
                {
                    id: 'subagents.parallel',
                    label: `3 children, ${CHILD_MS} ms model, delegated in one turn`,
                    value: parallel,
                    unit: 'ms',
                    baseline: { label: 'the same 3 one after another', value: serial },
                    ratio,
                    target: '≤ 0.5×',
                    met: ratio === null ? null : ratio <= 0.5,
                },
            ],
            details: { repeats: REPEATS, instantRepeats: INSTANT_REPEATS, childDelayMs: CHILD_MS, samples },
            notes: [
                'The real loop (runAgent on IndexedDB) in a module worker; the host is in the worker too and answers by what each request offers: the parent (offered agent_delegate) at once from its script, a child (offered task_return) with task_return after the model delay.',
                `Round: median wall time of a run delegate → await allCompleted → write + commit + finish, its child answering at once with task_return, beside the same run with two workspace_list_files rounds instead (${INSTANT_REPEATS} interleaved repeats); the difference is what the delegation adds.`,
                `Parallel: three agent_delegate calls in one turn, then one await; serial: delegate + await three times. Each child makes one ${CHILD_MS} ms model call.`,
            ],
        };
    },
};
