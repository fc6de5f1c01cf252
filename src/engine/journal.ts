import type { EventPayloads, EventType } from '../contract/events';
import { RunFailure } from '../contract/errors';
import { RECORD_VERSION, type JournalEvent } from '../contract/records';
import type { EventAttachments, RunStorage } from '../store/run-storage';

export type EventSink = (event: JournalEvent) => void;

/** Storage errors the run cannot survive, named so a user knows what to do about them. */
export function storageFailure(error: unknown): RunFailure {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    if (error instanceof DOMException && error.name === 'QuotaExceededError') {
        return new RunFailure('store.quota_exceeded', 'The browser refused to store more data for Tavern Agent (storage is full).', detail);
    }
    return new RunFailure('store.write_failed', 'Tavern Agent could not write to its browser storage.', detail);
}

/**
 * Append-only journal of one run. Each event is stored before anything depends on it, then pushed to the
 * main thread. A failed append ends the run: a step that is not journaled did not happen.
 */
export class Journal {
    private seq: number;

    constructor(
        readonly runId: string,
        private readonly storage: RunStorage,
        private readonly sink: EventSink,
        private readonly now: () => number = Date.now,
        startSeq = 0,
    ) {
        this.seq = startSeq;
    }

    get nextSeq(): number {
        return this.seq;
    }

    /** Stores the event (with the records it describes, in one transaction), then pushes it. */
    async append<T extends EventType>(type: T, payload: EventPayloads[T], attachments?: EventAttachments): Promise<JournalEvent> {
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
