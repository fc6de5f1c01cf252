import type { EventPayloads, EventType } from '../contract/events';
import { RECORD_VERSION, type EventAttachments, type JournalEvent } from '../contract/records';
import type { RunStorage } from '../store/run-storage';
import { storageFailure } from '../store/storage-failure';
import type { AppendOptions, JournalWriter } from '../workspace/journal-writer';

/**
 * Where a journal's events go: each one the moment it is appended (numbered, not yet stored: a viewer
 * shows it at once), and again once its write has committed (what scripts, other tabs and resume may rely on).
 */
export interface JournalSink {
    appended(event: JournalEvent): void;
    stored(event: JournalEvent): void;
    /**
     * The write of the events from `fromSeq` on failed: they are not in the journal and never will be, and
     * their numbers go to the next events (the run's failure). A viewer drops what it showed of them.
     */
    retracted(fromSeq: number): void;
}

/** A sink of stored events only (a bare function), or one that also sees appends and retractions. */
export type EventSink = ((event: JournalEvent) => void) | JournalSink;

interface Queued {
    event: JournalEvent;
    attachments: EventAttachments | undefined;
    resolve(event: JournalEvent): void;
    reject(error: unknown): void;
    /** Resolves once the write holding this event has ended, whichever way. */
    settled: Promise<unknown>;
}

/**
 * Append-only journal of one run. Each event is stored before anything depends on it; it is shown (pushed
 * to the sink's `appended`) the moment it is appended, and confirmed (`stored`) once its write commits. A
 * failed append ends the run: a step that is not journaled did not happen, so the events of a failed write,
 * and all appended after them, are retracted and their numbers handed to the next event.
 *
 * Group commit: events queued while a write is in flight, and deferred events (`{ defer: true }`: steps
 * nothing acts on until the next event, such as a model response before its first call's start), go
 * to storage together in one transaction with the next event that is waited for. A deferred event that
 * no other event follows is written on its own a task later, so it never waits long.
 *
 * What may be deferred (the rule, enforced where each event is appended): an event nothing outside the
 * journal acts on before the next write — a model response (call-model.ts), a call's result, a read-only
 * or refused call's start (execute-tool-call.ts), a file change before its checkpoint (workspace.ts).
 * A step that reaches outside (a writing tool, a commit) waits for its own event, and so for all before it.
 * Writes land in order, each whole, so a cut leaves a prefix of the journal that resume can replay.
 */
export class Journal implements JournalWriter {
    /** The number of the next event appended. */
    private seq: number;
    private readonly sink: JournalSink;
    private queue: Queued[] = [];
    /** How many queued events someone waits for: a write starts at once for them. */
    private urgent = 0;
    private inFlight: Promise<void> | null = null;
    private flushTimer: ReturnType<typeof setTimeout> | null = null;
    private flushDue = false;
    /** A deferred event's write failed with no waited event beside it: the next append reports it. */
    private lostDeferred: unknown = null;

    constructor(
        readonly runId: string,
        private readonly storage: RunStorage,
        sink: EventSink,
        private readonly now: () => number = Date.now,
        startSeq = 0,
    ) {
        this.seq = startSeq;
        this.sink = typeof sink === 'function' ? { appended() {}, stored: sink, retracted() {} } : sink;
    }

    /**
     * Numbers the event and shows it, then stores it (with the records it describes, in one transaction).
     * Appends land in call order with gapless seq, even when sub-agents append at once.
     */
    append<T extends EventType>(type: T, payload: EventPayloads[T], attachments?: EventAttachments, options?: AppendOptions): Promise<JournalEvent> {
        if (this.lostDeferred !== null) {
            const error = this.lostDeferred;
            this.lostDeferred = null;
            return Promise.reject(error);
        }
        const defer = options?.defer === true;
        let entry!: Queued;
        const event: JournalEvent = { v: RECORD_VERSION, runId: this.runId, seq: this.seq, at: this.now(), type, payload: payload as JournalEvent['payload'] };
        this.seq += 1;
        const done = new Promise<JournalEvent>((resolve, reject) => {
            entry = { event, attachments, resolve, reject, settled: Promise.resolve() };
        });
        entry.settled = done.catch(() => undefined);
        this.queue.push(entry);
        if (defer) {
            // Nobody may await a deferred append (`settled` handles its rejection): the next append reports it.
            this.flushTimer ??= setTimeout(() => {
                this.flushTimer = null;
                this.flushDue = true;
                this.pump();
            }, 0);
        } else {
            this.urgent += 1;
        }
        this.sink.appended(event);
        this.pump();
        return done;
    }

    /**
     * Writes the deferred events now and waits for every event appended so far to settle (for storage
     * writes outside the journal, such as the run record, which must never get ahead of the journal).
     * Never rejects: a failed deferred write is reported by the next append.
     */
    async flush(): Promise<void> {
        const last = this.queue.at(-1);
        if (!last && !this.inFlight) return;
        this.flushDue = this.queue.length > 0;
        this.pump();
        await (last ? last.settled : this.inFlight);
    }

    /** Starts the next write when none is in flight and someone waits (or a deferred event's time is up). */
    private pump(): void {
        if (this.inFlight || this.queue.length === 0 || (this.urgent === 0 && !this.flushDue)) return;
        const batch = this.queue;
        const waited = this.urgent > 0;
        this.queue = [];
        this.urgent = 0;
        this.flushDue = false;
        // The deferred events go in this batch: their timer must not flush the next ones early.
        if (this.flushTimer !== null) {
            clearTimeout(this.flushTimer);
            this.flushTimer = null;
        }
        this.inFlight = this.write(batch, waited).finally(() => {
            this.inFlight = null;
            this.pump();
        });
    }

    private async write(batch: Queued[], waited: boolean): Promise<void> {
        try {
            await this.storage.appendEvents(batch.map(({ event, attachments }) => ({ event, ...(attachments ? { attachments } : {}) })));
        } catch (error) {
            const failure = storageFailure(error);
            // Events queued behind the failed ones cannot follow a hole: they fail with them, and the numbers
            // from the first unwritten one go to the next event (the run's failure).
            const failed = [...batch, ...this.queue.splice(0)];
            const someoneWaits = waited || this.urgent > 0;
            this.urgent = 0;
            this.flushDue = false;
            if (this.flushTimer !== null) {
                clearTimeout(this.flushTimer);
                this.flushTimer = null;
            }
            if (!someoneWaits) this.lostDeferred = failure;
            this.seq = batch[0]!.event.seq;
            this.sink.retracted(this.seq);
            for (const entry of failed) entry.reject(failure);
            return;
        }
        for (const entry of batch) {
            this.sink.stored(entry.event);
            entry.resolve(entry.event);
        }
    }
}
