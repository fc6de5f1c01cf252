import { diff_match_patch } from 'diff-match-patch';

const dmp = new diff_match_patch();

/** A piece of a changed line: `changed` marks what the other side does not have. */
export interface LinePart {
    changed: boolean;
    text: string;
}

/**
 * What changed within a line replaced by another: the removed line's parts and the added line's. A
 * character diff, cleaned up to whole words and phrases (diff-match-patch's semantic clean-up), so
 * Chinese, which has no spaces between words, gets the same treatment as English.
 */
export function wordDiff(removed: string, added: string): { removed: LinePart[]; added: LinePart[] } {
    const diffs = dmp.diff_main(removed, added);
    dmp.diff_cleanupSemantic(diffs);
    const before: LinePart[] = [];
    const after: LinePart[] = [];
    for (const [op, text] of diffs) {
        if (op <= 0) before.push({ changed: op < 0, text });
        if (op >= 0) after.push({ changed: op > 0, text });
    }
    return { removed: before, added: after };
}

/**
 * Pairs each run of removed lines with the run of added lines right after it, line by line, and gives
 * each pair its word-level parts; lines without a partner (or too unlike it: over half changed) stay whole.
 */
export function pairChangedLines<T extends { op: -1 | 0 | 1; text: string }>(lines: readonly T[]): Array<T & { parts?: LinePart[] }> {
    const out: Array<T & { parts?: LinePart[] }> = lines.map((line) => ({ ...line }));
    let i = 0;
    while (i < out.length) {
        if (out[i]!.op !== -1) {
            i += 1;
            continue;
        }
        let removedEnd = i;
        while (removedEnd < out.length && out[removedEnd]!.op === -1) removedEnd += 1;
        let addedEnd = removedEnd;
        while (addedEnd < out.length && out[addedEnd]!.op === 1) addedEnd += 1;
        const pairs = Math.min(removedEnd - i, addedEnd - removedEnd);
        for (let k = 0; k < pairs; k++) {
            const removed = out[i + k]!;
            const added = out[removedEnd + k]!;
            const parts = wordDiff(removed.text, added.text);
            const kept = parts.added.filter((part) => !part.changed).reduce((sum, part) => sum + part.text.length, 0);
            // Mostly rewritten: marking nearly every word says less than the whole line does.
            if (kept * 2 < Math.max(removed.text.length, added.text.length)) continue;
            removed.parts = parts.removed;
            added.parts = parts.added;
        }
        i = addedEnd;
    }
    return out;
}
