// 10. Reliability (issues 13 and 33): scripted runs cut off at every event boundary, as a reload or a dead
// worker would, then resumed from their journal: the 30-step run of one agent, and a writer whose two
// sub-agents work at once; on the product's IndexedDB storage (fake-indexeddb in node). Counts, never
// timing targets.
import 'fake-indexeddb/auto';
import { openTavernAgentDb } from '../src/store/db';
import { createIdbRunStorage } from '../src/store/idb-run-storage';
import { cutAndResume, DELEGATING, referenceRun, SOLO, type ReliabilityScenario } from '../tests/fixtures/reliability';
import type { Benchmark } from './lib/report';

let databases = 0;
const freshStorage = async () => createIdbRunStorage(await openTavernAgentDb(`bench-reliability-${process.pid}-${(databases += 1)}`));

export const reliability: Benchmark = {
    name: 'reliability',
    title: '10 Reliability: runs cut at every event boundary, then resumed (one agent; a writer with two sub-agents)',
    async run({ log }) {
        const totals = { boundaries: 0, completed: 0, refused: 0, failed: 0, duplicated: 0, lost: 0, replayedCalls: 0 };
        const perScenario: Record<string, typeof totals> = {};
        for (const scenario of [SOLO, DELEGATING]) {
            const counts = await cutEverywhere(scenario);
            perScenario[scenario.name] = counts;
            for (const key of Object.keys(totals) as Array<keyof typeof totals>) totals[key] += counts[key];
            log(`  ${scenario.name}: ${counts.boundaries} cuts: ${counts.completed} completed, ${counts.refused} refused before anything was written, ${counts.failed} failed`);
        }
        const { boundaries, completed, refused, failed, duplicated, lost, replayedCalls } = totals;
        return {
            figures: [
                { id: 'reliability.cuts', label: `Cuts (one per event boundary: ${SOLO.name}, ${SOLO.toolCalls} tool calls; ${DELEGATING.name}, ${DELEGATING.toolCalls})`, value: boundaries, unit: '' },
                { id: 'reliability.completed', label: 'Resumed runs completed', value: completed, unit: '' },
                { id: 'reliability.refused', label: 'Refused cleanly (cut before the inputs were stored)', value: refused, unit: '' },
                { id: 'reliability.failed', label: 'Resumed runs failed', value: failed, unit: '', target: '0', met: failed === 0 },
                { id: 'reliability.duplicated', label: 'Duplicated replies', value: duplicated, unit: '', target: '0', met: duplicated === 0 },
                { id: 'reliability.lost', label: 'Lost replies', value: lost, unit: '', target: '0', met: lost === 0 },
                { id: 'reliability.replayed', label: 'Confirmed tool calls answered twice', value: replayedCalls, unit: '', target: '0', met: replayedCalls === 0 },
            ],
            details: { ...totals, perScenario },
            notes: ['Each cut stops every storage write after N journal events (the page is gone), marks the run interrupted as the next page would, then resumes it; the chat is a fake with the product commit semantics. The delegating run\'s sub-agents resume from their own journals.'],
        };
    },
};

/** One scenario cut at each of its event boundaries and resumed, counted. */
async function cutEverywhere(scenario: ReliabilityScenario) {
    const reference = await referenceRun(await freshStorage(), undefined, scenario);
    const expected = reference.chat[1]?.mes ?? null;
    const counts = { boundaries: reference.events.length, completed: 0, refused: 0, failed: 0, duplicated: 0, lost: 0, replayedCalls: 0 };
    for (let limit = 0; limit < counts.boundaries; limit += 1) {
        const result = await cutAndResume(await freshStorage(), limit, scenario);
        if (result.ending === 'completed') counts.completed += 1;
        else if (result.ending === 'refused') counts.refused += 1;
        else counts.failed += 1;
        if (result.replies > 1) counts.duplicated += 1;
        if (result.ending === 'completed' && (result.replies === 0 || result.replyText !== expected)) counts.lost += 1;
        // A provider call answered twice (its result journaled under two run call ids) was run again after a cut.
        const providerIds = new Map(result.events.flatMap((e) => (e.type === 'tool-call-start' ? [[e.payload.callId, e.payload.providerCallId ?? e.payload.callId] as const] : [])));
        const answered = result.events.flatMap((e) => (e.type === 'tool-call-complete' || e.type === 'tool-call-fail' ? [providerIds.get(e.payload.callId)] : []));
        counts.replayedCalls += answered.length - new Set(answered).size;
    }
    return counts;
}
