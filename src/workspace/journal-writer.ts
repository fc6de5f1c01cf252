import type { EventPayloads, EventType } from '../contract/events';
import type { ModelTurn } from '../contract/model';
import type { ToolOutcome } from '../contract/tool-outcome';
import type { EventAttachments, WorkspaceFile } from '../contract/records';
import type { JournalEvent } from '../contract/events';

export interface AppendOptions {
    /**
     * Nothing acts on this event until the next one: it may be stored with that one, in one transaction
     * (the caller does not await it; a failure is reported by the next append).
     */
    defer?: boolean;
    /**
     * A deferred event may wait this long for company (default 0: the next task): a burst of them (a program's
     * tool calls) then goes to storage in a few writes instead of one each.
     */
    deferMs?: number;
    /**
     * What the event's files hold, already decoded by the caller (the model turn of a response, the outcome
     * of a call), for the run's projection of its journal: the same values it would read back from the files.
     */
    decoded?: { turn?: ModelTurn; outcome?: ToolOutcome };
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
    /** Stores files in one write: all of them or none. */
    putFiles(files: WorkspaceFile[]): Promise<void>;
}
