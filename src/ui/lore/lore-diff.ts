import { diff_match_patch } from 'diff-match-patch';
import type { LoreText } from '../../contract/lore';

const dmp = new diff_match_patch();

/** An entry as one text for the diff: title and keys on their own lines, then the content. */
export function entryAsText(text: LoreText | null): string {
    if (!text) return '';
    return `Title: ${text.title}\nKeys: ${text.keys.join(', ')}\n\n${text.content}\n`;
}

export type LoreDiffOp = { op: -1 | 0 | 1; text: string };

/** A line diff of two entry texts (the same kind the checkpoint diff view shows); null is no entry. */
export function loreDiff(before: LoreText | null, after: LoreText | null): LoreDiffOp[] {
    const { chars1, chars2, lineArray } = dmp.diff_linesToChars_(entryAsText(before), entryAsText(after));
    const diffs = dmp.diff_main(chars1, chars2, false);
    dmp.diff_charsToLines_(diffs, lineArray);
    return diffs.map(([op, text]) => ({ op: op as -1 | 0 | 1, text }));
}

/** Keys as typed in the edit box: comma-separated, blanks dropped. */
export function parseKeys(text: string): string[] {
    return text
        .split(',')
        .map((key) => key.trim())
        .filter((key) => key !== '');
}
