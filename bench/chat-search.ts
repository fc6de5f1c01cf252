// 5. chat.search over a 10,000-message chat (about 10 MB) in the worker, beside plain lowercase indexOf scans.
import type { Benchmark } from './lib/report';
import { ratioOf } from './lib/report';
import { median } from './lib/stats';

const MESSAGES = 10_000;
const CHARS = 1_000;
const QUERIES = ['lantern', 'obsidian xylophone', 'silver moon hollow', 'the healer listened', 'harbors', 'dragon'];
const REPEATS = 9;

export const chatSearch: Benchmark = {
    name: 'chat-search',
    title: '5 chat.search',
    async run({ shared }) {
        const bench = await shared.workerPage();
        const r = await bench.call('chatSearch', { messages: MESSAGES, charsPerMessage: CHARS, queries: QUERIES, repeats: REPEATS });
        const tool = median(r.perQuery.flatMap((q) => q.tool));
        const naive = median(r.perQuery.flatMap((q) => q.naive));
        const preLowered = median(r.perQuery.flatMap((q) => q.preLowered));
        const naiveRatio = ratioOf(tool, naive);
        const preRatio = ratioOf(tool, preLowered);
        return {
            figures: [
                {
                    id: 'chat-search.median',
                    label: `chat.search median, ${MESSAGES.toLocaleString('en-US')} messages (${(r.totalChars / 1e6).toFixed(1)} M chars)`,
                    value: tool,
                    unit: 'ms',
                    baseline: { label: 'lowercase + indexOf per message', value: naive },
                    ratio: naiveRatio,
                    target: '≤ 3×',
                    met: naiveRatio === null ? null : naiveRatio <= 3,
                },
                {
                    id: 'chat-search.vs-prelowered',
                    label: 'chat.search median, beside a scan of pre-lowercased text',
                    value: tool,
                    unit: 'ms',
                    baseline: { label: 'indexOf over pre-lowercased text', value: preLowered },
                    ratio: preRatio,
                    target: '≤ 3×',
                    met: preRatio === null ? null : preRatio <= 3,
                },
                { id: 'chat-search.cold', label: 'chat.search, first search of a run (lowercases once)', value: r.coldMs, unit: 'ms' },
            ],
            details: {
                messages: r.messages,
                totalChars: r.totalChars,
                coldMs: r.coldMs,
                perQuery: r.perQuery.map((q) => ({ query: q.query, hits: q.hits, toolMs: median(q.tool), naiveMs: median(q.naive), preLoweredMs: median(q.preLowered), samples: q })),
            },
            notes: [
                `The real chat.search tool (tokenize, score, rank, 20 snippets) in a module worker over a generated ${MESSAGES}-message prefix of ~${CHARS} chars each; queries ${QUERIES.map((q) => JSON.stringify(q)).join(', ')}, ${REPEATS} times each, interleaved with the baselines; medians over all.`,
                'Baselines find the whole query as one lowercased substring per message: once lowercasing every message on each search, once over text lowercased in advance (the tool also lowercases each message once per run and keeps it).',
            ],
        };
    },
};
