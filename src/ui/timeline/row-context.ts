import type { ComponentChildren } from 'preact';
import type { TimelineRow } from './rows';
import type { TimelineModel } from './timeline-model';

/**
 * What a row needs to know about its run. Kept the same object while the run goes on (the run's summary is
 * read from `model.summary` when a row renders), so rows whose row object did not change are not rendered.
 */
export interface RowContext {
    model: TimelineModel;
    /** Ended, stored and not imported: checkpoints may be restored, drafts committed. */
    canRestore: boolean;
    /** Distinguishes the rows of nested (sub-agent) timelines in the expanded set. */
    keyPrefix: string;
}

/**
 * Rows nested in a row as list items, drawn by the row view itself: a sub-agent's steps (its nested timeline's
 * rows), or the calls a program made (in the run's own timeline). RowView hands it to the detail and task
 * views it draws, so they need not import RowView back (an import cycle).
 */
export type NestedRows = (rows: readonly TimelineRow[], model: TimelineModel) => ComponentChildren;
