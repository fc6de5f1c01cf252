import { newId } from '../../contract/new-id';
import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { sameLoreText, type LoreEntry, type LoreProposal, type LoreText } from '../../contract/lore';
import { aliasOf, defineTool, failure, success } from '../tool';
import { entriesByRef, entryRef, lookUp, titleOf } from './entry-text';
import { booksText, runLore } from './lore-scope';

const MAX_CONTENT_CHARS = 20_000;
const MAX_KEYS = 50;

const args = z.object({
    ref: z.string().min(1).optional().describe('To change an existing entry: its ref "worldinfo:<book>#<uid>" (from worldinfo_search). Leave out for a new entry.'),
    title: z.string().max(200).optional().describe('The entry title. Required for a new entry; for an edit, leave out to keep the title.'),
    content: z.string().min(1).max(MAX_CONTENT_CHARS).describe('The whole new content of the entry (not a patch).'),
    keys: z.array(z.string().min(1).max(200)).max(MAX_KEYS).optional().describe('Trigger keywords. For an edit, leave out to keep the keys; for a new entry, give the words that should activate it.'),
    reason: z.string().max(2000).optional().describe('One or two sentences for the user: what changed in the story that this records.'),
    book: z
        .string()
        .min(1)
        .optional()
        .describe("Write into this lorebook in scope instead of the chat's own; only when the agent's profile allows editing other books. Default: the chat's lorebook."),
});

export const worldInfoProposeTool = defineTool({
    name: 'worldinfo.propose',
    alias: aliasOf('worldinfo.propose'),
    description: [
        'Proposes a lore change for the user to review: an edit of an entry (ref) or a new entry (title), with its whole new content and optional keys and reason.',
        'Nothing is written now: the user sees a diff in the panel and accepts, edits or discards it. Proposals go to the chat\'s own lorebook (an edit of another book\'s entry becomes this chat\'s own version of it), so story changes stay in this story.',
        'Use it to record what the story changed ("the bridge was destroyed"), not to restate lore that still holds.',
    ].join(' '),
    args,
    readOnly: false,
    async execute(input, { input: runInput, journal }) {
        const scope = runLore(runInput);
        if (!scope.ok) return scope.outcome;
        const { lore } = scope;
        if (input.ref === undefined && (input.title === undefined || input.title.trim() === '')) {
            return failure(toolError('tool.invalid_arguments', 'A proposal needs a ref (to change an entry) or a title (for a new entry).', 'Send ref from worldinfo_search to edit an entry, or title + keys + content for a new one.'));
        }
        let source: LoreEntry | undefined;
        if (input.ref !== undefined) {
            source = lookUp(entriesByRef(lore.entries), input.ref);
            if (!source) {
                return failure(
                    toolError(
                        'worldinfo.entry_not_found',
                        `No enabled entry ${JSON.stringify(input.ref)} in this chat's lorebooks.`,
                        'Find the ref with worldinfo_search, or leave ref out and give a title to propose a new entry.',
                    ),
                );
            }
        }
        const chatBook = lore.chatBook;
        if (input.book !== undefined && input.book !== chatBook) {
            if (!lore.books.some((book) => book.name === input.book)) {
                return failure(toolError('tool.invalid_arguments', `No lorebook ${JSON.stringify(input.book)} is in scope for this chat.`, `Books in scope: ${booksText(lore)}. Leave book out to use the chat's lorebook.`));
            }
            if (!runInput.profile.lore.editOtherBooks) {
                return failure(
                    toolError(
                        'worldinfo.proposal_denied',
                        `This agent's profile does not allow changing the lorebook ${JSON.stringify(input.book)}; only the chat's own lorebook.`,
                        "Leave book out: the change goes to the chat's lorebook (for an entry of another book, as this chat's own version of it).",
                    ),
                );
            }
        }
        const targetBook = input.book ?? chatBook;
        // An entry is changed in place only in its own book; anywhere else the proposal is a new entry there.
        const inPlace = source !== undefined && targetBook !== null && source.book === targetBook;
        const before: LoreText | null = source ? { title: source.title, keys: [...source.keys], content: source.content } : null;
        const after: LoreText = {
            title: input.title?.trim() || source?.title || '',
            keys: (input.keys ?? source?.keys ?? []).map((key) => key.trim()).filter((key) => key !== ''),
            content: input.content,
        };
        if (before && sameLoreText(before, after)) {
            return failure(toolError('tool.invalid_arguments', `The proposal is the same as ${entryRef(source!)} already is.`, 'Send the changed content (or title / keys), or nothing if the entry still holds.'));
        }
        if (!journal) throw new Error('worldinfo.propose needs the run journal in its tool context.');
        const proposal: LoreProposal = {
            proposalId: `lore-${newId()}`,
            ref: source ? entryRef(source) : null,
            target: { book: targetBook, uid: inPlace ? source!.uid : null },
            before,
            after,
            reason: input.reason?.trim() || null,
        };
        await journal.append('lore-propose', proposal);
        const where = targetBook === null ? "the chat's lorebook (created for this chat on accept)" : `the lorebook ${JSON.stringify(targetBook)}${targetBook === chatBook ? " (this chat's own)" : ''}`;
        const what = source
            ? inPlace
                ? `an edit of ${entryRef(source)} ${titleOf(source)}`
                : `this chat's own version of ${entryRef(source)} ${titleOf(source)} (the original is left as it is)`
            : `a new entry ${titleOf(after)}`;
        return success(
            `Proposal ${proposal.proposalId} recorded: ${what}, to be written to ${where} if the user accepts it in the panel. Nothing is written yet, and this run does not see the change: do not assume it was accepted.`,
            { proposalId: proposal.proposalId, target: proposal.target, ref: proposal.ref },
        );
    },
});
