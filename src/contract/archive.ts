import type { CheckpointKind } from './events';

/** What the timeline reads of a stored run (engine/run-archive.ts produces these). */

/** Imported runs live under their own chat key: viewable, never mixed into a chat's history. */
export const IMPORTED_CHAT_KEY = 'imported';

export interface RunFileInfo {
    path: string;
    version: number;
    chars: number;
    /** In a hidden store (input/, tool-args/, tool-results/, model-responses/): shown read-only. */
    hidden: boolean;
}

export interface CheckpointInfo {
    seq: number;
    path: string;
    at: number;
    full: boolean;
    /** What made it (write, patch, commit, restore). */
    kind: CheckpointKind;
    /** The file's version it holds. */
    version: number;
}

export interface CheckpointDiff {
    seq: number;
    path: string;
    before: string;
    after: string;
    kind: CheckpointKind;
    /** Line diff: -1 removed, 0 kept, 1 added. */
    ops: Array<{ op: -1 | 0 | 1; text: string }>;
    /** Past the diff's bounds (an imported run's huge or scattered change): `ops` is the new text, kept. */
    tooLarge?: true;
}
