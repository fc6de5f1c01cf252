import { RECORD_VERSION, type WorkspaceFile } from '../contract/records';
import type { FileStore, JournalWriter } from './journal-writer';
import { makeCheckpoint } from './checkpoints';
import { checkBlockLimit } from './memory-block';
import { ReadState } from './read-state';
import { isHiddenPath, rootOf, type RootPolicy } from './roots';

export interface FileEntry {
    content: string;
    /** Bumped on every write; read-state and the stale check compare it. */
    version: number;
}

export type WriteKind = 'replace' | 'append' | 'direct_output';

/**
 * One run's workspace: the visible files in memory, written through to storage. Every write a run makes
 * goes through here, so no edit can miss its journal event or its checkpoint. (Restoring a checkpoint of an
 * ended run, from the timeline, writes the file record directly: that run has no live workspace.)
 */
export class Workspace {
    /** What this agent has read: per agent, so a sub-agent patches only text it read itself. */
    readonly readState = new ReadState();
    private readonly files: Map<string, FileEntry>;
    private readonly checkpoints: { perPath: Map<string, number>; seq: number };

    constructor(
        readonly runId: string,
        readonly policy: RootPolicy,
        private readonly fileStore: FileStore,
        private readonly journal: JournalWriter,
        private readonly now: () => number = Date.now,
        shared?: { files: Map<string, FileEntry>; checkpoints: { perPath: Map<string, number>; seq: number } },
    ) {
        this.files = shared?.files ?? new Map();
        this.checkpoints = shared?.checkpoints ?? { perPath: new Map(), seq: 0 };
    }

    /**
     * The same files seen by another agent of the run (a sub-agent): its own roots, read-state and journal
     * (its events are stamped with its task), one shared set of files and checkpoint numbers.
     */
    viewFor(policy: RootPolicy, journal: JournalWriter): Workspace {
        return new Workspace(this.runId, policy, this.fileStore, journal, this.now, { files: this.files, checkpoints: this.checkpoints });
    }

    /** Seeds files without journaling them (the projection of the chat's persist/ at run start). */
    async seed(files: Record<string, string>): Promise<void> {
        for (const [path, content] of Object.entries(files)) {
            this.files.set(path, { content, version: 0 });
            await this.store(path, content, 0);
        }
    }

    /**
     * A resumed run's files as its journal left them (each stored with the event that wrote it), and its
     * checkpoint numbering, without writing or journaling anything.
     */
    restore(files: ReadonlyArray<{ path: string; content: string; version: number }>, checkpoints: ReadonlyArray<{ seq: number; path: string }>): void {
        for (const file of files) if (!isHiddenPath(file.path)) this.files.set(file.path, { content: file.content, version: file.version });
        for (const checkpoint of checkpoints) {
            this.checkpoints.perPath.set(checkpoint.path, (this.checkpoints.perPath.get(checkpoint.path) ?? 0) + 1);
            this.checkpoints.seq = Math.max(this.checkpoints.seq, checkpoint.seq + 1);
        }
    }

    get(path: string): FileEntry | undefined {
        return this.files.get(path);
    }

    /** Visible files, sorted by path. */
    list(): Array<{ path: string } & FileEntry> {
        return [...this.files.entries()]
            .filter(([path]) => this.policy.visible.includes(rootOf(path)))
            .map(([path, entry]) => ({ path, ...entry }))
            .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    }

    /** Folders implied by file paths ("scratch", "scratch/notes"): the workspace has no empty folders. */
    isDirectory(path: string): boolean {
        if (path === '') return true;
        const prefix = `${path}/`;
        if (this.policy.visible.includes(path)) return true;
        for (const file of this.files.keys()) if (file.startsWith(prefix)) return true;
        return false;
    }

    /** Files under `root/`, for promotion of persist/. */
    filesUnder(root: string): Record<string, string> {
        const out: Record<string, string> = {};
        for (const [path, entry] of this.files) if (rootOf(path) === root) out[path] = entry.content;
        return out;
    }

    async write(path: string, content: string, kind: WriteKind): Promise<FileEntry> {
        const previous = this.files.get(path);
        const next = kind === 'append' && previous ? previous.content + content : content;
        assertWritable(path, previous, next);
        const entry = { content: next, version: (previous?.version ?? 0) + 1 };
        // The change and its checkpoint land in one transaction: the change waits for the checkpoint's
        // event (a failure of either rejects here), and the file is current only once both are stored.
        void this.journal.append('file-write', { path, mode: kind, version: entry.version, chars: next.length }, { files: [this.record(path, next, entry.version)] }, { defer: true });
        await this.checkpoint(path, previous?.content ?? null, entry);
        this.files.set(path, entry);
        // What the agent wrote in full it has, in effect, read in full.
        if (kind !== 'append' || !previous) this.readState.recordFull(path, entry.version);
        return entry;
    }

    /** A patch's new text, with where it replaced what (`offset` and lengths in the text before it). */
    async patch(path: string, next: string, edits: ReadonlyArray<{ offset: number; oldLength: number; newLength: number }>): Promise<FileEntry> {
        const previous = this.files.get(path);
        assertWritable(path, previous, next);
        const entry = { content: next, version: (previous?.version ?? 0) + 1 };
        const spans = edits.map((edit): [number, number, number] => [edit.offset, edit.oldLength, edit.newLength]);
        // As in write: the change rides with its checkpoint, in one transaction.
        void this.journal.append('patch-apply', { path, replacements: edits.length, version: entry.version, edits: spans }, { files: [this.record(path, next, entry.version)] }, { defer: true });
        await this.checkpoint(path, previous?.content ?? null, entry);
        this.files.set(path, entry);
        this.readState.recordPatch(path, previous?.version ?? 0, entry.version, edits);
        return entry;
    }

    /**
     * A file the runtime keeps for the agent to read (a compacted tool result's copy, issue 38 §3): current at
     * once, stored with the event the caller attaches its record to, and with no checkpoint (nobody edited it).
     */
    keep(path: string, content: string): WorkspaceFile {
        const version = (this.files.get(path)?.version ?? 0) + 1;
        this.files.set(path, { content, version });
        return this.record(path, content, version);
    }

    /** Files of the hidden stores (tool-args/, tool-results/, model-responses/, input/): stored, never listed. */
    async writeHidden(path: string, content: string): Promise<void> {
        await this.store(path, content, 0);
    }

    /** The stored form of a file version, to travel with the journal event that records it. */
    record(path: string, content: string, version: number): WorkspaceFile {
        return { v: RECORD_VERSION, runId: this.runId, path, content, version, updatedAt: this.now() };
    }

    private async store(path: string, content: string, version: number): Promise<void> {
        await this.fileStore.putFile({ v: RECORD_VERSION, runId: this.runId, path, content, version, updatedAt: this.now() });
    }

    private async checkpoint(path: string, previous: string | null, entry: FileEntry): Promise<void> {
        const indexForPath = this.checkpoints.perPath.get(path) ?? 0;
        this.checkpoints.perPath.set(path, indexForPath + 1);
        const seq = this.checkpoints.seq++;
        const record = makeCheckpoint({ runId: this.runId, seq, path, previous, next: entry.content, indexForPath, at: this.now() });
        await this.journal.append('checkpoint', { seq, path, version: entry.version, full: record.full !== null }, { checkpoints: [record] });
    }

    /** Marks a checkpoint of the current text (at commit), so the committed version can always be rebuilt. */
    async checkpointCurrent(path: string): Promise<void> {
        const entry = this.files.get(path);
        if (entry) await this.checkpoint(path, entry.content, entry);
    }
}

/**
 * The memory rule held where every write passes (issue 37 §1): tools refuse a block past its limit first, with
 * checkWrite (write-check.ts); reaching here with one means a writer skipped that check, a bug.
 */
function assertWritable(path: string, previous: FileEntry | undefined, next: string): void {
    const refused = checkBlockLimit(path, previous?.content, next);
    if (refused) throw new Error(`An unchecked write reached the workspace: ${refused.message}`);
}
