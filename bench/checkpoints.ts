// 4. Checkpoints: 200 patches to a 50 KB file, stored bytes beside a full copy per checkpoint, rebuild time.
import type { Benchmark } from './lib/report';
import { ratioOf } from './lib/report';

const FILE_CHARS = 50 * 1024;
const PATCHES = 200;

export const checkpoints: Benchmark = {
    name: 'checkpoints',
    title: '4 Checkpoints',
    async run({ shared }) {
        const bench = await shared.workerPage();
        const r = await bench.call('checkpoints', { fileChars: FILE_CHARS, patches: PATCHES, rebuildRepeats: 15 });
        const ratio = ratioOf(r.storedBytes, r.fullCopyBytes);
        return {
            figures: [
                {
                    id: 'checkpoints.stored-bytes',
                    label: `Bytes stored, ${r.checkpoints} checkpoints of a 50 KB file`,
                    value: r.storedBytes / 1024,
                    unit: 'KiB',
                    baseline: { label: 'a full copy per checkpoint', value: r.fullCopyBytes / 1024 },
                    ratio,
                    target: '≤ 1/10',
                    met: ratio === null ? null : ratio <= 0.1,
                },
                {
                    id: 'checkpoints.rebuild-oldest',
                    label: 'Rebuild the oldest checkpoint (read + rebuild)',
                    value: r.oldestRebuildMs,
                    unit: 'ms',
                    target: '≤ 50 ms',
                    met: r.oldestRebuildMs <= 50,
                },
                {
                    id: 'checkpoints.rebuild-worst',
                    label: `Rebuild the farthest checkpoint (${r.worstChainLength} deltas)`,
                    value: r.worstRebuildMs,
                    unit: 'ms',
                    target: '≤ 50 ms',
                    met: r.worstRebuildMs <= 50,
                },
            ],
            details: r,
            notes: [
                `One write of ${FILE_CHARS} chars then ${PATCHES} small edits (a 40–100 char span replaced at a random place) through the real Workspace on IndexedDB in a worker. Stored bytes = UTF-8 of every checkpoint's delta or full text (${r.fullCopies} full copies: the first and every 25th).`,
                'The oldest checkpoint is a full copy, so its rebuild is one IndexedDB read; the farthest one (most deltas after a full copy) is the worst case and is shown too. Both times read the path\'s checkpoints from IndexedDB, then rebuild (median of 15).',
            ],
        };
    },
};
