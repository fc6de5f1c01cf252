import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import type { RunRecord } from '../../contract/records';
import type { RunStorage } from '../../store/run-storage';
import { isEventOf } from '../../contract/events';
import { addUsage, type RunUsage } from '../../contract/usage';

/**
 * The stored runs of any chat, by its file id (as `/agent status` gives it), oldest first: the public API's
 * `runs({chatId})` works for chats that are not open. Runs are indexed by chat key (the chat's integrity,
 * known only while it is open), so this reads the run records, which are small. Imported runs are copies
 * for viewing, not the chat's history.
 */
export async function runsOfChat(storage: Pick<RunStorage, 'listAllRuns' | 'listEvents'>, chatId: string): Promise<RunRecord[]> {
    const runs = (await storage.listAllRuns()).filter((run) => run.chatId === chatId && run.chatKey !== IMPORTED_CHAT_KEY).sort((a, b) => a.createdAt - b.createdAt);
    // Records written before they kept their usage: summed from the journal once asked.
    return Promise.all(runs.map(async (run) => (run.usage ? run : { ...run, usage: await journalUsage(storage, run.runId) })));
}

/** A run's tokens and cost from its journal's model turns, its sub-agents' included. */
export async function journalUsage(storage: Pick<RunStorage, 'listEvents'>, runId: string): Promise<RunUsage> {
    let usage: RunUsage = { input: 0, output: 0 };
    for (const event of await storage.listEvents(runId)) if (isEventOf(event, 'model-response')) usage = addUsage(usage, event.payload.usage, event.payload.cost);
    return usage;
}
