import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import type { RunRecord } from '../../contract/records';
import type { RunStorage } from '../../store/run-storage';

/**
 * The stored runs of any chat, by its file id (as `/agent status` gives it), oldest first: the public API's
 * `runs({chatId})` works for chats that are not open. Runs are indexed by chat key (the chat's integrity,
 * known only while it is open), so this reads the run records, which are small. Imported runs are copies
 * for viewing, not the chat's history.
 */
export async function runsOfChat(storage: Pick<RunStorage, 'listAllRuns'>, chatId: string): Promise<RunRecord[]> {
    return (await storage.listAllRuns()).filter((run) => run.chatId === chatId && run.chatKey !== IMPORTED_CHAT_KEY).sort((a, b) => a.createdAt - b.createdAt);
}
