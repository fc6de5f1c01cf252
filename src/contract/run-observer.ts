import type { JournalEvent } from './events';
import type { ModelStreamDelta } from './model-stream';
import type { GenerationType, RunOutcome } from './run-input';

/** What the page's run controller reports about the run it is driving (the panel's live timeline listens). */
export interface RunObserver {
    onRunStart(runId: string, type: GenerationType): void;
    onEvents(events: JournalEvent[]): void;
    onRunEnd(outcome: RunOutcome): void;
    /** A streamed model call's progress so far (transient: never journaled); observers may ignore it. */
    onModelDelta?(delta: ModelStreamDelta): void;
}
