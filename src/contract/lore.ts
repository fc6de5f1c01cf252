import * as z from 'zod';

/**
 * The lorebooks in scope for a run (issue 19, SPEC §9), frozen at its start like the chat: every enabled
 * entry of the character's primary and additional books, the chat's lorebook, the persona's, the global
 * selection, and in a group every member's. Only what the lore tools need, so the input stays compact.
 */
export const LoreBookSourceSchema = z.enum(['character', 'chat', 'persona', 'global', 'member']);
export type LoreBookSource = z.infer<typeof LoreBookSourceSchema>;

export const LoreEntrySchema = z.object({
    book: z.string(),
    uid: z.number().int(),
    /** The entry's `comment` in SillyTavern ("Title/Memo" in its editor). */
    title: z.string(),
    keys: z.array(z.string()),
    content: z.string(),
    /** SillyTavern activated it for this run's turn. */
    activated: z.boolean(),
});
export type LoreEntry = z.infer<typeof LoreEntrySchema>;

export const RunLoreSchema = z.object({
    books: z.array(z.object({ name: z.string(), source: LoreBookSourceSchema })),
    /** The chat's own lorebook at run start; null when the chat has none yet (Accept creates and binds it). */
    chatBook: z.string().nullable(),
    entries: z.array(LoreEntrySchema),
});
export type RunLore = z.infer<typeof RunLoreSchema>;

export const LORE_REF_PREFIX = 'worldinfo:';

export function loreRef(entry: { book: string; uid: number }): string {
    return `${LORE_REF_PREFIX}${entry.book}#${entry.uid}`;
}

/** An entry's text as a proposal shows and writes it. */
export const LoreTextSchema = z.object({ title: z.string(), keys: z.array(z.string()), content: z.string() });
export type LoreText = z.infer<typeof LoreTextSchema>;

/**
 * A lore change the agent proposed (`worldinfo.propose`); nothing is written until the user accepts it.
 * `target.book` null: the chat's lorebook, created and bound to the chat on Accept. `target.uid` null: a new
 * entry. `before` is the entry the proposal changes (null for a new one), kept here so the diff can be shown
 * after the run without the run's input.
 */
export const LoreProposalSchema = z.object({
    proposalId: z.string().min(1),
    ref: z.string().nullable(),
    target: z.object({ book: z.string().nullable(), uid: z.number().int().nullable() }),
    before: LoreTextSchema.nullable(),
    after: LoreTextSchema,
    reason: z.string().nullable(),
});
export type LoreProposal = z.infer<typeof LoreProposalSchema>;

/** The user's answer to a proposal, journaled in the proposal's run; `written` says where an accepted one went. */
export const LoreDecisionSchema = z.object({
    proposalId: z.string().min(1),
    decision: z.enum(['accepted', 'discarded']),
    /** The text written (the proposal's, or the user's edit of it); null when discarded. */
    text: LoreTextSchema.nullable(),
    edited: z.boolean(),
    written: z.object({ book: z.string(), uid: z.number().int(), created: z.boolean() }).nullable(),
});
export type LoreDecision = z.infer<typeof LoreDecisionSchema>;

/** What the panel asks the host to write when the user accepts a proposal. */
export interface LoreAcceptRequest {
    runId: string;
    /** The run's chat key: a proposal is written only while its chat is open (its lorebook is that chat's). */
    chatKey: string;
    proposal: LoreProposal;
    /** The text to write: the proposal's, or the user's edit of it. */
    text: LoreText;
    edited: boolean;
}
