import type { ComponentChildren } from 'preact';
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
 * A nested timeline's rows (a sub-agent's steps) as list items, drawn by the row view itself. RowView hands
 * it to the detail and task views it draws, so they need not import RowView back (an import cycle).
 */
export type NestedRows = (nested: TimelineModel) => ComponentChildren;
