import * as z from 'zod';
import { RECORD_VERSION } from './records';

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

/** Two entry texts are the same: title, keys in order, content. */
export function sameLoreText(a: LoreText, b: LoreText): boolean {
    return a.title === b.title && a.content === b.content && a.keys.length === b.keys.length && a.keys.every((key, i) => key === b.keys[i]);
}

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
    /**
     * The user saw that the entry changed since the run began and chose to accept anyway: the entry as it was
     * shown then (null: deleted). Accept goes on only while the entry is still exactly that.
     */
    acceptChanged?: { now: LoreText | null };
}

/**
 * What Accept did (issue 39 §7): wrote the proposal, or wrote nothing because the entry changed since the
 * run began; then the panel shows the three versions and lets the user accept anyway or cancel.
 */
export type LoreAcceptOutcome = { kind: 'written'; decision: LoreDecision } | { kind: 'changed'; start: LoreText; now: LoreText | null };

/**
 * One tab's claim on a pending proposal while it writes it (issue 39 §7), stored in IndexedDB and taken in one
 * transaction with the check that the run's journal has no decision for it: of two tabs, one writes.
 * `token` names the claimer; `at` when it was taken (a claim left by a closed tab goes stale).
 */
export const LoreClaimSchema = z.object({
    v: z.literal(RECORD_VERSION),
    runId: z.string().min(1),
    proposalId: z.string().min(1),
    token: z.string().min(1),
    at: z.number(),
});
export type LoreClaim = z.infer<typeof LoreClaimSchema>;

/** The answer to a claim: taken; the proposal already decided; another tab holds a fresh claim; no such proposal. */
export type LoreClaimVerdict = 'claimed' | 'decided' | 'busy' | 'not_proposed';
