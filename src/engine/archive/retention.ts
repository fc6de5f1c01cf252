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
        const held = holdingMemory(runs);
        const heldMemoryBytes = runs.filter((run) => held.has(run.runId)).reduce((sum, run) => sum + (run.memory?.bytes ?? 0), 0);
        counts.push({ chatKey, chatId: newest.chatId, runs: runs.length, summaries: runs.filter((run) => run.summary === true).length, newestAt: newest.createdAt, heldMemoryBytes });
    }
    return counts.sort((a, b) => b.newestAt - a.newestAt);
}

/**
 * The runs of one chat that hold the only copy of its memory (issue 39 §4): a run whose memory no message
 * could carry (over the bound a message may carry), with no later run whose memory a message carries. Its
 * persist/ state is where the chat's next run reads that memory from, so retention never deletes it.
 */
export function holdingMemory(runs: readonly RunRecord[]): Set<string> {
    const held = new Set<string>();
    let carriedLater = false;
    for (const run of [...runs].sort((a, b) => b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : -1))) {
        if (!run.memory) continue;
        if (run.memory.carried) carriedLater = true;
        else if (!carriedLater) held.add(run.runId);
    }
    return held;
}

/**
 * Applies a prune. Only ended runs are touched (a live run, or one another tab is running, is left
 * alone); the newest of a chat come first. A summary keeps the record and the journal (the timeline still
 * shows the steps) and the chat's memory state; only its files and checkpoints go.
 */
export async function pruneRuns(storage: RunStorage, request: PruneRequest, isLive: (runId: string) => boolean): Promise<PruneReport> {
    const all = await storage.listAllRuns();
    const chosen = request.chatKeys === 'all' ? all : all.filter((run) => (request.chatKeys as string[]).includes(run.chatKey));
    const report: PruneReport = { summarized: 0, deleted: 0, held: 0 };
    for (const runs of byChat(chosen).values()) {
        // Judged on all the chat's runs (a live run's memory is not carried yet, so it carries nothing later).
        const held = holdingMemory(runs);
        const ended = runs.filter((run) => isEndedState(run.state) && !isLive(run.runId)).sort((a, b) => b.createdAt - a.createdAt || (a.runId < b.runId ? 1 : -1));
        for (const [index, run] of ended.entries()) {
            if (request.action === 'delete' || index >= request.policy.keepFull + request.policy.keepSummaries) {
                if (held.has(run.runId)) {
                    // Its files may go; its record, journal and memory stay.
                    if (run.summary !== true) {
                        await storage.dropRunData(run.runId);
                        await storage.putRun({ ...run, summary: true });
                    }
                    report.held += 1;
                    continue;
                }
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
