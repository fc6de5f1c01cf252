// Combines whole bench runs into one table: each figure is the median of its per-run values (each of which
// is already a median of interleaved repeats), with the range seen and how many runs met the target.
// `node --import tsx bench/combine.ts bench/results/run-1.json bench/results/run-2.json bench/results/run-3.json`
// `--json=bench/summary.json` also writes the summary that is committed: the table, the machines and each
// figure's per-run values, without the raw samples (bench/results/ holds those and is git-ignored).
import fs from 'node:fs';
import type { MachineInfo } from './lib/machine';
import type { BenchResult, Figure } from './lib/report';
import { median, round } from './lib/stats';

interface RunFile {
    machine: MachineInfo;
    machineLine: string;
    totalMs: number;
    results: BenchResult[];
}

function show(value: number | null, unit: string): string {
    if (value === null || !Number.isFinite(value)) return 'n/a';
    const number = round(value).toLocaleString('en-US', { maximumFractionDigits: 3 });
    return unit ? `${number} ${unit}` : number;
}

function showRatio(ratio: number | null): string {
    if (ratio === null || !Number.isFinite(ratio)) return '';
    return ratio >= 0.1 || ratio <= 0 ? `${round(ratio)}×` : `1/${Math.round(1 / ratio)}`;
}

const finite = (values: Array<number | null | undefined>): number[] => values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
const escape = (text: string) => text.replace(/\|/g, '\\|');

function combine(runs: RunFile[]): string {
    const lines = [`| # | Figure | Tavern Agent (median of ${runs.length} runs) | Range over the runs | Baseline | Ratio | Target | Met |`, '|---|---|---|---|---|---|---|---|'];
    const first = runs[0]!;
    for (const result of first.results) {
        const number = result.title.split(' ')[0];
        for (const figure of result.figures) {
            const same: Figure[] = runs.flatMap((run) => run.results.find((r) => r.name === result.name)?.figures.filter((f) => f.id === figure.id) ?? []);
            const values = finite(same.map((f) => f.value));
            const baselines = finite(same.map((f) => f.baseline?.value));
            const ratios = finite(same.map((f) => f.ratio));
            const value = values.length ? median(values) : null;
            const range = values.length > 1 && Math.min(...values) !== Math.max(...values) ? `${show(Math.min(...values), figure.unit)} – ${show(Math.max(...values), figure.unit)}` : '';
            const baseline = figure.baseline && baselines.length ? `${show(median(baselines), figure.baseline.unit ?? figure.unit)} (${figure.baseline.label})` : '';
            const judged = same.filter((f) => f.met === true || f.met === false);
            const met = figure.target ? (judged.length ? `${judged.filter((f) => f.met).length} of ${judged.length}` : 'n/a') : '';
            lines.push(`| ${number} | ${escape(figure.label)} | ${show(value, figure.unit)} | ${range} | ${escape(baseline)} | ${showRatio(ratios.length ? median(ratios) : null)} | ${escape(figure.target ?? '')} | ${met} |`);
        }
    }
    return lines.join('\n');
}

/** What docs/performance.md cites: small enough to commit (the raw runs are several hundred KiB each). */
function summary(runs: RunFile[], runLines: string[], table: string) {
    return {
        description: 'npm run bench, whole runs combined by bench/combine.ts: the median of the per-run values, their range, and how many runs met each target',
        runs: runs.map((run, i) => ({ line: runLines[i], machine: run.machine, totalMs: run.totalMs })),
        table,
        figures: runs[0]!.results.flatMap((result) =>
            result.figures.map((figure) => {
                const same = runs.map((run) => run.results.find((r) => r.name === result.name)?.figures.find((f) => f.id === figure.id));
                return {
                    benchmark: result.name,
                    id: figure.id,
                    label: figure.label,
                    unit: figure.unit,
                    values: same.map((f) => f?.value ?? null),
                    baseline: figure.baseline ? { label: figure.baseline.label, unit: figure.baseline.unit ?? figure.unit, values: same.map((f) => f?.baseline?.value ?? null) } : undefined,
                    ratios: figure.baseline ? same.map((f) => f?.ratio ?? null) : undefined,
                    target: figure.target,
                    met: figure.target ? same.map((f) => f?.met ?? null) : undefined,
                };
            }),
        ),
        skipped: runs.flatMap((run, i) => run.results.filter((r) => r.skipped).map((r) => ({ run: i + 1, benchmark: r.name, why: r.skipped }))),
    };
}

const args = process.argv.slice(2);
const jsonOut = args.find((arg) => arg.startsWith('--json='))?.slice('--json='.length);
const files = args.filter((arg) => !arg.startsWith('--'));
if (files.length === 0) {
    process.stderr.write('usage: node --import tsx bench/combine.ts [--json=SUMMARY.json] RUN.json [RUN.json …]\n');
    process.exit(2);
}
const runs = files.map((file) => JSON.parse(fs.readFileSync(file, 'utf8')) as RunFile);
const runLines = runs.map((run, i) => `Run ${i + 1}: ${run.machineLine}`);
const table = combine(runs);
process.stdout.write(`${runLines.join('\n')}\n\n${table}\n`);
if (jsonOut) fs.writeFileSync(jsonOut, `${JSON.stringify(summary(runs, runLines, table), null, 2)}\n`);
