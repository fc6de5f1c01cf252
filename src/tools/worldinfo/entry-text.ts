import { toolError } from '../../contract/errors';
import { LORE_REF_PREFIX } from '../../contract/lore';
import { planReads, rangeNote, type ReadRequest } from '../chat/read-messages';
import { failure, success, type ToolOutcome } from '../tool';

/** What every world-info tool shows of an entry; both the activation and the lorebooks in scope have it. */
export interface EntryLike {
    book: string;
    uid: number;
    title: string;
    keys: string[];
    content: string;
}

const MAX_KEYS_SHOWN = 10;
const MAX_KEY_CHARS = 40;
const MAX_TITLE_CHARS = 80;

export function entryRef(entry: { book: string; uid: number }): string {
    return `${LORE_REF_PREFIX}${entry.book}#${entry.uid}`;
}

export function oneLine(text: string, max: number): string {
    const line = text.replace(/\s+/g, ' ').trim();
    return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

export function titleOf(entry: { title: string }): string {
    const title = oneLine(entry.title, MAX_TITLE_CHARS);
    return title === '' ? '(untitled)' : JSON.stringify(title);
}

export function keysText(keys: readonly string[]): string {
    const shown = keys.map((key) => oneLine(key, MAX_KEY_CHARS)).filter((key) => key !== '');
    if (shown.length === 0) return 'no keys';
    const more = shown.length > MAX_KEYS_SHOWN ? ` (+${shown.length - MAX_KEYS_SHOWN} more)` : '';
    return `keys: ${shown.slice(0, MAX_KEYS_SHOWN).join(', ')}${more}`;
}

/** Entries by ref; the first of two entries with one ref wins (a book listed twice). */
export function entriesByRef<T extends EntryLike>(entries: readonly T[]): Map<string, T> {
    const byRef = new Map<string, T>();
    for (const entry of entries) if (!byRef.has(entryRef(entry))) byRef.set(entryRef(entry), entry);
    return byRef;
}

/** A ref as the model wrote it: with or without the "worldinfo:" prefix, spaces around it ignored. */
export function lookUp<T>(byRef: ReadonlyMap<string, T>, ref: string): T | undefined {
    const trimmed = ref.trim();
    return byRef.get(trimmed) ?? byRef.get(`${LORE_REF_PREFIX}${trimmed}`);
}

/** The requested entries in order, and the refs that name none (each once), for one not-found error. */
export function lookUpAll<T>(byRef: ReadonlyMap<string, T>, requests: ReadonlyArray<{ ref: string }>): { found: T[]; unknown: string[] } {
    const found: T[] = [];
    const unknown: string[] = [];
    for (const request of requests) {
        const entry = lookUp(byRef, request.ref);
        if (entry) found.push(entry);
        else if (!unknown.includes(request.ref)) unknown.push(request.ref);
    }
    return { found, unknown };
}

/**
 * Reads entries whole or as char ranges, under the limits of chat.read_messages (≤20 entries, ≤8000 chars
 * each, ≤20000 a call), with the codes of worldinfo.read_activated.
 */
export function readEntries(found: readonly EntryLike[], requests: ReadonlyArray<{ start_char?: number | undefined; max_chars?: number | undefined }>): ToolOutcome {
    const reads: ReadRequest[] = requests.map((request, i) => ({
        label: entryRef(found[i]!),
        length: found[i]!.content.length,
        start_char: request.start_char,
        max_chars: request.max_chars,
    }));
    const plan = planReads(reads, { one: 'entry', many: 'entries' }, (request, start, max) => JSON.stringify({ ref: request.label, start_char: start, max_chars: max }));
    if (!plan.ok) {
        return failure(toolError(plan.problem === 'invalid_range' ? 'worldinfo.invalid_range' : 'worldinfo.read_too_large', plan.message, plan.hint));
    }
    const blocks = found.map((entry, i) => {
        const read = plan.reads[i]!;
        return `=== ${entryRef(entry)} · title ${titleOf(entry)} · book ${JSON.stringify(entry.book)} · ${rangeNote(entry.content.length, read)} ===\n${entry.content.slice(read.from, read.to)}`;
    });
    const header = `${found.length} world-info entr${found.length === 1 ? 'y' : 'ies'} read, ${plan.total} chars of content. The text under each "===" line is exact.`;
    return success([header, ...blocks].join('\n\n'), {
        reads: found.map((entry, i) => ({ ref: entryRef(entry), from: plan.reads[i]!.from, to: plan.reads[i]!.to, length: entry.content.length })),
        chars: plan.total,
    });
}
