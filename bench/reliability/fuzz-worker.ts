// The worker side of bench/reliability-fuzz.ts: fuzzed tool calls over every tool, through the engine's
// own Dispatcher (prepare + execute, as a run does), on the product's IndexedDB storage in a real browser.
import { RECOVERABLE_CODES } from '../../src/contract/errors';
import { Dispatcher } from '../../src/engine/agents/dispatch';
import { Budget } from '../../src/engine/agents/budget';
import { Journal } from '../../src/engine/journal/journal';
import { openTavernAgentDb } from '../../src/store/db';
import { createIdbRunStorage } from '../../src/store/idb-run-storage';
import { ALL_TOOLS } from '../../src/tools/registry';
import type { RunControls, ToolContext } from '../../src/tools/tool';
import { DEFAULT_ROOT_POLICY } from '../../src/workspace/roots';
import { Workspace } from '../../src/workspace/workspace';
import { GAME_MASTER_PROFILE } from '../../src/contract/profile';
import { noSkills, sampleRunInput } from '../../tests/fixtures/run-input';

/** A small seeded PRNG (mulberry32): the same seed gives the same calls. */
function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = Math.imul(a ^ (a >>> 15), 1 | a);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const STRINGS = [
    '', 'output/main.md', 'scratch/a.md', 'scratch', 'persist/notes.md', 'plan/p.md', '../etc/passwd', '/abs', 'output//x', 'output/./x', 'output/../../x',
    'input/prompt.json', 'tool-results/x', 'C:\\win', '\u0000', '\ud800', '💥'.repeat(50), 'a'.repeat(5000), 'e', 'the', '<script>alert(1)</script>', '1d20', '2d6+3', '999999d999999',
    'd', '1d0', 'writer', 'researcher', 'task-1', 'chat:current#0', 'workspace:output/main.md#L1-L2', '\n', ' ', 'replace', 'append', 'all',
];

function value(random: () => number, depth = 0): unknown {
    const pick = random();
    if (pick < 0.4) return STRINGS[Math.floor(random() * STRINGS.length)];
    if (pick < 0.6) return [0, 1, -1, 2, 50, 1e9, -1e9, 3.5, Number.MAX_SAFE_INTEGER, 1e-9][Math.floor(random() * 10)];
    if (pick < 0.68) return random() < 0.5;
    if (pick < 0.74) return null;
    if (pick < 0.87 && depth < 2) return Array.from({ length: Math.floor(random() * 4) }, () => value(random, depth + 1));
    if (depth < 2) return { index: value(random, depth + 1), start_char: value(random, depth + 1), path: value(random, depth + 1) };
    return undefined;
}

/** The keys the tool's zod object declares (zod 4: `.shape`), to aim most calls at real fields. */
function keysOf(schema: unknown): string[] {
    const shape = (schema as { shape?: Record<string, unknown> } | undefined)?.shape;
    return shape ? Object.keys(shape) : [];
}

function argumentsText(random: () => number, keys: string[]): string {
    const roll = random();
    if (roll < 0.05) return '{not json';
    if (roll < 0.08) return '';
    if (roll < 0.1) return JSON.stringify(value(random));
    const args: Record<string, unknown> = {};
    for (const key of keys) if (random() < 0.75) args[key] = value(random);
    if (random() < 0.1) args[STRINGS[Math.floor(random() * STRINGS.length)]!] = value(random);
    return JSON.stringify(args);
}

export interface FuzzReport {
    calls: number;
    ok: number;
    coded: number;
    uncoded: number;
    /** Throws that escaped the dispatcher (only a RunFailure may, when storage or the host fails). */
    uncaught: number;
    /** Tools that threw inside the safety net (coded tool.execution_failed, but a tool bug). */
    toolThrows: number;
    perTool: Record<string, number>;
    samples: string[];
    durationMs: number;
}

export async function fuzz(total: number, seed: number, onProgress: (done: number) => void = () => undefined): Promise<FuzzReport> {
    const random = prng(seed);
    const db = await openTavernAgentDb(`fuzz-${seed}-${Date.now()}`);
    const storage = createIdbRunStorage(db);
    const profile = { ...GAME_MASTER_PROFILE, tools: { ...GAME_MASTER_PROFILE.tools, allow: ['*'], maxCallsPerRun: 2000, maxRounds: 500 } };
    const input = sampleRunInput({ profile });
    const coded = new Set<string>(RECOVERABLE_CODES);
    const report: FuzzReport = { calls: 0, ok: 0, coded: 0, uncoded: 0, uncaught: 0, toolThrows: 0, perTool: {}, samples: [], durationMs: 0 };
    const started = performance.now();
    const names = [...ALL_TOOLS.flatMap((tool) => [tool.alias, tool.name]), 'made_up_tool', ''];
    let run = 0;
    let dispatcher!: Dispatcher;
    let context!: ToolContext;
    for (let i = 0; i < total; i += 1) {
        // A fresh run every 500 calls, so budgets and files do not saturate.
        if (i % 500 === 0) {
            run += 1;
            const runId = `fuzz-run-${run}`;
            const journal = new Journal(runId, storage, () => undefined);
            const workspace = new Workspace(runId, DEFAULT_ROOT_POLICY, storage, journal);
            const controls: RunControls = { foreground: true, hasCommitted: () => false, commit: async () => ({ messageId: 1 }), finish: () => undefined };
            dispatcher = new Dispatcher(ALL_TOOLS, profile, new Budget(profile.tools));
            context = { input: { ...input, runId }, workspace, run: controls, skills: noSkills(), signal: new AbortController().signal };
        }
        if (i % 100 === 0) onProgress(i);
        const name = names[Math.floor(random() * names.length)]!;
        const tool = ALL_TOOLS.find((t) => t.alias === name || t.name === name);
        const call = { id: `c${i}`, name, argumentsText: argumentsText(random, keysOf(tool?.args)) };
        report.calls += 1;
        report.perTool[tool?.name ?? '(unknown)'] = (report.perTool[tool?.name ?? '(unknown)'] ?? 0) + 1;
        try {
            const outcome = await dispatcher.execute(dispatcher.prepare(call, false), context);
            if (outcome.ok) report.ok += 1;
            else if (coded.has(outcome.error.code)) {
                report.coded += 1;
                if (outcome.error.code === 'tool.execution_failed') {
                    report.toolThrows += 1;
                    if (report.samples.length < 10) report.samples.push(`${call.name} ${call.argumentsText.slice(0, 120)} → ${outcome.error.message.slice(0, 160)}`);
                }
            } else {
                report.uncoded += 1;
                if (report.samples.length < 10) report.samples.push(`uncoded ${outcome.error.code}`);
            }
        } catch (error) {
            report.uncaught += 1;
            if (report.samples.length < 10) report.samples.push(`uncaught ${call.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
    }
    report.durationMs = Math.round(performance.now() - started);
    db.close();
    return report;
}


// Only in the browser's worker (node imports this file to debug the fuzz itself).
if (typeof (globalThis as { WorkerGlobalScope?: unknown }).WorkerGlobalScope !== 'undefined') startWorker();

function startWorker(): void {
let uncaughtInWorker = 0;
self.addEventListener('error', () => void (uncaughtInWorker += 1));
self.addEventListener('unhandledrejection', () => void (uncaughtInWorker += 1));

self.onmessage = async (event: MessageEvent<{ total: number; seed: number }>) => {
    const report = await fuzz(event.data.total, event.data.seed);
    report.uncaught += uncaughtInWorker;
    self.postMessage(report);
};
}
