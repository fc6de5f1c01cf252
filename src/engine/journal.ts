import type { EventPayloads, EventType } from '../contract/events';
import { RECORD_VERSION, type EventAttachments, type JournalEvent } from '../contract/records';
import type { RunStorage } from '../store/run-storage';
import { storageFailure } from '../store/storage-failure';
import type { JournalWriter } from '../workspace/journal-writer';

export type EventSink = (event: JournalEvent) => void;

/**
 * Append-only journal of one run. Each event is stored before anything depends on it, then pushed to the
 * main thread. A failed append ends the run: a step that is not journaled did not happen.
 */
export class Journal implements JournalWriter {
    private seq: number;
    /** Appends run one after another even when sub-agents append at once: seq stays gapless and ordered. */
    private tail: Promise<unknown> = Promise.resolve();

    constructor(
        readonly runId: string,
        private readonly storage: RunStorage,
        private readonly sink: EventSink,
        private readonly now: () => number = Date.now,
        startSeq = 0,
    ) {
        this.seq = startSeq;
    }

    /** Stores the event (with the records it describes, in one transaction), then pushes it. */
    append<T extends EventType>(type: T, payload: EventPayloads[T], attachments?: EventAttachments): Promise<JournalEvent> {
        const next = this.tail.then(() => this.write(type, payload, attachments));
        this.tail = next.catch(() => undefined);
        return next;
    }

    private async write<T extends EventType>(type: T, payload: EventPayloads[T], attachments?: EventAttachments): Promise<JournalEvent> {
        const event: JournalEvent = { v: RECORD_VERSION, runId: this.runId, seq: this.seq, at: this.now(), type, payload };
        try {
            await this.storage.appendEvent(event, attachments);
        } catch (error) {
            throw storageFailure(error);
        }
        this.seq += 1;
        this.sink(event);
        return event;
    }
}
