import type { TaskStatus } from '../../contract/events';
import { RunFailure } from '../../contract/errors';
import type { Profile } from '../../contract/profile';
import type { TaskSpec } from '../../tools/agent-access';
import { runAgentLoop } from '../loop/agent-loop';
import { finishCutTurn } from '../loop/finish-cut-turn';
import type { AgentInvocation } from './agent';
import { taskResultPath } from './task-access';
import type { TaskEntry } from './task-board';

/**
 * A sub-agent sees its target profile's tools, never the run's commit and finish or delegation, and always
 * task.return (SPEC §3).
 */
export function taskProfile(target: Profile): Profile {
    return {
        ...target,
        tools: { ...target.tools, allow: [...target.tools.allow, 'task.return'], deny: [...target.tools.deny, 'workspace.commit', 'workspace.finish', 'agent.*'] },
    };
}

/**
 * Runs one sub-agent task to its end, the same loop as the root agent: from its start, or (`spec` null)
 * from where its journal left it, finishing the turn it was cut off in. Its end is journaled whatever
 * happens; a failing child never fails its parent.
 */
export async function runTask(child: AgentInvocation, entry: TaskEntry, spec: TaskSpec | null): Promise<void> {
    const { journal, track } = child;
    if (spec) {
        await journal.append('task-start', {
            taskId: entry.taskId,
            agentId: entry.agentId,
            agentName: entry.agentName,
            title: entry.title,
            objective: spec.objective,
            parentCallId: entry.parentCallId,
            task: spec,
        });
        // The sub-agent's own skill set, resolved for its profile (agent-input.ts).
        await journal.append('skills-resolve', { skills: child.input.skills.map(({ name, scope, hash }) => ({ name, scope, hash })) });
    }
    let status: TaskStatus;
    let reason: string | null = null;
    try {
        if (!spec) await finishCutTurn(child);
        const end = await runAgentLoop(child);
        if (end.reason === 'finished') {
            status = entry.result?.status === 'failed' ? 'failed' : 'completed';
            if (status === 'failed') reason = 'The sub-agent reported that it could not complete the task.';
        } else {
            status = 'failed';
            reason = 'The sub-agent used its whole budget without calling task_return.';
        }
    } catch (error) {
        const failure = error instanceof RunFailure ? error : null;
        status = failure?.code === 'run.cancelled' || entry.controller.signal.aborted ? 'cancelled' : 'failed';
        reason =
            status === 'cancelled'
                ? String(entry.controller.signal.reason ?? 'The task was cancelled.')
                : `${failure?.message ?? 'The sub-agent hit an internal error.'}${failure ? ` (${failure.code})` : ''}`;
    }
    entry.status = status;
    entry.reason = reason;
    entry.endedAt = child.session.now();
    await journal
        .append('task-end', {
            taskId: entry.taskId,
            agentId: entry.agentId,
            parentCallId: entry.parentCallId,
            status,
            summary: entry.result?.summary ?? '',
            reason,
            resultPath: entry.result ? taskResultPath(entry.taskId) : null,
            summaryPath: entry.summaryPath,
            rounds: track.budget.rounds,
            calls: track.budget.calls,
            tokensIn: track.loop.tokensIn,
            tokensOut: track.loop.tokensOut,
            durationMs: entry.endedAt - entry.startedAt,
        })
        .catch(() => undefined); // storage failing under a child: the run's own next write reports it
}
