// The worker's heap after a 200-round run (issue 17: measured, no target yet).
import type { Benchmark } from './lib/report';
import { workerHeapBytes } from './lib/worker-heap';

const ROUNDS = 200;
const MB = 1024 * 1024;

export const workerHeap: Benchmark = {
    name: 'worker-heap',
    title: '11 Worker heap after a 200-round run',
    async run({ shared, log }) {
        const bench = await shared.workerPage();
        await bench.call('timedRun', 2);
        const before = await workerHeapBytes(bench.page);
        const run = await bench.call('timedRun', ROUNDS);
        if (run.state !== 'completed') throw new Error(`bench run ended ${run.state}`);
        const after = await workerHeapBytes(bench.page);
        if (before.length === 0 || after.length === 0) throw new Error('no worker found over CDP');
        // The bench page runs one worker (the engine); take the largest in case of helpers.
        const [b, a] = [Math.max(...before), Math.max(...after)];
        log(`  heap before ${(b / MB).toFixed(2)} MB, after ${ROUNDS} rounds ${(a / MB).toFixed(2)} MB (run ${run.wallMs.toFixed(0)} ms, ${run.events} events)`);
        return {
            figures: [
                { id: 'worker-heap.after', label: `Worker heap after a ${ROUNDS}-round run (after GC)`, value: a / MB, unit: 'MB', baseline: { label: 'before the run, same worker', value: b / MB, unit: 'MB' } },
            ],
            details: { rounds: ROUNDS, beforeBytes: before, afterBytes: after, runMs: run.wallMs, events: run.events },
            notes: [
                `The real engine in the bench's module worker (IndexedDB storage, comlink host on the page that keeps the conversation), one run of ${ROUNDS} rounds of one workspace_list_files call, instant scripted model. Heap = CDP Runtime.getHeapUsage usedSize on the worker target after HeapProfiler.collectGarbage, before and after the run (performance.measureUserAgentSpecificMemory needs cross-origin isolation).`,
            ],
        };
    },
};
