import type { EventPayloads, EventType, TaskStamp } from '../../contract/events';
import type { EventAttachments } from '../../contract/records';
import type { JournalEvent } from '../../contract/events';
import type { AppendOptions, JournalWriter } from '../../workspace/journal-writer';

/**
 * A sub-agent's view of the run's one journal: every event it appends carries its task id and the delegate
 * call that started it, so the timeline nests the task's steps under that call. Sequence numbers stay the
 * run's own.
 */
export function taskJournal(journal: JournalWriter, stamp: TaskStamp): JournalWriter {
    return {
        append<T extends EventType>(type: T, payload: EventPayloads[T], attachments?: EventAttachments, options?: AppendOptions): Promise<JournalEvent> {
            return journal.append(type, { ...payload, ...stamp }, attachments, options);
        },
    };
}
