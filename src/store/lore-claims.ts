import type { JournalEvent } from '../contract/events';
import type { LoreClaim, LoreClaimVerdict } from '../contract/lore';

/**
 * How long a tab's claim on a proposal holds without a decision (issue 39 §7). Accept writes one lorebook
 * through SillyTavern's server in well under this; a claim older than it was left by a tab that closed or
 * crashed mid-write, and another tab may claim the proposal again.
 */
export const LORE_CLAIM_TTL_MS = 120_000;

/** Where a proposal stands in its run's journal. */
export function proposalState(events: readonly JournalEvent[], proposalId: string): 'not_proposed' | 'pending' | 'decided' {
    let proposed = false;
    for (const event of events) {
        if (event.type === 'lore-decide' && event.payload.proposalId === proposalId) return 'decided';
        if (event.type === 'lore-propose' && event.payload.proposalId === proposalId) proposed = true;
    }
    return proposed ? 'pending' : 'not_proposed';
}

/**
 * Whether a claim taken at `at` may be stored, given the journal's state of the proposal and the claim
 * already stored for it. Storage calls this inside the one transaction that reads both and writes the claim.
 */
export function claimVerdict(state: ReturnType<typeof proposalState>, existing: LoreClaim | undefined, at: number): LoreClaimVerdict {
    if (state === 'not_proposed') return 'not_proposed';
    if (state === 'decided') return 'decided';
    if (existing && at - existing.at < LORE_CLAIM_TTL_MS) return 'busy';
    return 'claimed';
}
