/**
 * The time one search call may take (issue 39): a search over a huge chat, lorebook or workspace stops here
 * and returns what it found so far, saying what it did not search, instead of holding the run (and, in a
 * program, the other calls) for as long as the corpus is large.
 */
export const SEARCH_MAX_MS = 2_000;

export interface SearchDeadline {
    /** Whether the time is up; checked between items (messages, entries, files), never inside one. */
    passed(): boolean;
}

export function searchDeadline(ms: number = SEARCH_MAX_MS): SearchDeadline {
    const end = Date.now() + ms;
    return { passed: () => Date.now() >= end };
}

/** What the model is told when the time was up: what was searched, and how to reach the rest. */
export function timeCutNote(searched: string, narrow: string): string {
    return ` The search stopped after ${SEARCH_MAX_MS / 1000} s: it covered ${searched}. ${narrow}`;
}
