import type { LoreBookSource, LoreEntry, RunLore } from '../../contract/lore';
import type { WorldInfoEntry } from '../../contract/run-input';
import { loreTextOf } from './entry-change';

/** An entry as SillyTavern's WORLDINFO_ENTRIES_LOADED event carries it (world-info.js getSortedEntries, 1.19). */
interface LoadedEntry {
    world?: unknown;
    uid?: unknown;
    comment?: unknown;
    key?: unknown;
    content?: unknown;
    disable?: unknown;
}

/** The event's lists, by where SillyTavern found each book. */
export interface LoadedLore {
    globalLore?: unknown;
    characterLore?: unknown;
    chatLore?: unknown;
    personaLore?: unknown;
}

const SOURCES: Array<[keyof LoadedLore, LoreBookSource]> = [
    ['chatLore', 'chat'],
    ['personaLore', 'persona'],
    ['characterLore', 'character'],
    ['globalLore', 'global'],
];

/** Extra books SillyTavern's scan does not load for this turn (a group's other members): name and raw entries. */
export interface ExtraBook {
    name: string;
    source: LoreBookSource;
    entries: readonly LoadedEntry[];
}

function compact(entry: LoadedEntry, book: string, activated: ReadonlySet<string>): LoreEntry {
    const uid = Number(entry.uid ?? 0);
    return { book, uid, ...loreTextOf(entry), activated: activated.has(`${book}#${uid}`) };
}

/**
 * The lorebooks in scope for a run (issue 19), from what SillyTavern's own scan loaded for this turn (so
 * its rules on which books apply and which are skipped as duplicates hold), plus extra books such as a
 * group's other members. Disabled entries are left out: the agent never finds them.
 */
export function buildRunLore(loaded: LoadedLore | null, extra: readonly ExtraBook[], chatBook: string | null, activatedEntries: readonly WorldInfoEntry[]): RunLore {
    const activated = new Set(activatedEntries.map((entry) => `${entry.book}#${entry.uid}`));
    const books: RunLore['books'] = [];
    const entries: LoreEntry[] = [];
    const seen = new Set<string>();
    const addBook = (name: string, source: LoreBookSource) => {
        if (seen.has(name)) return false;
        seen.add(name);
        books.push({ name, source });
        return true;
    };
    if (chatBook) addBook(chatBook, 'chat');
    for (const [field, source] of SOURCES) {
        const list = loaded?.[field];
        if (!Array.isArray(list)) continue;
        const own = new Set<string>();
        for (const raw of list as LoadedEntry[]) {
            const book = String(raw?.world ?? '');
            if (!book) continue;
            if (!own.has(book)) {
                own.add(book);
                addBook(book, source);
            }
            if (raw.disable === true) continue;
            entries.push(compact(raw, book, activated));
        }
    }
    for (const book of extra) {
        if (!addBook(book.name, book.source)) continue;
        for (const raw of book.entries) if (raw && raw.disable !== true) entries.push(compact(raw, book.name, activated));
    }
    return { books, chatBook, entries };
}
