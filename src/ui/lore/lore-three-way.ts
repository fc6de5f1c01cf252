import type { LoreText } from '../../contract/lore';
import { loreDiff, type LoreDiffOp } from './lore-diff';

export type LoreField = 'title' | 'keys' | 'content';
const FIELDS: readonly LoreField[] = ['title', 'keys', 'content'];

/**
 * The three-way difference of an entry a proposal edits that changed since its run began (issue 39 §7):
 * `start` the entry the run captured, `now` the entry in the lorebook (null: deleted since), `proposal` the
 * text Accept would write. Accepting writes the proposal over the entry as it is now, so a field changed on
 * both sides, differently, loses the lorebook's change: those are the conflicts.
 */
export interface ThreeWay {
    deleted: boolean;
    /** Fields the lorebook changed since the run began. */
    changedSinceStart: LoreField[];
    /** Fields the proposal changes against the entry at the run's start. */
    changedByProposal: LoreField[];
    /** Fields changed on both sides, to different texts. */
    conflicts: LoreField[];
    /** Line diffs: run start → now, run start → proposal, now → proposal (what accepting does to the entry). */
    sinceStart: LoreDiffOp[];
    proposal: LoreDiffOp[];
    result: LoreDiffOp[];
}

function field(text: LoreText, name: LoreField): string {
    // Keys as one value: the list in order (a comma inside a key is rare but must not merge two lists).
    return name === 'keys' ? JSON.stringify(text.keys) : text[name];
}

export function threeWay(start: LoreText, now: LoreText | null, proposal: LoreText): ThreeWay {
    const changedByProposal = FIELDS.filter((name) => field(start, name) !== field(proposal, name));
    const changedSinceStart = now === null ? [...FIELDS] : FIELDS.filter((name) => field(start, name) !== field(now, name));
    const conflicts = now === null ? [] : changedSinceStart.filter((name) => changedByProposal.includes(name) && field(now, name) !== field(proposal, name));
    return {
        deleted: now === null,
        changedSinceStart,
        changedByProposal,
        conflicts,
        sinceStart: loreDiff(start, now),
        proposal: loreDiff(start, proposal),
        result: loreDiff(now, proposal),
    };
}
