// `npm run bench` runs every figure; `npm run bench -- checkpoints chat-search` runs just those.
// Prints one Markdown table (stdout) and writes bench/results/latest.json with the machine it ran on
// (`--out=run-1` writes bench/results/run-1.json instead; bench/combine.ts joins several whole runs).
// Speed is never asserted: the bench only measures and reports.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chatSearch } from './chat-search';
import { chatWrites } from './chat-writes';
import { checkpoints } from './checkpoints';
import { eventLatency } from './event-latency';
import { loopOverhead } from './loop-overhead';
import { machineInfo, machineLine } from './lib/machine';
import { mainThread } from './main-thread';
import { markdownTable, notesText, type Benchmark, type BenchResult } from './lib/report';
import { Shared } from './lib/shared';
import { skills } from './skills';
import { timelineScroll } from './timeline-scroll';
import { subagents } from './subagents';
import { reliability } from './reliability';
import { resume } from './resume';
import { workerHeap } from './worker-heap';
import { bigChatSend } from './big-chat-send';
import { pipelineTurn } from './pipeline-turn';
import { scripts } from './scripts';
import { longRuns } from './long-runs';
import { cardPayload } from './card-payload';
import { roundAccount } from './round-account';
import { memoryBuild } from './memory-build';

const BENCHMARKS: readonly Benchmark[] = [chatWrites, eventLatency, loopOverhead, checkpoints, chatSearch, mainThread, timelineScroll, skills, subagents, reliability, workerHeap, bigChatSend, resume, pipelineTurn, scripts, longRuns, cardPayload, roundAccount, memoryBuild];
const RESULTS_DIR = path.join(import.meta.dirname, 'results');

function log(message: string): void {
    process.stderr.write(`${message}\n`);
}

async function main(): Promise<void> {
    const asked = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
    const unknown = asked.filter((name) => !BENCHMARKS.some((b) => b.name === name));
    if (unknown.length) {
        log(`Unknown benchmark(s): ${unknown.join(', ')}. Known: ${BENCHMARKS.map((b) => b.name).join(', ')}.`);
        process.exit(2);
    }
    const chosen = asked.length ? BENCHMARKS.filter((b) => asked.includes(b.name)) : BENCHMARKS;
    const startInfo = machineInfo(null);
    const shared = new Shared();
    const results: BenchResult[] = [];
    const started = Date.now();
    try {
        for (const benchmark of chosen) {
            log(`▶ ${benchmark.title}`);
            const t0 = Date.now();
            try {
                const outcome = await benchmark.run({ log, shared });
                results.push({ name: benchmark.name, title: benchmark.title, ...outcome, durationMs: Date.now() - t0 });
            } catch (error) {
                const message = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
                log(`  ✗ ${benchmark.name} failed: ${message}`);
                results.push({ name: benchmark.name, title: benchmark.title, figures: [], details: { error: message }, notes: [], skipped: `failed: ${message.split('\n')[0]}`, durationMs: Date.now() - t0 });
            }
            log(`  done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
        }
    } finally {
        const chromium = await shared.chromiumVersion().catch(() => null);
        await shared.close();
        const machine = { ...startInfo, chromium, loadAverage1mAtEnd: Math.round(os.loadavg()[0]! * 100) / 100 };
        const table = markdownTable(results);
        const notes = notesText(results);
        process.stdout.write(`\nTavern Agent bench — ${machineLine(machine)}\n\n${table}\n\n${notes}\n\nTotal ${((Date.now() - started) / 1000).toFixed(0)} s.\n`);
        fs.mkdirSync(RESULTS_DIR, { recursive: true });
        const out = process.argv.find((arg) => arg.startsWith('--out='))?.slice('--out='.length);
        const file = path.join(RESULTS_DIR, out ? `${path.basename(out, '.json')}.json` : asked.length ? `partial-${asked.join('+')}.json` : 'latest.json');
        fs.writeFileSync(file, `${JSON.stringify({ machine, machineLine: machineLine(machine), totalMs: Date.now() - started, table, results }, null, 2)}\n`);
        log(`Wrote ${path.relative(process.cwd(), file)}`);
    }
}

await main();
