// Figures in pairs against another build: `node --import tsx bench/pairs.ts --against=<checkout> [--pairs=3]
// [figure…]` runs the named figures (default chat-writes, figure 1) alternately with this working tree's
// dist/ and with the other checkout's, under this bench's code, so both builds meet the same machine
// moments and the same measure. The other checkout needs its dist/ built (`git worktree add <dir> <rev>`,
// a node_modules link, `node build.mjs` there). Prints one line per figure and pair; raw results stay in
// bench/results/pair-<this|against>-<n>.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

interface Figure {
    id: string;
    label: string;
    value: number | null;
    unit?: string;
    ratio?: number | null;
}

const root = path.resolve(import.meta.dirname, '..');
const against = process.argv.find((arg) => arg.startsWith('--against='))?.slice('--against='.length);
if (!against || !fs.existsSync(path.join(against, 'dist', 'index.js'))) {
    process.stderr.write('bench/pairs.ts: --against=<checkout with a built dist/> is required\n');
    process.exit(2);
}
const pairs = Number(process.argv.find((arg) => arg.startsWith('--pairs='))?.slice('--pairs='.length) ?? 3);
const figures = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const chosen = figures.length ? figures : ['chat-writes'];

function runOnce(side: 'this' | 'against', n: number): Figure[] {
    const out = `pair-${side}-${n}`;
    const env = { ...process.env, ...(side === 'against' ? { BENCH_EXTENSION_DIR: path.resolve(against!) } : {}) };
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'bench/run.ts', ...chosen, `--out=${out}`], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    if (run.status !== 0) throw new Error(`the ${side} run ${n} failed (exit ${run.status})`);
    const json = JSON.parse(fs.readFileSync(path.join(root, 'bench', 'results', `${out}.json`), 'utf8')) as { results: Array<{ figures: Figure[] }> };
    return json.results.flatMap((result) => result.figures);
}

const show = (figure: Figure | undefined) =>
    figure?.value == null ? '–' : `${figure.value.toFixed(1)}${figure.unit ? ` ${figure.unit}` : ''}${figure.ratio == null ? '' : ` (${figure.ratio.toFixed(3)})`}`;

const rows: string[] = [];
for (let n = 1; n <= pairs; n += 1) {
    // Alternating which goes first, so neither build always meets the warmer machine.
    const order: Array<'this' | 'against'> = n % 2 === 1 ? ['this', 'against'] : ['against', 'this'];
    const results = Object.fromEntries(order.map((side) => [side, runOnce(side, n)])) as Record<'this' | 'against', Figure[]>;
    for (const figure of results.this) {
        if (figure.value === null || figure.unit !== 'ms') continue;
        rows.push(`| ${n} | ${figure.label} | ${show(figure)} | ${show(results.against.find((other) => other.id === figure.id))} |`);
    }
}
process.stdout.write(`| pair | figure | this tree (ratio) | ${path.basename(against)} (ratio) |\n|---|---|---|---|\n${rows.join('\n')}\n`);
