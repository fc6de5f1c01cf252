import { t } from '../../i18n/t';
import { stateLabel } from '../../i18n/state-label';
import { END_STATES, type RunSummary, type TaskCounts, type TaskInfo } from './rows';

/**
 * What the timeline says about sub-agent tasks. A task still "running" in the journal of a run that has
 * ended (the page was reloaded mid-run, so no task-end was written) is shown as stopped with its run,
 * never as running forever.
 */

export type ShownTaskStatus = TaskInfo['status'] | 'interrupted';

export function shownTaskStatus(task: TaskInfo, runState: string): ShownTaskStatus {
    if (task.status !== 'running' || !END_STATES.has(runState)) return task.status;
    return runState === 'interrupted' ? 'interrupted' : 'cancelled';
}

export function shownTaskCounts(summary: RunSummary): TaskCounts {
    const counts = summary.tasks;
    if (!END_STATES.has(summary.state) || counts.running === 0) return counts;
    return { ...counts, running: 0, cancelled: counts.cancelled + counts.running };
}

/** "1 running · 2 done · 0 failed" (and the cancelled ones when there are some); '' for a run without tasks. */
export function taskCountsText(summary: RunSummary): string {
    const c = shownTaskCounts(summary);
    if (c.running + c.completed + c.failed + c.cancelled === 0) return '';
    // Counts and words apart: the i18n table holds whole words, never number templates.
    const parts = [`${c.running} ${t`running`}`, `${c.completed} ${t`done`}`, `${c.failed} ${t`failed`}`];
    if (c.cancelled) parts.push(`${c.cancelled} ${t`cancelled`}`);
    return parts.join(' · ');
}

/** A task's states are run states by name (running, completed, failed, cancelled, interrupted). */
export function taskStatusLabel(status: ShownTaskStatus): string {
    return stateLabel(status);
}

export interface TaskFigures {
    elapsedMs: number;
    rounds: number;
    calls: number;
    tokensIn: number;
    tokensOut: number;
}

/**
 * A task's figures: from its task-end once it ended; while it runs, counted live from its own steps
 * (`own` is the nested timeline's summary) and the clock, which stops when the run ended (`runEndedAt`).
 */
export function taskFigures(task: TaskInfo, own: RunSummary, now: number, runEndedAt: number | null): TaskFigures {
    if (task.final) {
        const f = task.final;
        return { elapsedMs: f.durationMs, rounds: f.rounds, calls: f.calls, tokensIn: f.tokensIn, tokensOut: f.tokensOut };
    }
    const end = task.endedAt ?? runEndedAt ?? now;
    return { elapsedMs: Math.max(0, end - task.startedAt), rounds: own.rounds, calls: own.calls, tokensIn: own.tokensIn, tokensOut: own.tokensOut };
}
