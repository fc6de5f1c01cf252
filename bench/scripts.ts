// 15. Scripts (issue 35): the sandbox's first script (start its worker, load and instantiate QuickJS) and a
// warm one; a tally of 50 chat searches as one program against 50 model rounds with an instant model; the
// page's long tasks meanwhile. Measured, never asserted.
import type { Benchmark } from './lib/report';
import { ratioOf } from './lib/report';
import { median } from './lib/stats';

const WARM = 21;
const SEARCHES = 50;
const REPEATS = 3;

export const scripts: Benchmark = {
    name: 'scripts',
    title: '15 Scripts',
    async run({ shared, log }) {
        const bench = await shared.workerPage();
        const starts = await bench.call('scriptStarts', WARM);
        const warm = median(starts.value.warmMs);
        log(`  first script ${starts.value.coldMs.toFixed(0)} ms, then a median ${warm.toFixed(1)} ms (${WARM} runs); long tasks on the page: ${starts.longTasks}`);
        const tallies = [];
        for (let i = 0; i < REPEATS; i += 1) tallies.push(await bench.call('tallyTwoWays', SEARCHES));
        const program = median(tallies.map((t) => t.value.programMs));
        const rounds = median(tallies.map((t) => t.value.roundsMs));
        const longTasks = Math.max(starts.longTasks, ...tallies.map((t) => t.longTasks));
        log(`  tally: one program ${program.toFixed(0)} ms, ${SEARCHES} rounds ${rounds.toFixed(0)} ms (medians of ${REPEATS}); long tasks ${tallies.map((t) => t.longTasks).join(', ')}`);
        return {
            figures: [
                { id: 'scripts.cold', label: "The sandbox's first script: start its worker, load and instantiate QuickJS, run a script that does nothing", value: starts.value.coldMs, unit: 'ms', target: '≤ 300 ms', met: starts.value.coldMs <= 300 },
                { id: 'scripts.warm', label: `… then each script (median of ${WARM})`, value: warm, unit: 'ms', target: '≤ 10 ms', met: warm <= 10 },
                {
                    id: 'scripts.tally',
                    label: `A tally of ${SEARCHES} chat_search over 2,000 messages as one script_run, the whole run through the page (2 model rounds, instant model)`,
                    value: program,
                    unit: 'ms',
                    baseline: { label: `the same ${SEARCHES} searches as ${SEARCHES} model rounds`, value: rounds },
                    ratio: ratioOf(program, rounds),
                },
                { id: 'scripts.long-tasks', label: '… long tasks (> 50 ms) on the page meanwhile (worst)', value: longTasks, unit: '', target: '0', met: longTasks === 0 },
            ],
            details: { starts: starts.value, tallies: tallies.map((t) => t.value) },
            notes: [
                `Starts: the engine's own sandbox pool (engine/scripts/sandbox-pool.ts) in the bench's module worker, dist-like (sandbox.js and quickjs.wasm beside it); the first call includes the nested worker's start, fetching and instantiating the 0.5 MB wasm, and one script; then ${WARM} more through the kept worker.`,
                `Tally: each way is a whole run of the engine through the bench page, as the extension runs it (each model request crosses to the page's instant host; IndexedDB storage), over a 2,000-message chat of ~300 characters each; ${REPEATS} of each, medians. SillyTavern's server and a real model would add their time and the whole conversation's tokens to each of the ${SEARCHES} rounds, and to 2 for the program.`,
            ],
        };
    },
};
