import { isEndedState, type RunRecord } from '../../contract/records';
import type { ChatRunCount, PruneReport, PruneRequest, RetentionPolicy } from '../../contract/storage';
import type { RunStorage } from '../../store/run-storage';

function byChat(runs: readonly RunRecord[]): Map<string, RunRecord[]> {
    const chats = new Map<string, RunRecord[]>();
    for (const run of runs) chats.set(run.chatKey, [...(chats.get(run.chatKey) ?? []), run]);
    return chats;
}

/** Runs per chat, newest chat first: the storage section's list (runs of deleted chats included). */
export async function countRunsByChat(storage: RunStorage): Promise<ChatRunCount[]> {
    const counts: ChatRunCount[] = [];
    for (const [chatKey, runs] of byChat(await storage.listAllRuns())) {
        const newest = runs.reduce((a, b) => (b.createdAt > a.createdAt ? b : a));
        counts.push({ chatKey, chatId: newest.chatId, runs: runs.length, summaries: runs.filter((run) => run.summary === true).length, newestAt: newest.createdAt });
    }
    return counts.sort((a, b) => b.newestAt - a.newestAt);
}

/**
 * Applies a prune. Only ended runs are touched (a live run, or one another tab is running, is left
 * alone); the newest of a chat come first. A summary keeps the record and the journal (the timeline still
 * shows the steps) and the chat's memory state; only its files and checkpoints go.
 */
export async function pruneRuns(storage: RunStorage, request: PruneRequest, isLive: (runId: string) => boolean): Promise<PruneReport> {
    const all = await storage.listAllRuns();
    const chosen = request.chatKeys === 'all' ? all : all.filter((run) => (request.chatKeys as string[]).includes(run.chatKey));
    const report: PruneReport = { summarized: 0, deleted: 0 };
    for (const runs of byChat(chosen).values()) {
        const ended = runs.filter((run) => isEndedState(run.state) && !isLive(run.runId)).sort((a, b) => b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : -1));
        for (const [index, run] of ended.entries()) {
            if (request.action === 'delete' || index >= request.policy.keepFull + request.policy.keepSummaries) {
                await storage.deleteRun(run.runId);
                report.deleted += 1;
            } else if (index >= request.policy.keepFull && run.summary !== true) {
                await storage.dropRunData(run.runId);
                await storage.putRun({ ...run, summary: true });
                report.summarized += 1;
            }
        }
    }
    return report;
}
