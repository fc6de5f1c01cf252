// 8. Skills: skill.search over a 5 MB skill in the worker beside a lowercase indexOf scan, and importing a
// 1,000-file zip (unzip, checks, hashing in the worker) with the long tasks it causes on the main thread.
import type { Benchmark } from './lib/report';
import { ratioOf } from './lib/report';
import { median } from './lib/stats';

const CHARS = 5_000_000;
const FILES = 10;
const QUERIES = ['lantern', 'obsidian xylophone', 'silver moon hollow', 'the healer listened', 'harbors', 'dragon'];
const REPEATS = 9;
const ZIP_FILES = 1_000;
const ZIP_CHARS_PER_FILE = 2_000;
const IMPORT_REPEATS = 5;

export const skills: Benchmark = {
    name: 'skills',
    title: '8 Skills',
    async run({ shared, log }) {
        const bench = await shared.workerPage();
        const search = await bench.call('skillSearch', { chars: CHARS, files: FILES, queries: QUERIES, repeats: REPEATS });
        const tool = median(search.perQuery.flatMap((q) => q.tool));
        const naive = median(search.perQuery.flatMap((q) => q.naive));
        const ratio = ratioOf(tool, naive);
        log(`  skill.search median ${tool.toFixed(1)} ms, lowercase + indexOf ${naive.toFixed(1)} ms`);
        const imported = await bench.call('skillImport', { files: ZIP_FILES, charsPerFile: ZIP_CHARS_PER_FILE, repeats: IMPORT_REPEATS });
        const importMs = median(imported.samples.map((s) => s.ms));
        const longTasks = Math.max(...imported.samples.map((s) => s.longTasks));
        log(`  1,000-file zip: ${importMs.toFixed(0)} ms, long tasks on the page ${imported.samples.map((s) => `${s.longTasks} (${s.longTaskMs.toFixed(0)} ms)`).join(', ')}`);
        return {
            figures: [
                {
                    id: 'skills.search.median',
                    label: `skill.search median, one skill of ${(search.totalChars / 1e6).toFixed(1)} M chars in ${FILES} files`,
                    value: tool,
                    unit: 'ms',
                    baseline: { label: 'lowercase + indexOf over the same text', value: naive },
                    ratio,
                    target: '≤ 3×',
                    met: ratio === null ? null : ratio <= 3,
                },
                { id: 'skills.search.cold', label: 'skill.search, first search of a run (lowercases once)', value: search.coldMs, unit: 'ms' },
                { id: 'skills.import.median', label: `Import a ${ZIP_FILES.toLocaleString('en-US')}-file skill zip (${(imported.zipBytes / 1024).toFixed(0)} KiB) in the worker`, value: importMs, unit: 'ms' },
                { id: 'skills.import.long-tasks', label: '… long tasks (> 50 ms) on the main thread meanwhile (worst of the runs)', value: longTasks, unit: '', target: '0', met: longTasks === 0 },
            ],
            details: {
                search: { totalChars: search.totalChars, coldMs: search.coldMs, perQuery: search.perQuery.map((q) => ({ query: q.query, hits: q.hits, toolMs: median(q.tool), naiveMs: median(q.naive), samples: q })) },
                import: imported,
            },
            notes: [
                `skill.search: the real tool in a module worker over a generated skill (SKILL.md + ${FILES} reference files of ~${CHARS / FILES / 1000} K chars in ~100-char lines), queries ${QUERIES.map((q) => JSON.stringify(q)).join(', ')}, ${REPEATS} times each, interleaved with the baseline (lowercase each file, then count every indexOf of the whole query); medians over all. The tool lowercases each file once per run (the cold figure includes that) and ranks, numbers and renders 20 hits with 2 lines of context.`,
                `Import: the page hands a ${ZIP_FILES}-file zip (${ZIP_CHARS_PER_FILE} chars a file) to the engine's parseSkills, as the extension does; the worker reads the central directory, checks every entry, inflates, decodes, hashes (SHA-256) and normalizes. Long tasks: the page's Long Tasks API over each of ${IMPORT_REPEATS} imports (times ${imported.samples.map((s) => s.ms.toFixed(0)).join(', ')} ms).`,
            ],
        };
    },
};
