import { fail, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import type { CommitTarget } from '../chat/commit';
import { getEngine } from '../worker/worker-client';

export interface ActiveRun {
    runId: string;
    state: string;
}

/** This tab's run: one at a time, so `/agent stop`, Stop and `status()` always mean the same run. */
let active: (ActiveRun & { controller: AbortController; target: CommitTarget }) | null = null;

export function activeRun(): ActiveRun | null {
    return active ? { runId: active.runId, state: active.state } : null;
}

/** Makes a run this tab's active run (drive-run.ts); false when another one is going on. */
export function claimActiveRun(run: ActiveRun & { controller: AbortController; target: CommitTarget }): boolean {
    if (active) return false;
    active = run;
    return true;
}

/** The active run's state as the worker last reported it (its `run-state` events). */
export function setActiveRunState(runId: string, state: string): void {
    if (active && active.runId === runId) active.state = state;
}

export function releaseActiveRun(runId: string): void {
    if (active?.runId === runId) active = null;
}

/** Stops the active run: its model call is aborted, and it never commits afterwards. */
export async function cancelActiveRun(reason: string): Promise<boolean> {
    const run = active;
    if (!run) return false;
    run.target.closed = true;
    run.controller.abort(reason);
    const engine = await getEngine();
    await engine.cancelRun(run.runId, reason);
    return true;
}

/** Queues the user's guidance for the active run (panel or `/agent guide`): it reaches the model at its next turn. */
export async function guideActiveRun(text: string): Promise<Result<{ guidanceId: string }>> {
    const run = active;
    if (!run) return fail('run.not_found', t`No agent run is working in this tab: guidance reaches only a running agent.`);
    const engine = await getEngine();
    return engine.guideRun(run.runId, text);
}
