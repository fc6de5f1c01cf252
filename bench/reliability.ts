// 10. Reliability (issue 13): the scripted 30-step run (writes, patches, commits, finish) cut off at every
// event boundary, as a reload or a dead worker would, then resumed from its journal; on the product's
// IndexedDB storage (fake-indexeddb in node). Counts, never timing targets.
import 'fake-indexeddb/auto';
import { openTavernAgentDb } from '../src/store/db';
import { createIdbRunStorage } from '../src/store/idb-run-storage';
import { cutAndResume, referenceRun, SCRIPTED_TOOL_CALLS } from '../tests/fixtures/reliability';
import type { Benchmark } from './lib/report';

let databases = 0;
const freshStorage = async () => createIdbRunStorage(await openTavernAgentDb(`bench-reliability-${process.pid}-${(databases += 1)}`));

export const reliability: Benchmark = {
    name: 'reliability',
    title: '10 Reliability: a 30-step run cut at every event boundary, then resumed',
    async run({ log }) {
        const reference = await referenceRun(await freshStorage());
        const expected = reference.chat[1]?.mes ?? null;
        const boundaries = reference.events.length;
        let completed = 0;
        let refused = 0;
        let failed = 0;
        let duplicated = 0;
        let lost = 0;
        let replayedCalls = 0;
        for (let limit = 0; limit < boundaries; limit += 1) {
            const result = await cutAndResume(await freshStorage(), limit);
            if (result.ending === 'completed') completed += 1;
            else if (result.ending === 'refused') refused += 1;
            else failed += 1;
            if (result.replies > 1) duplicated += 1;
            if (result.ending === 'completed' && (result.replies === 0 || result.replyText !== expected)) lost += 1;
            const answered = result.events.filter((e) => e.type === 'tool-call-complete' || e.type === 'tool-call-fail').map((e) => (e.payload as { callId: string }).callId);
            replayedCalls += answered.length - new Set(answered).size;
        }
        log(`  ${boundaries} cuts: ${completed} completed, ${refused} refused before anything was written, ${failed} failed`);
        return {
            figures: [
                { id: 'reliability.cuts', label: `Cuts (one per event boundary, ${SCRIPTED_TOOL_CALLS} tool calls)`, value: boundaries, unit: '' },
                { id: 'reliability.completed', label: 'Resumed runs completed', value: completed, unit: '' },
                { id: 'reliability.refused', label: 'Refused cleanly (cut before the inputs were stored)', value: refused, unit: '' },
                { id: 'reliability.failed', label: 'Resumed runs failed', value: failed, unit: '', target: '0', met: failed === 0 },
                { id: 'reliability.duplicated', label: 'Duplicated replies', value: duplicated, unit: '', target: '0', met: duplicated === 0 },
                { id: 'reliability.lost', label: 'Lost replies', value: lost, unit: '', target: '0', met: lost === 0 },
                { id: 'reliability.replayed', label: 'Confirmed tool calls answered twice', value: replayedCalls, unit: '', target: '0', met: replayedCalls === 0 },
            ],
            details: { boundaries, completed, refused, failed, duplicated, lost, replayedCalls },
            notes: ['Each cut stops every storage write after N journal events (the page is gone), marks the run interrupted as the next page would, then resumes it; the chat is a fake with the product commit semantics.'],
        };
    },
};
