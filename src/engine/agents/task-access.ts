import { toolError } from '../../contract/errors';
import type { AgentAccess, TaskResult } from '../../tools/agent-access';
import type { Workspace } from '../../workspace/workspace';
import type { TaskEntry } from './task-board';

/**
 * Summary paths handed out in a run's workspace and not yet written: two tasks of one agent returning at the
 * same time (issue 39 §10) would otherwise both find `-result.md` free across the await before either writes.
 */
const reserved = new WeakMap<Workspace, Set<string>>();

/** `summaries/<agentId>-result.md`, then `-2`, `-3` … for repeats; reserved at once, so no two tasks share one. */
function reserveSummaryPath(workspace: Workspace, agentId: string): string {
    const taken = reserved.get(workspace) ?? new Set<string>();
    reserved.set(workspace, taken);
    for (let n = 1; ; n += 1) {
        const path = `summaries/${agentId}-result${n === 1 ? '' : `-${n}`}.md`;
        if (!workspace.get(path) && !taken.has(path)) {
            taken.add(path);
            return path;
        }
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

/** Where a task's full result is kept (hidden), for the parent and a resume. */
export function taskResultPath(taskId: string): string {
    return `agent-results/${taskId}.json`;
}

/**
 * Delegation as a sub-agent sees it (SPEC §3): it does not delegate or await, and task.return stores its
 * result (a hidden JSON file and a readable summary) and ends its task.
 */
export function taskAccess(entry: TaskEntry, view: Workspace): AgentAccess {
    return {
        taskId: entry.taskId,
        list: () => [],
        delegate: () => ({ ok: false, error: toolError('agent.delegation_denied', 'A sub-agent does not delegate.', 'Do the task yourself.') }),
        await: async () => ({ ok: false, error: toolError('agent.task_not_found', 'A sub-agent has no tasks of its own.', 'Return your result with task_return.') }),
        async returnResult(result) {
            const summaryPath = reserveSummaryPath(view, entry.agentId);
            const resultPath = taskResultPath(entry.taskId);
            await view.writeHidden(resultPath, JSON.stringify({ taskId: entry.taskId, agentId: entry.agentId, title: entry.title, ...result }, null, 1));
            await view.write(summaryPath, summaryMarkdown(entry, result), 'replace');
            entry.result = result;
            entry.summaryPath = summaryPath;
            return { ok: true, resultPath, summaryPath };
        },
    };
}
