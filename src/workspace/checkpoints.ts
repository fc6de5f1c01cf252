import { diff_match_patch } from 'diff-match-patch';
import { RECORD_VERSION, type CheckpointRecord } from '../contract/records';

/** A full copy every this many checkpoints of one path bounds how many deltas a rebuild applies. */
export const FULL_COPY_EVERY = 25;

const dmp = new diff_match_patch();

/**
 * Rebuilding applies our own deltas, which always match exactly where they were made: no fuzzy matching
 * (its bitap search over a large text is what let a crafted checkpoint keep the worker busy for minutes).
 */
const strict = new diff_match_patch();
strict.Match_Threshold = 0;
strict.Match_Distance = 0;
strict.Patch_DeleteThreshold = 0;

/** The most deltas one rebuild applies: a chain longer than this since its full copy is refused as corrupt. */
export const MAX_DELTAS_PER_REBUILD = FULL_COPY_EVERY * 2;

/**
 * Makes the checkpoint record for a new version of a file: a diff-match-patch delta against the previous
 * checkpoint of the same path (so long runs stay small), or a full copy for the first checkpoint and every
 * FULL_COPY_EVERY-th one.
 */
export function makeCheckpoint(opts: {
    runId: string;
    seq: number;
    path: string;
    previous: string | null;
    next: string;
    indexForPath: number;
    at: number;
}): CheckpointRecord {
    const full = opts.previous === null || opts.indexForPath % FULL_COPY_EVERY === 0;
    const delta = full ? null : deltaText(opts.previous!, opts.next);
    return {
        v: RECORD_VERSION,
        runId: opts.runId,
        seq: opts.seq,
        path: opts.path,
        delta,
        full: delta === null ? opts.next : null,
        at: opts.at,
    };
}

/**
 * The delta as text, or null when diff-match-patch cannot encode it: its character diff may split a
 * surrogate pair (two emoji sharing a first half), and its URI encoding then throws. A full copy is
 * always correct, so that checkpoint simply stores one.
 */
function deltaText(previous: string, next: string): string | null {
    try {
        return dmp.patch_toText(dmp.patch_make(previous, next));
    } catch {
        return null;
    }
}

/**
 * Rebuilds the text of `path` as of checkpoint `seq` from the checkpoints of that path (any order): start
 * at the newest full copy at or before it, then apply the deltas after it in order.
 */
export function rebuildCheckpoint(checkpoints: readonly CheckpointRecord[], seq: number): string {
    const chain = checkpoints.filter((c) => c.seq <= seq).sort((a, b) => a.seq - b.seq);
    if (chain.length === 0 || chain.at(-1)!.seq !== seq) throw new Error(`No checkpoint ${seq} in this chain.`);
    let start = chain.length - 1;
    while (start > 0 && chain[start]!.full === null) start -= 1;
    const base = chain[start]!;
    if (base.full === null) throw new Error(`Checkpoint chain of ${base.path} has no full copy.`);
    let text = base.full;
    const deltas = chain.slice(start + 1);
    if (deltas.length > MAX_DELTAS_PER_REBUILD) throw new Error(`Checkpoint ${seq} of ${base.path} is ${deltas.length} deltas from a full copy (at most ${MAX_DELTAS_PER_REBUILD}).`);
    for (const checkpoint of deltas) {
        const [patched, applied] = strict.patch_apply(strict.patch_fromText(checkpoint.delta ?? ''), text);
        if (applied.some((ok) => !ok)) throw new Error(`Checkpoint ${checkpoint.seq} of ${checkpoint.path} does not apply.`);
        text = patched;
    }
    return text;
}

/**
 * What a line diff for the timeline may cost (issue 39 §2): texts of at most DIFF_MAX_CHARS together, at most
 * DIFF_MAX_HUNKS changed blocks, half a second of diffing. An imported run can hold any text.
 */
export const DIFF_LIMITS = { maxChars: 1_000_000, maxHunks: 2_000, seconds: 0.5 } as const;

const bounded = new diff_match_patch();
bounded.Diff_Timeout = DIFF_LIMITS.seconds;

/**
 * A unified-style line diff for the timeline, built from the same library; null past DIFF_LIMITS (the caller
 * shows the text instead).
 */
export function lineDiff(before: string, after: string): Array<{ op: -1 | 0 | 1; text: string }> | null {
    if (before.length + after.length > DIFF_LIMITS.maxChars) return null;
    const { chars1, chars2, lineArray } = bounded.diff_linesToChars_(before, after);
    const diffs = bounded.diff_main(chars1, chars2, false);
    if (diffs.filter(([op]) => op !== 0).length > DIFF_LIMITS.maxHunks) return null;
    bounded.diff_charsToLines_(diffs, lineArray);
    return diffs.map(([op, text]) => ({ op: op as -1 | 0 | 1, text }));
}
