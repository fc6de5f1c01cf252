import type { CheckpointRecord, EventAttachments, PersistState, RunRecord, WorkspaceFile } from '../contract/records';
import type { JournalEvent } from '../contract/events';
import type { LoreClaim, LoreClaimVerdict } from '../contract/lore';
import { claimVerdict, proposalState } from './lore-claims';

export type { EventAttachments };

/** One journal event and the records it describes, as one entry of a batch written together. */
export interface EventWrite {
    event: JournalEvent;
    attachments?: EventAttachments;
}

/**
 * What a read-and-write transaction over run records makes of what it read: its answer, and the records to
 * put (none: nothing is written).
 */
export interface RunsUpdate<T> {
    value: T;
    put?: readonly RunRecord[];
}

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
     * Reads a run's record and puts what `decide` returns, in one readwrite transaction: no other write of a
     * run record lands in between (the run lease's renewal and fenced saves, engine/tabs/leases.ts).
     * `decide` runs inside the transaction: synchronous, it waits on nothing.
     */
    updateRun<T>(runId: string, decide: (stored: RunRecord | undefined) => RunsUpdate<T>): Promise<T>;
    /** The same over every record of one chat (the lease's claim: one writer per chat). */
    updateChatRuns<T>(chatKey: string, decide: (stored: RunRecord[]) => RunsUpdate<T>): Promise<T>;
    /**
     * Appends a journal event, and stores `with` (the files and checkpoints the event records) in the same
     * transaction: a step and its data land together or not at all, in one write instead of several.
     */
    appendEvent(event: JournalEvent, with_?: EventAttachments): Promise<void>;
    /**
     * Appends several events with their records in one transaction (the journal's group commit: a round's
     * steps that nothing acts on in between land in one write). All or nothing, in the order given.
     */
    appendEvents(writes: EventWrite[]): Promise<void>;
    listEvents(runId: string, fromSeq?: number): Promise<JournalEvent[]>;
    putFile(file: WorkspaceFile): Promise<void>;
    /** Stores files in one transaction: all of them, or none (a run's frozen inputs). */
    putFiles(files: WorkspaceFile[]): Promise<void>;
    listFiles(runId: string): Promise<WorkspaceFile[]>;
    getFile(runId: string, path: string): Promise<WorkspaceFile | undefined>;
    listCheckpoints(runId: string, path?: string): Promise<CheckpointRecord[]>;
    putPersistState(state: PersistState): Promise<void>;
    getPersistState(runId: string): Promise<PersistState | undefined>;
    /** Removes a run's files and checkpoints, keeping its record and journal (frees room when storage is full). */
    dropRunData(runId: string): Promise<void>;
    /** Removes a run and everything stored with it. */
    deleteRun(runId: string): Promise<void>;
    /**
     * Claims a lore proposal for one writer (issue 39 §7): in one transaction, reads the run's journal and the
     * claim stored for the proposal, and stores this one only when the proposal is still pending and no
     * other fresh claim holds it (lore-claims.ts). Of two tabs claiming at once, one gets 'claimed'.
     */
    claimLoreProposal(claim: LoreClaim): Promise<LoreClaimVerdict>;
    /** Drops the claim on a proposal, when `token` still holds it (after the decision, or a failed write). */
    releaseLoreClaim(runId: string, proposalId: string, token: string): Promise<void>;
    /** Stores a whole run at once (an import): one transaction, all or nothing. */
    putWholeRun(run: RunRecord, events: JournalEvent[], files: WorkspaceFile[], checkpoints: CheckpointRecord[]): Promise<void>;
}

/**
 * The in-memory twin, for unit tests and for runs that must not touch the disk. It keeps IndexedDB's
 * semantics where callers can see them (tests/unit/run-storage.test.ts runs the same contract on both):
 * stored and returned records are structured clones; lists come in key order (runs by id, events and
 * checkpoints by seq, files by path); appending an event whose [runId, seq] exists rejects with a
 * ConstraintError; put overwrites a record with the same key; a write of several records lands whole or
 * not at all (everything is cloned and checked before anything changes).
 */
export function createMemoryRunStorage(): RunStorage {
    const runs = new Map<string, RunRecord>();
    const events = new Map<string, JournalEvent>();
    const files = new Map<string, WorkspaceFile>();
    const checkpoints = new Map<string, CheckpointRecord>();
    const persist = new Map<string, PersistState>();
    const claims = new Map<string, LoreClaim>();
    const clone = <T>(value: T): T => structuredClone(value);
    // Composite keys as IndexedDB's [runId, seq] / [runId, path]; \0 cannot occur in a run id.
    const seqKey = (record: { runId: string; seq: number }) => `${record.runId}\0${record.seq}`;
    const pathKey = (record: { runId: string; path: string }) => `${record.runId}\0${record.path}`;
    const claimKey = (runId: string, proposalId: string) => `${runId}\0${proposalId}`;
    const bySeq = (a: { seq: number }, b: { seq: number }) => a.seq - b.seq;
    // IndexedDB compares string keys by UTF-16 code unit, as < does (localeCompare would not).
    const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    const byRunId = (a: RunRecord, b: RunRecord) => byString(a.runId, b.runId);
    const ofRun = <T extends { runId: string }>(map: Map<string, T>, runId: string) => [...map.values()].filter((r) => r.runId === runId);

    // No await between the read and the puts: nothing else runs in between, as in one IndexedDB transaction.
    function update<T>(stored: RunRecord[], decide: (stored: RunRecord[]) => RunsUpdate<T>): T {
        const { value, put = [] } = decide(stored.map(clone));
        const records = put.map(clone);
        for (const record of records) runs.set(record.runId, record);
        return value;
    }
    async function appendEvents(writes: EventWrite[]): Promise<void> {
        const stored = writes.map((w) => clone(w.event));
        const newFiles = writes.flatMap((w) => w.attachments?.files ?? []).map(clone);
        const newCheckpoints = writes.flatMap((w) => w.attachments?.checkpoints ?? []).map(clone);
        const keys = new Set<string>();
        for (const event of stored) {
            if (events.has(seqKey(event)) || keys.has(seqKey(event))) {
                throw new DOMException(`Event ${event.seq} of run ${event.runId} already exists`, 'ConstraintError');
            }
            keys.add(seqKey(event));
        }
        for (const event of stored) events.set(seqKey(event), event);
        for (const file of newFiles) files.set(pathKey(file), file);
        for (const checkpoint of newCheckpoints) checkpoints.set(seqKey(checkpoint), checkpoint);
    }
    return {
        async putRun(run) { runs.set(run.runId, clone(run)); },
        async getRun(runId) { const run = runs.get(runId); return run && clone(run); },
        async listRuns(chatKey) { return [...runs.values()].filter((run) => run.chatKey === chatKey).sort(byRunId).map(clone); },
        async listAllRuns() { return [...runs.values()].sort(byRunId).map(clone); },
        async updateRun(runId, decide) {
            const run = runs.get(runId);
            return update(run ? [run] : [], (stored) => decide(stored[0]));
        },
        async updateChatRuns(chatKey, decide) { return update([...runs.values()].filter((run) => run.chatKey === chatKey).sort(byRunId), decide); },
        appendEvent: (event, attachments) => appendEvents([{ event, ...(attachments ? { attachments } : {}) }]),
        appendEvents,
        async listEvents(runId, fromSeq = 0) { return ofRun(events, runId).filter((e) => e.seq >= fromSeq).sort(bySeq).map(clone); },
        async putFile(file) { files.set(pathKey(file), clone(file)); },
        async putFiles(list) { for (const file of list) files.set(pathKey(file), clone(file)); },
        async listFiles(runId) { return ofRun(files, runId).sort((a, b) => byString(a.path, b.path)).map(clone); },
        async getFile(runId, path) { const file = files.get(pathKey({ runId, path })); return file && clone(file); },
        async listCheckpoints(runId, path) {
            return ofRun(checkpoints, runId).filter((c) => path === undefined || c.path === path).sort(bySeq).map(clone);
        },
        async putPersistState(state) { persist.set(state.runId, clone(state)); },
        async getPersistState(runId) { const state = persist.get(runId); return state && clone(state); },
        async claimLoreProposal(claim) {
            const journal = ofRun(events, claim.runId).sort(bySeq);
            const verdict = claimVerdict(proposalState(journal, claim.proposalId), claims.get(claimKey(claim.runId, claim.proposalId)), claim.at);
            if (verdict === 'claimed') claims.set(claimKey(claim.runId, claim.proposalId), clone(claim));
            return verdict;
        },
        async releaseLoreClaim(runId, proposalId, token) {
            if (claims.get(claimKey(runId, proposalId))?.token === token) claims.delete(claimKey(runId, proposalId));
        },
        async putWholeRun(run, newEvents, newFiles, newCheckpoints) {
            const [r, e, f, c] = [clone(run), newEvents.map(clone), newFiles.map(clone), newCheckpoints.map(clone)];
            runs.set(r.runId, r);
            for (const event of e) events.set(seqKey(event), event);
            for (const file of f) files.set(pathKey(file), file);
            for (const checkpoint of c) checkpoints.set(seqKey(checkpoint), checkpoint);
        },
        async dropRunData(runId) {
            for (const map of [files, checkpoints] as Array<Map<string, { runId: string }>>) {
                for (const [key, record] of map) if (record.runId === runId) map.delete(key);
            }
        },
        async deleteRun(runId) {
            runs.delete(runId);
            persist.delete(runId);
            for (const map of [events, files, checkpoints, claims] as Array<Map<string, { runId: string }>>) {
                for (const [key, record] of map) if (record.runId === runId) map.delete(key);
            }
        },
    };
}
