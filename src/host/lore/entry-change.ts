import { sameLoreText, type LoreProposal, type LoreText } from '../../contract/lore';
import type { WorldInfoData } from '../sillytavern/world-info-module';

/** An entry's title, keys and content as SillyTavern stores them (`comment`, `key`, `content`), read as the run's capture reads them. */
export function loreTextOf(entry: { comment?: unknown; key?: unknown; content?: unknown }): LoreText {
    return {
        title: typeof entry.comment === 'string' ? entry.comment : '',
        keys: Array.isArray(entry.key) ? entry.key.map(String).filter((key) => key.trim() !== '') : [],
        content: typeof entry.content === 'string' ? entry.content : '',
    };
}

/**
 * Whether the entry a proposal edits in place changed since its run began (issue 39 §7): the entry in the
 * target book as it is now (`book`, read fresh; null when the book is gone) against the one the run captured
 * at its start (the proposal's `before`). null when it did not, or when the proposal edits no existing entry
 * (a new entry, this chat's own version of another book's, a book gone: the write says so); else the entry
 * now, null when it was deleted.
 */
export function entryChange(book: WorldInfoData | null, proposal: LoreProposal): { now: LoreText | null } | null {
    const { uid } = proposal.target;
    if (proposal.target.book === null || uid === null || proposal.before === null || !book) return null;
    const entry = book.entries[String(uid)];
    const now = entry ? loreTextOf({ comment: entry.comment, key: entry.key, content: entry.content }) : null;
    return now && sameLoreText(now, proposal.before) ? null : { now };
}

/** The user accepted the change as shown: the entry is still exactly what they saw (both deleted counts too). */
export function sameAsShown(shown: { now: LoreText | null } | undefined, change: { now: LoreText | null }): boolean {
    if (!shown) return false;
    if (shown.now === null || change.now === null) return shown.now === change.now;
    return sameLoreText(shown.now, change.now);
}
