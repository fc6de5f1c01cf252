import { RunFailure } from '../../contract/errors';
import { RECORD_VERSION, type RunRecord, type RunState } from '../../contract/records';
import type { Profile } from '../../contract/profile';
import type { ConnectionProfile } from '../../contract/connection-profile';
import type { RunInput } from '../../contract/run-input';
import type { HostBridge } from '../../contract/wire';
import type { RunStorage } from '../../store/run-storage';
import { storageFailure } from '../../store/storage-failure';
import type { SkillAccess, ToolDefinition } from '../../tools/tool';
import type { FileStore } from '../../workspace/journal-writer';
import { Journal, type EventSink } from '../journal/journal';
import type { GuidanceQueue } from '../agents/guidance-queue';
import { RunProjection } from '../projection/run-projection';
import { ScriptSlots } from '../scripts/script-slots';
import { SCRIPTS_AT_ONCE_PER_RUN, type ScriptRunner } from '../../contract/scripts';
import { leaseLost, type LeaseTerms, type RunLease } from '../tabs/leases';

export interface RunDependencies {
    storage: RunStorage;
    host: HostBridge;
    tools: readonly ToolDefinition[];
    sink: EventSink;
    signal: AbortSignal;
    now?: () => number;
    /** Reads a file of a cached skill bundle by content hash (the run's skills are frozen by hash). */
    skillFiles?: SkillAccess['readFile'];
    /**
     * Every valid profile of the user, built-ins included: the agents a run may delegate to when its input
     * does not carry them frozen (`agentProfiles`; a unit test's run, a run stored before they were).
     */
    profiles?: readonly Profile[];
    /**
     * The Connection Manager profiles the page has now: an agent whose model names one that is gone (or an API
     * Agent Mode cannot drive) is not delegated to. Absent: every agent's model counts as configured.
     */
    connections?: readonly ConnectionProfile[];
    /** The script sandbox (issue 35): the worker's pool of sandbox workers, or QuickJS in-process in node tests. */
    scripts?: ScriptRunner;
    /** Jitter source for retry backoff; tests pin it. */
    random?: () => number;
    /** The user's guidance for this run, added from the page while it works. */
    guidance?: GuidanceQueue;
    /** The run's lease (tabs/leases.ts): claimed before the run writes anything, renewed while it works. */
    lease?: LeaseTerms;
}

/** Where a resumed run picks up: its stored record and the journal's next number. */
export interface ResumePoint {
    record: RunRecord;
    nextSeq: number;
}

/**
 * What every agent of one run shares: the run record and its state machine (SPEC §1), the journal and its
 * projection (each agent's conversation and loop state), storage, the host bridge and the cancel signal.
 */
export class RunSession {
    readonly record: RunRecord;
    readonly journal: Journal;
    readonly projection: RunProjection;
    /** At most SCRIPTS_AT_ONCE_PER_RUN scripts of this run at once. */
    readonly scriptSlots = new ScriptSlots(SCRIPTS_AT_ONCE_PER_RUN);
    readonly now: () => number;
    /** Storage for files no event records; errors come back named (`store.write_failed`, quota). */
    readonly fileStore: FileStore;
    /** The run's storage, fenced: once its lease is lost, every write fails with `run.lease_lost`. */
    readonly storage: RunStorage;
    /** The run's lease, once claimed (runs without one, as in unit tests, write plainly). */
    lease: RunLease | null = null;

    constructor(
        readonly input: RunInput,
        readonly deps: RunDependencies,
        resume?: ResumePoint,
    ) {
        this.now = deps.now ?? Date.now;
        this.projection = new RunProjection(input.source);
        this.storage = fenced(deps.storage, () => this.lease?.lost === true);
        // Every event appended is applied to the projection in the same step (journal first, then act).
        this.journal = new Journal(input.runId, this.storage, deps.sink, this.now, resume?.nextSeq ?? 0, (fact, at, files, decoded) =>
            this.projection.apply(fact, at, files, decoded),
        );
        const failed = (error: unknown) => Promise.reject(storageFailure(error));
        this.fileStore = { putFile: (file) => this.storage.putFile(file).catch(failed), putFiles: (files) => this.storage.putFiles(files).catch(failed) };
        this.record = {
            v: RECORD_VERSION,
            runId: input.runId,
            chatKey: input.chat.integrity,
            chatId: input.chat.chatId,
            profileId: input.profile.id,
            generationType: input.generationType,
            state: 'created',
            messageId: null,
            error: null,
            createdAt: this.now(),
            updatedAt: this.now(),
            ...(input.phase ? { phase: input.phase } : {}),
            ...(input.turnId ? { turnId: input.turnId } : {}),
            ...(input.follows ? { follows: input.follows.messageIndex } : {}),
        };
        // The same run goes on: its record (committed message, creation time); its numbering comes from the journal.
        // The lease stored with it was its last holder's: this run's own is claimed anew.
        if (resume) {
            const { lease: _lease, ...record } = resume.record;
            this.record = record;
        }
    }

    get signal(): AbortSignal {
        return this.deps.signal;
    }

    get hasCommitted(): boolean {
        return this.record.messageId !== null;
    }

    async saveRecord(): Promise<void> {
        this.record.updatedAt = this.now();
        this.record.usage = { ...this.projection.usage };
        // The record never gets ahead of the journal: deferred events (a call's result) land first.
        await this.journal.flush();
        try {
            // With a lease, the record lands only while the lease is still this run's (tabs/leases.ts).
            if (this.lease) await this.lease.save({ ...this.record });
            else await this.storage.putRun({ ...this.record });
        } catch (error) {
            throw storageFailure(error);
        }
    }

    async setState(to: RunState): Promise<void> {
        const from = this.record.state;
        this.record.state = to;
        await this.saveRecord();
        await this.journal.append('run-state', { from, to });
    }

    private calls = 0;
    private tasks = 0;

    /**
     * Skill text handed to the run's agents so far (snippets count): one count for the run, its sub-agents
     * included, against one budget (issue 39 §10). A read adds to it at once (concurrent children see each
     * other's reads); a resume starts from the journal's sum (`projection.skillChars`).
     */
    skillCharsRead = 0;

    /**
     * Run-unique tool-call ids, across the root agent and its sub-agents; a resumed run goes on after the
     * highest its journal holds.
     */
    nextCallId(): string {
        this.calls = Math.max(this.calls, this.projection.callNumber) + 1;
        return `call-${String(this.calls).padStart(4, '0')}`;
    }

    nextTaskId(): string {
        this.tasks = Math.max(this.tasks, this.projection.tasks.size) + 1;
        return `task-${this.tasks}`;
    }

    checkCancelled(): void {
        if (this.signal.aborted) throw new RunFailure('run.cancelled', 'The run was stopped.');
    }
}

/** Storage whose writes fail with `run.lease_lost` once `lost()` says so: a run that lost its lease writes nothing more. */
function fenced(storage: RunStorage, lost: () => boolean): RunStorage {
    const guard =
        <A extends unknown[]>(write: (...args: A) => Promise<void>) =>
        (...args: A): Promise<void> =>
            lost() ? Promise.reject(leaseLost()) : write(...args);
    return {
        ...storage,
        putRun: guard(storage.putRun),
        appendEvent: guard(storage.appendEvent),
        appendEvents: guard(storage.appendEvents),
        putFile: guard(storage.putFile),
        putFiles: guard(storage.putFiles),
        putPersistState: guard(storage.putPersistState),
        dropRunData: guard(storage.dropRunData),
    };
}
