import { IMPORTED_CHAT_KEY } from '../../contract/archive';
import type { JournalEvent } from '../../contract/events';
import type { RunRecord } from '../../contract/records';
import { fail, ok, type Result } from '../../contract/result';
import type { RunInput } from '../../contract/run-input';
import type { RunStorage } from '../../store/run-storage';
import { loadStoredInput } from './stored-input';

/** What a resume needs, read and checked before anything is written. */
export interface ResumePlan {
    record: RunRecord;
    input: RunInput;
    events: JournalEvent[];
    /** A Continue (issue 38 §5): the run ended on its budget and goes on with this many more rounds. */
    continueRounds?: number;
}

/** The most rounds one Continue gives (issue 38 §5). */
export const MAX_CONTINUE_ROUNDS = 200;

/**
 * Whether a run ended on its budget, so a Continue may give it more rounds: it failed with
 * `run.budget_exhausted`, or its wrap-up turn (since its last Continue) ended it with a reply committed.
 */
export function endedOnBudget(record: RunRecord, events: readonly JournalEvent[]): boolean {
    if (record.state === 'failed') return record.error?.code === 'run.budget_exhausted';
    if (record.state !== 'completed' || record.messageId === null) return false;
    for (let index = events.length - 1; index >= 0; index -= 1) {
        const type = events[index]!.type;
        if (type === 'run-continue') return false;
        if (type === 'budget-wrap-up' && !events[index]!.payload.taskId) return true;
    }
    return false;
}

/**
 * What a Continue needs, read and checked before anything is written: refused with `run.not_continuable`
 * unless the run ended on its budget; `rounds` defaults to its profile's round budget, at most 200.
 */
export async function planContinue(storage: RunStorage, runId: string, rounds?: number): Promise<Result<ResumePlan>> {
    const record = await storage.getRun(runId);
    if (!record) return fail('run.not_found', 'This run no longer exists.');
    if (rounds !== undefined && (!Number.isInteger(rounds) || rounds < 1 || rounds > MAX_CONTINUE_ROUNDS)) {
        return fail('run.not_continuable', `A run continues with 1 to ${MAX_CONTINUE_ROUNDS} more rounds.`);
    }
    const events = await storage.listEvents(runId);
    if (!endedOnBudget(record, events)) {
        return fail('run.not_continuable', `This run is ${record.state} and did not end on its budget; only a run that ran out of rounds or calls can continue.`);
    }
    const stored = await loadStoredInput(storage, runId);
    if (!stored) return fail('run.inputs_missing', "This run's frozen inputs (prompt, chat, profile) are gone, so it cannot continue.");
    if (stored.format < 2 && events.some((event) => event.type === 'task-start')) {
        return fail('run.not_resumable', 'This run delegated to sub-agents under an older version of Tavern Agent, which did not keep what a Continue needs.');
    }
    const continueRounds = rounds ?? Math.min(MAX_CONTINUE_ROUNDS, stored.input.profile.tools.maxRounds);
    return ok({ record, input: stored.input, events, continueRounds });
}

/**
 * Whether an interrupted run can go on, and from what. Refused (as data, with a reason the user can act
 * on) when the run is not interrupted (`run.not_interrupted`), its frozen inputs are gone
 * (`run.inputs_missing`), or it was stored in a format too old to rebuild what it did (`run.not_resumable`:
 * a run that delegated before sub-agent tasks journaled their whole spec).
 */
export async function planResume(storage: RunStorage, runId: string): Promise<Result<ResumePlan>> {
    const record = await storage.getRun(runId);
    if (!record) return fail('run.not_found', 'This run no longer exists.');
    // An imported run is a copy to look at (issue 39 §5): whatever state it claims, it never runs again.
    if (record.chatKey === IMPORTED_CHAT_KEY) return fail('run.read_only', 'Imported runs are read-only: an imported run cannot be resumed.');
    if (record.state !== 'interrupted') return fail('run.not_interrupted', `This run is ${record.state}; only an interrupted run can be resumed.`);
    const stored = await loadStoredInput(storage, runId);
    if (!stored) return fail('run.inputs_missing', "This run's frozen inputs (prompt, chat, profile) are gone, so it cannot be resumed.");
    const events = await storage.listEvents(runId);
    if (stored.format < 2 && events.some((event) => event.type === 'task-start')) {
        return fail('run.not_resumable', 'This run delegated to sub-agents under an older version of Tavern Agent, which did not keep what a resume needs.');
    }
    return ok({ record, input: stored.input, events });
}
