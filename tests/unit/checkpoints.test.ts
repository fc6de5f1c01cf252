// Unit tests of checkpoint deltas: exact rebuilds over a long edit history, periodic full copies, size; and the
// same history stored and read back through each storage kind.
// Run: node --import tsx --test tests/unit/checkpoints.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CheckpointRecord } from '../../src/contract/records';
import { DIFF_LIMITS, FULL_COPY_EVERY, lineDiff, makeCheckpoint, rebuildCheckpoint } from '../../src/workspace/checkpoints';
import { storeCheckpoint, suitesPerStorageKind } from '../fixtures/storage-kinds';
import { journalEvent } from '../fixtures/journal-events';

const perStorageKind = suitesPerStorageKind();

/** mulberry32: a small deterministic PRNG, so every run of the test makes the same edits. */
function prng(seed: number): () => number {
    let a = seed >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}

const WORDS = [
    'the', 'dragon', 'slept', 'beneath', 'mountain', 'Alice', 'poured', 'ale', 'for', 'Bob', 'while', 'rain',
    'fell', 'on', 'inn', 'roof', 'and', 'a', 'lantern', 'flickered', '龙', '在', '山下', '沉睡', 'こんにちは', 'café',
    'naïve', '—', '"quoted"', 'line,', 'end.', '100%', 'a+b', '#hash', '[link]', '~tilde',
];

function makeWriter(random: () => number) {
    const int = (n: number) => Math.floor(random() * n);
    const words = (n: number) => Array.from({ length: n }, () => WORDS[int(WORDS.length)]!).join(' ');
    const paragraph = () => `${words(5 + int(20))}.\n`;
    /** One random edit: insert, delete, replace, or append a paragraph; the text stays around its size. */
    const edit = (text: string): string => {
        const at = int(text.length + 1);
        switch (int(4)) {
            case 0:
                return text.slice(0, at) + words(1 + int(8)) + ' ' + text.slice(at);
            case 1: {
                const len = 1 + int(200);
                return text.slice(0, at) + text.slice(at + len);
            }
            case 2: {
                const len = 1 + int(60);
                return text.slice(0, at) + words(1 + int(6)) + text.slice(at + len);
            }
            default:
                return text + paragraph();
        }
    };
    return { paragraph, edit };
}

const bytes = (text: string | null) => (text === null ? 0 : Buffer.byteLength(text, 'utf8'));

function shuffled<T>(items: readonly T[], random: () => number): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i -= 1) {
        const j = Math.floor(random() * (i + 1));
        [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
}

/** Checkpoints of one path over a list of versions, as the workspace makes them. */
function checkpointsOf(versions: readonly string[], path = 'output/main.md'): CheckpointRecord[] {
    return versions.map((next, i) =>
        makeCheckpoint({ runId: 'run-cp', seq: i, path, previous: i === 0 ? null : versions[i - 1]!, next, indexForPath: i, at: 1000 + i }),
    );
}

describe('checkpoints over a long edit history', () => {
    const random = prng(20240501);
    const writer = makeWriter(random);
    let initial = '';
    while (initial.length < 50_000) initial += writer.paragraph();
    const versions = [initial];
    for (let i = 0; i < 200; i += 1) versions.push(writer.edit(versions.at(-1)!));
    const records = checkpointsOf(versions);

    it('works on a text of about 50 KB with 200 distinct edits', () => {
        assert.ok(initial.length >= 50_000 && initial.length < 51_000, `initial length ${initial.length}`);
        assert.equal(records.length, 201);
        assert.ok(versions.every((v) => v.length > 40_000 && v.length < 70_000));
        const changed = versions.slice(1).filter((v, i) => v !== versions[i]).length;
        assert.ok(changed >= 195, `only ${changed} edits changed the text`);
    });

    it('stores a full copy exactly at the first checkpoint and every FULL_COPY_EVERY-th, deltas otherwise', () => {
        assert.ok(FULL_COPY_EVERY > 1);
        records.forEach((record, i) => {
            const full = i % FULL_COPY_EVERY === 0;
            assert.equal(record.full !== null, full, `checkpoint ${i}`);
            assert.equal(record.delta === null, full, `checkpoint ${i}`);
            if (full) assert.equal(record.full, versions[i]);
            assert.equal(record.path, 'output/main.md');
            assert.equal(record.seq, i);
            assert.equal(record.runId, 'run-cp');
        });
        assert.equal(records.filter((r) => r.full !== null).length, Math.floor(200 / FULL_COPY_EVERY) + 1);
    });

    it('rebuilds every version exactly, from checkpoints in any order', () => {
        const mixed = shuffled(records, prng(7));
        for (let seq = 0; seq < versions.length; seq += 1) {
            const rebuilt = rebuildCheckpoint(mixed, seq);
            if (rebuilt !== versions[seq]) assert.fail(`checkpoint ${seq} rebuilds to ${rebuilt.length} chars, expected ${versions[seq]!.length}`);
        }
    });

    it('keeps the total stored size well under a tenth of one full copy per checkpoint', () => {
        const stored = records.reduce((sum, r) => sum + bytes(r.delta) + bytes(r.full), 0);
        const fullCopies = versions.reduce((sum, v) => sum + bytes(v), 0);
        const ratio = stored / fullCopies;
        console.log(
            `checkpoints: ${records.length} versions of ~${Math.round(bytes(initial) / 1024)} KB; stored ${stored} bytes vs ${fullCopies} as full copies; ratio ${ratio.toFixed(4)}`,
        );
        assert.ok(ratio < 0.1, `ratio ${ratio}`);
        // Each delta is small next to the file: a few hundred characters of change, not a copy.
        const deltas = records.filter((r) => r.delta !== null).map((r) => bytes(r.delta));
        assert.ok(Math.max(...deltas) < bytes(initial) / 20, `largest delta ${Math.max(...deltas)} bytes`);
    });
});

describe('rebuildCheckpoint', () => {
    it('rebuilds a chain that starts from an empty file and ends empty', () => {
        const versions = ['', 'Hello', 'Hello, world\n', 'Hello, world\nsecond line\n', ''];
        const records = checkpointsOf(versions);
        versions.forEach((v, seq) => assert.equal(rebuildCheckpoint(records, seq), v));
    });

    it('rebuilds only from the checkpoints of the requested seq and earlier', () => {
        const versions = ['one\n', 'one\ntwo\n', 'one\ntwo\nthree\n'];
        const records = checkpointsOf(versions);
        assert.equal(rebuildCheckpoint(records, 1), 'one\ntwo\n');
    });

    it('throws for a seq that is not in the chain, and for a chain without a full copy', () => {
        const versions = ['a', 'ab', 'abc'];
        const records = checkpointsOf(versions);
        assert.throws(() => rebuildCheckpoint(records, 3), /No checkpoint 3/);
        assert.throws(() => rebuildCheckpoint([], 0), /No checkpoint 0/);
        assert.throws(() => rebuildCheckpoint(records.slice(1), 2), /no full copy/);
    });

    it('rebuilds a text edited between emoji that share a surrogate half', () => {
        const versions = ['Alice smiles 😀 at Bob.', 'Alice smiles 😃 at Bob.', 'Alice grins 😄👍 at Bob.'];
        const records = checkpointsOf(versions);
        versions.forEach((v, seq) => assert.equal(rebuildCheckpoint(records, seq), v));
    });

    it('rebuilds text with emoji added or removed whole', () => {
        const versions = ['Alice smiles at Bob.', 'Alice smiles 😀 at Bob.', 'Alice smiles at Bob. 🐉', '龙在山下沉睡。🐉'];
        const records = checkpointsOf(versions);
        versions.forEach((v, seq) => assert.equal(rebuildCheckpoint(records, seq), v));
    });
});

describe('lineDiff', () => {
    const before = (ops: Array<{ op: number; text: string }>) => ops.filter((o) => o.op !== 1).map((o) => o.text).join('');
    const after = (ops: Array<{ op: number; text: string }>) => ops.filter((o) => o.op !== -1).map((o) => o.text).join('');

    it('gives whole-line ops for a one-line change', () => {
        assert.deepEqual(lineDiff('a\nb\nc\n', 'a\nB\nc\n'), [
            { op: 0, text: 'a\n' },
            { op: -1, text: 'b\n' },
            { op: 1, text: 'B\n' },
            { op: 0, text: 'c\n' },
        ]);
        assert.deepEqual(lineDiff('same\n', 'same\n'), [{ op: 0, text: 'same\n' }]);
        assert.deepEqual(lineDiff('', 'new\n'), [{ op: 1, text: 'new\n' }]);
        assert.deepEqual(lineDiff('old\n', ''), [{ op: -1, text: 'old\n' }]);
    });

    it('reassembles both texts from its ops over random edits', () => {
        const random = prng(99);
        const writer = makeWriter(random);
        let text = '';
        for (let i = 0; i < 40; i += 1) text += writer.paragraph();
        for (let i = 0; i < 60; i += 1) {
            const next = writer.edit(text);
            const ops = lineDiff(text, next);
            assert.ok(ops, 'within the bounds');
            assert.equal(before(ops), text, `edit ${i}: before`);
            assert.equal(after(ops), next, `edit ${i}: after`);
            for (const op of ops) {
                assert.ok([-1, 0, 1].includes(op.op));
                assert.ok(op.text.length > 0);
            }
            // Line-level: every op but one at the very end of a text ends on a line break.
            for (const op of ops.slice(0, -1)) {
                if (op.op === 0) assert.ok(op.text.endsWith('\n'), `edit ${i}: unchanged op does not end a line: ${JSON.stringify(op.text.slice(-20))}`);
            }
            text = next;
        }
    });
});

describe('bounded diffs (issue 39 §2)', () => {
    it('past its bounds (size, or thousands of scattered changes) a diff is not made: the caller shows the text', () => {
        assert.equal(lineDiff('x'.repeat(600_000), 'y'.repeat(600_000)), null);
        const lines = Array.from({ length: 5000 }, (_, i) => `line ${i}\n`);
        const scattered = lines.map((line, i) => (i % 2 ? `changed ${i}\n` : line));
        // 2,500 changed blocks: refused, or (when the half-second runs out first, on a loaded machine) a coarser
        // diff within the bound. Never more than the bound.
        const ops = lineDiff(lines.join(''), scattered.join(''));
        assert.ok(ops === null || ops.filter((op) => op.op !== 0).length <= DIFF_LIMITS.maxHunks);
        assert.ok(lineDiff(lines.join(''), lines.join('').replace('line 7\n', 'line seven\n')));
    });
});

perStorageKind.describe('checkpoints stored and read back', () => {
    const random = prng(424242);
    const writer = makeWriter(random);
    let initial = '';
    while (initial.length < 5_000) initial += writer.paragraph();
    const versions = [initial];
    for (let i = 0; i < 60; i += 1) versions.push(writer.edit(versions.at(-1)!));
    const records = checkpointsOf(versions);

    it('lists them by seq, whatever order they were stored in, and every version rebuilds from the list', async () => {
        const storage = perStorageKind.newStorage();
        const shuffledRecords = shuffled(records, prng(3));
        // Half as the workspace stores them (with the journal event that records them), half on their own.
        for (const [i, record] of shuffledRecords.entries()) {
            if (i % 2 === 0) await storeCheckpoint(storage, record);
            else await storage.appendEvent(journalEvent(record.runId, record.seq, 'checkpoint', { seq: record.seq, path: record.path, version: 0, full: record.full !== null }, record.at), { checkpoints: [record] });
        }
        const other = makeCheckpoint({ runId: 'run-cp', seq: 1000, path: 'scratch/other.md', previous: null, next: 'other', indexForPath: 0, at: 1 });
        await storeCheckpoint(storage, other);
        const listed = await storage.listCheckpoints('run-cp', 'output/main.md');
        assert.deepEqual(listed.map((r) => r.seq), records.map((r) => r.seq));
        assert.deepEqual(listed, records, 'stored and read back unchanged');
        for (let seq = 0; seq < versions.length; seq += 1) {
            if (rebuildCheckpoint(listed, seq) !== versions[seq]) assert.fail(`checkpoint ${seq} does not rebuild from storage`);
        }
        assert.deepEqual((await storage.listCheckpoints('run-cp')).map((r) => r.seq), [...records.map((r) => r.seq), 1000]);
    });
});
