/**
 * MVU's `[initvar]` lore entries (design note §3.4): which entries they are, and how much of them the page
 * hands the worker. The page picks them out; the worker parses them (initvar.ts), so no YAML parser loads on
 * the page.
 */
export const INITVAR_LIMITS = { entries: 20, entryChars: 50_000 } as const;

/** Whether a lore entry's comment marks it as MVU's initial values. */
export function isInitvarComment(comment: unknown): boolean {
    return typeof comment === 'string' && /\[initvar\]/i.test(comment);
}
