import { RunFailure } from '../../contract/errors';

/** The failure a cancel ends an agent with: the run's Stop, or a sub-agent's task cancelled alone. */
export function cancelledFailure(inTask: boolean): RunFailure {
    return new RunFailure('run.cancelled', inTask ? 'The task was cancelled.' : 'The run was stopped.');
}

export function checkCancelled(agent: { signal: AbortSignal; taskId: string | null }): void {
    if (agent.signal.aborted) throw cancelledFailure(agent.taskId !== null);
}
