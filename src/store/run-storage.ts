import type { CheckpointRecord, EventAttachments, JournalEvent, PersistState, RunRecord, WorkspaceFile } from '../contract/records';

export type { EventAttachments };

/**
 * Everything a run stores, as one narrow interface: IndexedDB in the product (idb-run-storage.ts), memory
 * in unit tests. Every method rejects on failure; `storageFailure` (storage-failure.ts) names the error for the user.
 */
export interface RunStorage {
    putRun(run: RunRecord): Promise<void>;
    getRun(runId: string): Promise<RunRecord | undefined>;
    listRuns(chatKey: string): Promise<RunRecord[]>;
    listAllRuns(): Promise<RunRecord[]>;
    /**
     * Appends a journal event, and stores `with` (the files and checkpoints the event records) in the same
     * transaction: a step and its data land together or not at all, in one write instead of several.
     */
    appendEvent(event: JournalEvent, with_?: EventAttachments): Promise<void>;
    listEvents(runId: string, fromSeq?: number): Promise<JournalEvent[]>;
    putFile(file: WorkspaceFile): Promise<void>;
    listFiles(runId: string): Promise<WorkspaceFile[]>;
    getFile(runId: string, path: string): Promise<WorkspaceFile | undefined>;
    listCheckpoints(runId: string, path?: string): Promise<CheckpointRecord[]>;
    putPersistState(state: PersistState): Promise<void>;
    getPersistState(runId: string): Promise<PersistState | undefined>;
    /** Removes a run and everything stored with it. */
    deleteRun(runId: string): Promise<void>;
    /** Stores a whole run at once (an import): one transaction, all or nothing. */
    putWholeRun(run: RunRecord, events: JournalEvent[], files: WorkspaceFile[], checkpoints: CheckpointRecord[]): Promise<void>;
}

/** The in-memory twin, for unit tests and for runs that must not touch the disk. */
export function createMemoryRunStorage(): RunStorage {
    const runs = new Map<string, RunRecord>();
    const events: JournalEvent[] = [];
    const files = new Map<string, WorkspaceFile>();
    const checkpoints: CheckpointRecord[] = [];
    const persist = new Map<string, PersistState>();
    const clone = <T>(value: T): T => structuredClone(value);
    return {
        async putRun(run) { runs.set(run.runId, clone(run)); },
        async getRun(runId) { const run = runs.get(runId); return run && clone(run); },
        async listRuns(chatKey) { return [...runs.values()].filter((run) => run.chatKey === chatKey).map(clone); },
        async listAllRuns() { return [...runs.values()].map(clone); },
        async appendEvent(event, attachments) {
            events.push(clone(event));
            for (const file of attachments?.files ?? []) files.set(`${file.runId}\0${file.path}`, clone(file));
            checkpoints.push(...(attachments?.checkpoints ?? []).map(clone));
        },
        async listEvents(runId, fromSeq = 0) { return events.filter((e) => e.runId === runId && e.seq >= fromSeq).map(clone); },
        async putFile(file) { files.set(`${file.runId}\0${file.path}`, clone(file)); },
        async listFiles(runId) { return [...files.values()].filter((f) => f.runId === runId).map(clone); },
        async getFile(runId, path) { const file = files.get(`${runId}\0${path}`); return file && clone(file); },
        async listCheckpoints(runId, path) {
            return checkpoints.filter((c) => c.runId === runId && (path === undefined || c.path === path)).map(clone);
        },
        async putPersistState(state) { persist.set(state.runId, clone(state)); },
        async getPersistState(runId) { const state = persist.get(runId); return state && clone(state); },
        async putWholeRun(run, newEvents, newFiles, newCheckpoints) {
            runs.set(run.runId, clone(run));
            events.push(...newEvents.map(clone));
            for (const file of newFiles) files.set(`${file.runId}\0${file.path}`, clone(file));
            checkpoints.push(...newCheckpoints.map(clone));
        },
        async deleteRun(runId) {
            runs.delete(runId);
            persist.delete(runId);
            for (const key of [...files.keys()]) if (key.startsWith(`${runId}\0`)) files.delete(key);
            events.splice(0, events.length, ...events.filter((e) => e.runId !== runId));
            checkpoints.splice(0, checkpoints.length, ...checkpoints.filter((c) => c.runId !== runId));
        },
    };
}
