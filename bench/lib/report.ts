import type { Shared } from './shared';
import { round } from './stats';

/** One line of the table: a measured figure, what it is compared with, and the target it is held to. */
export interface Figure {
    /** Stable key in the JSON, e.g. "chat-writes.saves.agent.N=5". */
    id: string;
    label: string;
    value: number | null;
    unit: string;
    baseline?: { label: string; value: number | null; unit?: string };
    /** value / baseline.value, when a baseline exists. */
    ratio?: number | null;
    target?: string;
    /** null: no target, or not measurable in this run. */
    met?: boolean | null;
}

export interface BenchResult {
    name: string;
    title: string;
    figures: Figure[];
    /** Raw samples and counts, for the JSON only. */
    details: Record<string, unknown>;
    /** What was counted and how, and why a target is missed: printed under the table. */
    notes: string[];
    /** Set when the benchmark could not run (e.g. the UI it measures does not exist yet). */
    skipped?: string;
    durationMs: number;
}

export interface Benchmark {
    name: string;
    title: string;
    run(ctx: BenchContext): Promise<Omit<BenchResult, 'name' | 'title' | 'durationMs'>>;
}

export interface BenchContext {
    /** Prints a progress line to stderr (the table goes to stdout). */
    log(message: string): void;
    shared: Shared;
}

export function ratioOf(value: number | null, baseline: number | null): number | null {
    if (value === null || baseline === null || !Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return null;
    return value / baseline;
}

function show(value: number | null, unit: string): string {
    if (value === null || !Number.isFinite(value)) return 'n/a';
    const number = round(value).toLocaleString('en-US', { maximumFractionDigits: 3 });
    return unit ? `${number} ${unit}` : number;
}

function showRatio(ratio: number | null | undefined): string {
    if (ratio === undefined) return '';
    if (ratio === null || !Number.isFinite(ratio)) return 'n/a';
    return ratio >= 0.1 || ratio <= 0 ? `${round(ratio)}×` : `1/${Math.round(1 / ratio)}`;
}

function showMet(met: boolean | null | undefined): string {
    if (met === undefined || met === null) return '';
    return met ? 'yes' : '**no**';
}

const escape = (text: string) => text.replace(/\|/g, '\\|');

/** A Markdown table: readable in a terminal and pasted as is into the README. */
export function markdownTable(results: readonly BenchResult[]): string {
    const lines = ['| # | Figure | Tavern Agent | Baseline | Ratio | Target | Met |', '|---|---|---|---|---|---|---|'];
    results.forEach((result) => {
        const number = result.title.split(' ')[0];
        if (result.skipped) {
            lines.push(`| ${number} | ${escape(result.title.slice(number!.length + 1))}: not measured | | | | | |`);
            return;
        }
        for (const f of result.figures) {
            const baseline = f.baseline ? `${show(f.baseline.value, f.baseline.unit ?? f.unit)} (${f.baseline.label})` : '';
            lines.push(
                `| ${number} | ${escape(f.label)} | ${show(f.value, f.unit)} | ${escape(baseline)} | ${showRatio(f.ratio)} | ${escape(f.target ?? '')} | ${showMet(f.met)} |`,
            );
        }
    });
    return lines.join('\n');
}

export function notesText(results: readonly BenchResult[]): string {
    const lines: string[] = [];
    for (const result of results) {
        const notes = result.skipped ? [`Not measured: ${result.skipped}`, ...result.notes] : result.notes;
        if (notes.length === 0) continue;
        lines.push(`${result.title}:`);
        for (const note of notes) lines.push(`  - ${note}`);
    }
    return lines.join('\n');
}
