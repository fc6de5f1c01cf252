import type { TaskStatus } from '../../contract/events';
import { RunFailure, toolError } from '../../contract/errors';
import type { WireMessage } from '../../contract/model';
import type { Profile } from '../../contract/profile';
import type { AgentAccess, TaskResult, TaskSpec } from '../../tools/agent-access';
import type { RunControls } from '../../tools/tool';
import type { Workspace } from '../../workspace/workspace';
import { runAgentLoop } from '../loop/agent-loop';
import { Budget } from './budget';
import { applyContextSettings } from './context';
import { Dispatcher } from './dispatch';
import { taskInstructions, taskMessage } from './instructions';
import { newLoopState, newSkillAccess, type AgentInvocation } from './invocation';
import type { RunSession } from '../run/run-session';
import type { TaskEntry } from './task-board';
import { taskJournal } from './task-journal';

/** The one tool a sub-agent may still call when its budget is spent. */
const TASK_WRAP_UP_TOOLS: ReadonlySet<string> = new Set(['task.return']);

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

/** `summaries/<agentId>-result.md`, then `-2`, `-3` … for repeats. */
function summaryPathFor(workspace: Workspace, agentId: string): string {
    for (let n = 1; ; n += 1) {
        const path = `summaries/${agentId}-result${n === 1 ? '' : `-${n}`}.md`;
        if (!workspace.get(path)) return path;
    }
}

function summaryMarkdown(entry: TaskEntry, result: TaskResult): string {
    const list = (title: string, items: string[]) => (items.length ? [`## ${title}`, ...items.map((item) => `- ${item}`), ''] : []);
    return [
        `# ${entry.agentName}: ${entry.title}`,
        '',
        `Status: ${result.status}${result.confidence ? ` · confidence ${result.confidence}` : ''}`,
        '',
        result.summary,
        '',
        ...list('Findings', result.findings),
        ...list('Warnings', result.warnings),
        ...list('Artifacts', result.artifacts.map((a) => `${a.path}${a.kind ? ` (${a.kind})` : ''}${a.role ? ` — ${a.role}` : ''}`)),
        ...list('Suggested next actions', result.suggestedNextActions),
        ...list('Questions for the caller', result.questionsForCaller),
    ].join('\n');
}

/**
 * Runs one sub-agent task to its end: the target profile's budget, tools, roots and instructions over the
 * run's frozen snapshot, the same loop as the root agent. Its end is journaled whatever happens; a failing
 * child never fails its parent.
 */
export async function runTask(entry: TaskEntry, target: Profile, task: TaskSpec, session: RunSession, workspace: Workspace): Promise<void> {
    const journal = taskJournal(session.journal, { taskId: entry.taskId, parentCallId: entry.parentCallId });
    const profile = taskProfile(target);
    const budget = new Budget(profile.tools, TASK_WRAP_UP_TOOLS);
    const dispatcher = new Dispatcher(session.deps.tools, profile, budget, { wrapUpTools: TASK_WRAP_UP_TOOLS, insideTask: true });
    const view = workspace.viewFor({ visible: target.workspace.visibleRoots, writable: target.workspace.writableRoots }, journal);
    const state = newLoopState();
    const refusedHere = (what: string): never => {
        throw new RunFailure('run.internal_error', `A sub-agent tried to ${what}.`);
    };
    const controls: RunControls = {
        foreground: false,
        hasCommitted: () => false,
        commit: async () => refusedHere('commit to the chat'),
        finish: () => refusedHere('finish the run'),
    };
    const access: AgentAccess = {
        taskId: entry.taskId,
        list: () => [],
        delegate: () => ({ ok: false, error: toolError('agent.delegation_denied', 'A sub-agent does not delegate.', 'Do the task yourself.') }),
        await: async () => ({ ok: false, error: toolError('agent.task_not_found', 'A sub-agent has no tasks of its own.', 'Return your result with task_return.') }),
        async returnResult(result) {
            const summaryPath = summaryPathFor(view, entry.agentId);
            const resultPath = `agent-results/${entry.taskId}.json`;
            await view.writeHidden(resultPath, JSON.stringify({ taskId: entry.taskId, agentId: entry.agentId, title: entry.title, ...result }, null, 1));
            await view.write(summaryPath, summaryMarkdown(entry, result), 'replace');
            entry.result = result;
            entry.summaryPath = summaryPath;
            state.finished = true;
            state.finishReason = result.summary;
            return { ok: true, resultPath, summaryPath };
        },
    };
    const conversation: WireMessage[] = [
        { role: 'system', content: taskInstructions(session.input, profile, task, dispatcher.visibleTools(false).map((t) => t.alias)) },
        ...applyContextSettings(session.input.prompt, target.context, session.input.worldInfo.entries).map((m) => ({ role: m.role, content: m.content ?? '' })),
        { role: 'user', content: taskMessage(task) },
    ];
    const child: AgentInvocation = {
        session,
        profile,
        taskId: entry.taskId,
        foreground: false,
        workspace: view,
        journal,
        signal: entry.controller.signal,
        budget,
        dispatcher,
        controls,
        skills: newSkillAccess(session),
        agentsFor: () => access,
        tasks: null,
        conversation,
        state,
    };
    await journal.append('task-start', { taskId: entry.taskId, agentId: entry.agentId, agentName: entry.agentName, title: entry.title, objective: task.objective, parentCallId: entry.parentCallId });

    let status: TaskStatus;
    let reason: string | null = null;
    try {
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
    entry.endedAt = session.now();
    await journal
        .append('task-end', {
            taskId: entry.taskId,
            agentId: entry.agentId,
            parentCallId: entry.parentCallId,
            status,
            summary: entry.result?.summary ?? '',
            reason,
            resultPath: entry.result ? `agent-results/${entry.taskId}.json` : null,
            summaryPath: entry.summaryPath,
            rounds: budget.rounds,
            calls: budget.calls,
            tokensIn: state.tokensIn,
            tokensOut: state.tokensOut,
            durationMs: entry.endedAt - entry.startedAt,
        })
        .catch(() => undefined); // storage failing under a child: the run's own next write reports it
}
