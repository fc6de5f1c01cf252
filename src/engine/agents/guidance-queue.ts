import { fail, ok, type Result } from '../../contract/result';
import type { JournalWriter } from '../../workspace/journal-writer';
import type { GuidanceNote } from '../projection/model-notes';

export { guidanceMessage, type GuidanceNote } from '../projection/model-notes';

/** Guidance longer than this is refused: it is a steer for the next turn, not a new prompt. */
export const GUIDANCE_MAX_CHARS = 4000;

/**
 * The user's guidance for one running run (SPEC §7, issue 15.3): journaled when it arrives, held until the
 * root agent's next model turn, then taken once. The queue lives beside the run, so the page can add to it
 * while the loop waits on the model or a tool.
 */
export class GuidanceQueue {
    private pending: GuidanceNote[] = [];
    private journal: JournalWriter | null = null;
    private closed = false;
    private count = 0;

    /** The run's journal, once its session exists: guidance before that has nowhere to be journaled. */
    bind(journal: JournalWriter): void {
        this.journal = journal;
    }

    /**
     * A resumed run's guidance, as its journal left it: the notes queued and not yet put into a turn, and how
     * many were ever queued (ids go on from there).
     */
    restore(pending: readonly GuidanceNote[], queued: number): void {
        this.pending = [...pending];
        this.count = queued;
    }

    /** The run ended: later guidance is refused instead of silently lost. */
    close(): void {
        this.closed = true;
        this.pending = [];
    }

    async add(text: string): Promise<Result<{ guidanceId: string }>> {
        const trimmed = text.trim();
        if (!trimmed) return fail('run.invalid_input', 'The guidance is empty.');
        if (trimmed.length > GUIDANCE_MAX_CHARS) return fail('run.invalid_input', `The guidance is longer than ${GUIDANCE_MAX_CHARS} characters.`);
        if (this.closed || !this.journal) return fail('run.not_found', 'The run is not working right now: guidance reaches only a running agent.');
        this.count += 1;
        const note = { guidanceId: `g${this.count}`, text: trimmed };
        // Journal first: guidance the journal does not hold was never queued.
        await this.journal.append('guidance-queue', note);
        this.pending.push(note);
        return ok({ guidanceId: note.guidanceId });
    }

    /** Everything queued so far, each note once. */
    take(): GuidanceNote[] {
        const taken = this.pending;
        this.pending = [];
        return taken;
    }
}
