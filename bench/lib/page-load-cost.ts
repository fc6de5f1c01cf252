// A measuring aid for the end-to-end suite's time, not a figure: `node --import tsx bench/lib/page-load-cost.ts [rounds]`
// loads SillyTavern's page (lean built-ins, the extension linked, as the behaviour tests do) three ways, in turn,
// and prints each way's wall time and the CPU the whole machine spent on it (from /proc/stat, so Chromium's helper
// processes and SillyTavern's server count too; run it on a quiet machine):
// - fresh: a new browser context, as `session.open()` gives every test that needs fresh IndexedDB;
// - reload: the same page loaded again (its storage kept);
// - recycled: the same page, its origin's storage cleared first, then loaded again (fresh storage, warm process
//   and HTTP cache): what `session.open()` gives after a test's `closePage(page)` (tests/harness/recycled-pages.ts).
// The suite is CPU-bound on 2 cores, so a page load's CPU is what it costs the suite (docs/performance.md §23).
import fs from 'node:fs';
import { waitForSillyTavernReady } from '../../tests/harness/browser';
import { closePage } from '../../tests/harness/recycled-pages';
import { startTavernSession } from '../../tests/harness/tavern';

const MODES = ['fresh', 'reload', 'recycled'] as const;
type Mode = (typeof MODES)[number];

/** CPU seconds the machine has spent busy (user, nice, system, irq, softirq) since boot. */
function machineBusySeconds(): number {
    const fields = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0] = fields;
    return (user + nice + system + irq + softirq) / 100; // USER_HZ is 100 on Linux
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const rounds = Number(process.argv[2] ?? 5);
const session = await startTavernSession();
const figures = new Map<Mode, { wallMs: number[]; cpuS: number[] }>(MODES.map((mode) => [mode, { wallMs: [], cpuS: [] }]));
let opened = await session.open();
try {
    for (let round = 0; round < rounds; round++) {
        for (const mode of MODES) {
            const cpuBefore = machineBusySeconds();
            const start = Date.now();
            if (mode === 'fresh') {
                await opened.context.close();
                opened = await session.open();
            } else if (mode === 'recycled') {
                // Through the tests' own mechanism: handed back, then opened again.
                await closePage(opened.page);
                opened = await session.open();
            } else {
                await opened.page.reload({ waitUntil: 'domcontentloaded' });
                await waitForSillyTavernReady(opened.page);
            }
            figures.get(mode)!.wallMs.push(Date.now() - start);
            figures.get(mode)!.cpuS.push(machineBusySeconds() - cpuBefore);
        }
    }
} finally {
    await session.close();
}
for (const [mode, { wallMs, cpuS }] of figures) {
    console.log(
        `${mode.padEnd(8)} wall median ${median(wallMs)} ms (${wallMs.join(' ')}), CPU median ${median(cpuS).toFixed(2)} s (${cpuS.map((s) => s.toFixed(2)).join(' ')})`,
    );
}
