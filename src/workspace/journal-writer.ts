import type { EventPayloads, EventType } from '../contract/events';
import type { EventAttachments, WorkspaceFile } from '../contract/records';
import type { JournalEvent } from '../contract/events';

export interface AppendOptions {
    /**
     * Nothing acts on this event until the next one: it may be stored with that one, in one transaction
     * (the caller does not await it; a failure is reported by the next append).
     */
    defer?: boolean;
}

/**
 * What the workspace needs of the run's journal: append an event with the records it describes. The
 * engine's Journal implements it; the workspace never sees the engine.
 */
export interface JournalWriter {
    append<T extends EventType>(type: T, payload: EventPayloads[T], attachments?: EventAttachments, options?: AppendOptions): Promise<JournalEvent>;
}

/** Where the workspace stores files that no event records (the seeded persist/ projection, hidden inputs). */
export interface FileStore {
    /** Rejects with a RunFailure (`store.write_failed` / `store.quota_exceeded`) when storage fails. */
    putFile(file: WorkspaceFile): Promise<void>;
}
