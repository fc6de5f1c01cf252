import type { IDBPDatabase } from 'idb';
import type { LoreClaim, LoreClaimVerdict } from '../contract/lore';
import type { TavernAgentDb } from './db';
import { eventsOf } from './event-groups';
import { claimVerdict, proposalState } from './lore-claims';

type Db = IDBPDatabase<TavernAgentDb>;

/**
 * A lore claim in IndexedDB (issue 39 §7). One readwrite transaction over `events` and `loreClaims` reads the
 * run's journal and the stored claim, then writes the claim: IndexedDB runs readwrite transactions whose stores
 * overlap one after another, across every tab's connection, so no other tab can claim or journal a decision
 * between the check and the write. Nothing but IndexedDB requests is awaited inside, or the transaction would end.
 */
export async function claimInDb(db: Db, claim: LoreClaim): Promise<LoreClaimVerdict> {
    const tx = db.transaction(['events', 'loreClaims'], 'readwrite');
    const [records, existing] = await Promise.all([
        tx.objectStore('events').getAll(IDBKeyRange.bound([claim.runId, 0], [claim.runId, Number.MAX_SAFE_INTEGER])),
        tx.objectStore('loreClaims').get([claim.runId, claim.proposalId]),
    ]);
    const verdict = claimVerdict(proposalState(eventsOf(records), claim.proposalId), existing, claim.at);
    if (verdict === 'claimed') await tx.objectStore('loreClaims').put(claim);
    await tx.done;
    return verdict;
}

/** Drops the claim when `token` still holds it (a claim another tab took over after it went stale stays). */
export async function releaseInDb(db: Db, runId: string, proposalId: string, token: string): Promise<void> {
    const tx = db.transaction('loreClaims', 'readwrite');
    const existing = await tx.store.get([runId, proposalId]);
    if (existing?.token === token) await tx.store.delete([runId, proposalId]);
    await tx.done;
}

/** The claims of one run, as a key range of `loreClaims` (deleted with the run). */
export function runClaimsRange(runId: string): IDBKeyRange {
    return IDBKeyRange.bound([runId, ''], [runId, '\uffff']);
}
