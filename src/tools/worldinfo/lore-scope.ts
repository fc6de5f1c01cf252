import { toolError } from '../../contract/errors';
import type { RunLore } from '../../contract/lore';
import type { RunInput } from '../../contract/run-input';
import { failure, type ToolOutcome } from '../tool';

/** The run's frozen lorebooks, or the error every lore tool answers when the page did not capture them. */
export function runLore(input: RunInput): { ok: true; lore: RunLore } | { ok: false; outcome: ToolOutcome } {
    if (input.lore) return { ok: true, lore: input.lore };
    return {
        ok: false,
        outcome: failure(
            toolError(
                'worldinfo.activation_unavailable',
                "The lorebooks of this chat were not captured when this run started, so they cannot be searched, read or changed.",
                'Work from the prompt, worldinfo_read_activated and the chat; calling this tool again will not help in this run.',
            ),
        ),
    };
}

/** "Eldoria (character), Chat Book (chat)": the books in scope, for hints. */
export function booksText(lore: RunLore): string {
    if (lore.books.length === 0) return 'no lorebook is in scope for this chat';
    return lore.books.map((book) => `${JSON.stringify(book.name)} (${book.source})`).join(', ');
}
