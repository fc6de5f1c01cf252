import { LoreDecisionSchema, type LoreDecision } from '../../contract/lore';
import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import { newId } from '../../contract/new-id';
import { RECORD_VERSION } from '../../contract/records';
import { fail, ok, type Result } from '../../contract/result';
import type { RunStorage } from '../../store/run-storage';
import { Journal } from '../journal/journal';
import { liveJournal } from '../journal/live-journals';

/**
 * Claims a pending lore proposal for this tab before anything is written for it (issue 39 §7): of two tabs
 * answering the same proposal, one gets the claim; the other is told why and writes nothing. The claim ends
 * with the journaled decision (recordLoreDecision), or with releaseLoreClaim when the write failed.
 */
export async function claimLoreProposal(storage: RunStorage, runId: string, proposalId: string, now: number = Date.now()): Promise<Result<{ token: string }>> {
    const run = await storage.getRun(runId);
    if (!run) return fail('run.not_found', 'This run no longer exists.');
    if (run.chatKey === IMPORTED_CHAT_KEY) return fail('run.read_only', 'Imported runs are read-only.');
    const token = newId();
    const verdict = await storage.claimLoreProposal({ v: RECORD_VERSION, runId, proposalId, token, at: now });
    switch (verdict) {
        case 'claimed':
            return ok({ token });
        case 'decided':
            return fail('lore.already_decided', 'This lore proposal was already accepted or discarded.');
        case 'busy':
            return fail('lore.proposal_busy', 'Another tab is answering this lore proposal right now.');
        case 'not_proposed':
            return fail('lore.proposal_not_found', 'This run made no such lore proposal.');
    }
}

/** Ends this tab's claim on a proposal without a decision (the write failed, nothing was journaled). */
export async function releaseLoreClaim(storage: RunStorage, runId: string, proposalId: string, token: string): Promise<Result<null>> {
    await storage.releaseLoreClaim(runId, proposalId, token);
    return ok(null);
}

/**
 * Journals the user's answer to a lore proposal in the proposal's run (issue 19): once per proposal, for a
 * proposal the run made. A run still going on gets it through its own journal (pushed live to the panel).
 * With `claimToken`, the claim it took (claimLoreProposal) ends once the decision is journaled.
 */
export async function recordLoreDecision(storage: RunStorage, runId: string, raw: LoreDecision, claimToken?: string): Promise<Result<null>> {
    const parsed = LoreDecisionSchema.safeParse(raw);
    if (!parsed.success) return fail('run.invalid_input', 'The lore decision is not valid.', parsed.error.message);
    const decision = parsed.data;
    const run = await storage.getRun(runId);
    if (!run) return fail('run.not_found', 'This run no longer exists.');
    if (run.chatKey === IMPORTED_CHAT_KEY) return fail('run.read_only', 'Imported runs are read-only.');
    const events = await storage.listEvents(runId);
    const proposed = events.some((event) => event.type === 'lore-propose' && event.payload.proposalId === decision.proposalId);
    if (!proposed) return fail('lore.proposal_not_found', 'This run made no such lore proposal.');
    const decided = events.some((event) => event.type === 'lore-decide' && event.payload.proposalId === decision.proposalId);
    if (decided) return fail('lore.already_decided', 'This lore proposal was already accepted or discarded.');
    const journal = liveJournal(runId) ?? new Journal(runId, storage, () => undefined, Date.now, (events.at(-1)?.seq ?? -1) + 1);
    await journal.append('lore-decide', decision);
    // The decision is journaled: the claim has done its work (a stale one left behind would refuse nothing more).
    if (claimToken !== undefined) await storage.releaseLoreClaim(runId, decision.proposalId, claimToken);
    return ok(null);
}
