import { eventFact, type EventFact, type EventPayloads, type EventType, type JournalEvent } from '../../contract/events';
import { RECORD_VERSION, type EventAttachments } from '../../contract/records';
import type { RunStorage } from '../../store/run-storage';
import { storageFailure } from '../../store/storage-failure';
import type { AppendOptions, JournalWriter } from '../../workspace/journal-writer';

export type EventSink = (event: JournalEvent) => void;

/**
 * Sees every event as it is appended, before it is stored (the run's projection: the loop acts on the
 * event in the same step). `files` reads the files the event carries.
 */
export type EventObserver = (fact: EventFact, at: number, files: (path: string) => string | undefined, decoded: AppendOptions['decoded']) => void;

interface Queued {
    fact: EventFact;
    attachments: EventAttachments | undefined;
    at: number;
    resolve(event: JournalEvent): void;
    reject(error: unknown): void;
    /** Resolves once the write holding this event has ended, whichever way. */
    settled: Promise<unknown>;
}

/**
 * Append-only journal of one run. Each event is stored before anything depends on it, then pushed to the
 * main thread. A failed append ends the run: a step that is not journaled did not happen.
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
    private seq: number;
    private queue: Queued[] = [];
    /** How many queued events someone waits for: a write starts at once for them. */
    private urgent = 0;
    private inFlight: Promise<void> | null = null;
    private flushTimer: ReturnType<typeof setTimeout> | null = null;
    /** When the pending flush timer fires (the earliest a deferred event asked for). */
    private flushAt = Number.POSITIVE_INFINITY;
    private flushDue = false;
    /** A deferred event's write failed with no waited event beside it: the next append reports it. */
    private lostDeferred: unknown = null;

    constructor(
        readonly runId: string,
        private readonly storage: RunStorage,
        private readonly sink: EventSink,
        private readonly now: () => number = Date.now,
        startSeq = 0,
        private readonly observe: EventObserver | null = null,
    ) {
        this.seq = startSeq;
    }

    /**
     * Stores the event (with the records it describes, in one transaction), then pushes it. Appends land in
     * call order with gapless seq, even when sub-agents append at once.
     */
    append<T extends EventType>(type: T, payload: EventPayloads[T], attachments?: EventAttachments, options?: AppendOptions): Promise<JournalEvent> {
        if (this.lostDeferred !== null) {
            const error = this.lostDeferred;
            this.lostDeferred = null;
            return Promise.reject(error);
        }
        const defer = options?.defer === true;
        let entry!: Queued;
        const done = new Promise<JournalEvent>((resolve, reject) => {
            entry = { fact: eventFact(type, payload), attachments, at: this.now(), resolve, reject, settled: Promise.resolve() };
        });
        entry.settled = done.catch(() => undefined);
        // Append, then apply: the projection takes the event now, in the order appends are made.
        this.observe?.(entry.fact, entry.at, (path) => attachments?.files?.find((file) => file.path === path)?.content, options?.decoded);
        this.queue.push(entry);
        if (defer) {
            // Nobody may await a deferred append (`settled` handles its rejection): the next append reports it.
            this.scheduleFlush(options?.deferMs ?? 0);
        } else {
            this.urgent += 1;
        }
        this.pump();
        return done;
    }

    /** A deferred event is written within `delayMs` at the latest (sooner when an earlier one or a waited one comes). */
    private scheduleFlush(delayMs: number): void {
        const at = Date.now() + delayMs;
        if (this.flushTimer !== null && this.flushAt <= at) return;
        if (this.flushTimer !== null) clearTimeout(this.flushTimer);
        this.flushAt = at;
        this.flushTimer = setTimeout(() => {
            this.flushTimer = null;
            this.flushAt = Number.POSITIVE_INFINITY;
            this.flushDue = true;
            this.pump();
        }, delayMs);
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
            this.flushAt = Number.POSITIVE_INFINITY;
        }
        this.inFlight = this.write(batch, waited).finally(() => {
            this.inFlight = null;
            this.pump();
        });
    }

    private async write(batch: Queued[], waited: boolean): Promise<void> {
        const first = this.seq;
        const events = batch.map(
            (entry, index): JournalEvent => ({ v: RECORD_VERSION, runId: this.runId, seq: first + index, at: entry.at, ...entry.fact }),
        );
        try {
            await this.storage.appendEvents(events.map((event, index) => ({ event, ...(batch[index]!.attachments ? { attachments: batch[index]!.attachments } : {}) })));
        } catch (error) {
            // seq does not move: the next event (the run's failure) takes the first unwritten number.
            const failure = storageFailure(error);
            if (!waited) this.lostDeferred = failure;
            for (const entry of batch) entry.reject(failure);
            return;
        }
        this.seq = first + batch.length;
        events.forEach((event, index) => {
            this.sink(event);
            batch[index]!.resolve(event);
        });
    }
}
