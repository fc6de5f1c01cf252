import { LoreDecisionSchema, type LoreDecision } from '../../contract/lore';
import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import { fail, ok, type Result } from '../../contract/result';
import type { RunStorage } from '../../store/run-storage';
import { Journal } from '../journal/journal';
import { liveJournal } from '../journal/live-journals';

/**
 * Journals the user's answer to a lore proposal in the proposal's run (issue 19): once per proposal, for a
 * proposal the run made. A run still going on gets it through its own journal (pushed live to the panel).
 */
export async function recordLoreDecision(storage: RunStorage, runId: string, raw: LoreDecision): Promise<Result<null>> {
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
    return ok(null);
}
