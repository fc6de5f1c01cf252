import type { TaskStatus } from '../../contract/events';
import { toolError, type ToolError } from '../../contract/errors';
import type { Profile } from '../../contract/profile';
import type { AgentAccess, AgentCard, TaskCapsule, TaskResult, TaskSpec } from '../../tools/agent-access';
import { taskResultsMessage } from '../projection/model-notes';
import type { RunSession } from '../run/run-session';
import { modelRefusal } from './model-configured';

/** Starts a sub-agent on a delegated task and settles when its end is journaled (the run's lifecycle provides it). */
export type StartTask = (entry: TaskEntry, target: Profile, task: TaskSpec) => Promise<void>;

export const AWAIT_MAX_MS = 300_000;

/** One sub-agent task, from delegate to its end. */
export interface TaskEntry {
    readonly taskId: string;
    readonly agentId: string;
    readonly agentName: string;
    readonly title: string;
    readonly parentCallId: string;
    readonly startedAt: number;
    readonly controller: AbortController;
    status: 'running' | TaskStatus;
    endedAt: number | null;
    result: TaskResult | null;
    reason: string | null;
    summaryPath: string | null;
    /** Whether the parent has seen the result (through agent.await or an injected note). */
    delivered: boolean;
    done: Promise<void>;
}

export function newTaskEntry(fields: Pick<TaskEntry, 'taskId' | 'agentId' | 'agentName' | 'title' | 'parentCallId' | 'startedAt'>): TaskEntry {
    return { ...fields, controller: new AbortController(), status: 'running', endedAt: null, result: null, reason: null, summaryPath: null, delivered: false, done: Promise.resolve() };
}

/** Who may call whom (SPEC §3): the caller may delegate, the target is callable as a sub-agent and lets it. */
export function delegationRefusal(caller: Profile, target: Profile): string | null {
    if (!caller.delegation.canDelegate) return `the profile "${caller.id}" may not delegate`;
    if (!target.delegation.callable || !target.delegation.allowAsSubagent) return `"${target.id}" is not callable as a sub-agent`;
    const callers = target.delegation.allowedCallers;
    if (!callers.includes('*') && !callers.includes(caller.id)) return `"${target.id}" accepts tasks only from ${callers.join(', ') || 'no one'}`;
    return null;
}

/**
 * The tasks one agent (the root) started: delegation checks and limits, the children's lifecycle, waiting,
 * and the results handed back — through agent.await, or put into the parent's next turn when not awaited.
 */
export class TaskBoard {
    private readonly tasks = new Map<string, TaskEntry>();
    private delegations = 0;

    constructor(
        private readonly session: RunSession,
        private readonly caller: Profile,
        private readonly startTask: StartTask,
    ) {}

    get size(): number {
        return this.tasks.size;
    }

    /** The agents of the run, frozen with its input (older runs: the user's profiles when it resumed). */
    private profiles(): readonly Profile[] {
        return this.session.input.agentProfiles ?? this.session.deps.profiles ?? [];
    }

    /** The agents this one may call: allowed both ways, and with a configured model (never itself). */
    candidates(): Profile[] {
        return this.profiles().filter((target) => target.id !== this.caller.id && this.refusal(target) === null);
    }

    /** Why `target` may not take a task from this agent, or null when it may. */
    private refusal(target: Profile): string | null {
        return (
            delegationRefusal(this.caller, target) ??
            (target.id === this.caller.id ? 'an agent does not delegate to itself' : null) ??
            modelRefusal(target, this.session.deps.connections)
        );
    }

    /** The delegation tools of the call `callId` (a delegate needs to know which call started its task). */
    accessFor(callId: string | null): AgentAccess {
        return {
            taskId: null,
            list: (filter) => this.list(filter),
            delegate: (agentId, task) => this.delegate(agentId, task, callId ?? 'call-unknown'),
            await: (request) => this.await(request),
            returnResult: async () => ({
                ok: false,
                error: toolError('agent.return_outside_task', 'task_return only ends a sub-agent task, and this agent is not working on one.', 'Finish your own work with the tools you were given.'),
            }),
        };
    }

    private list(filter: { purpose: string; query?: string; limit: number }): AgentCard[] {
        if (filter.purpose === 'handoff') return [];
        const query = filter.query?.trim().toLowerCase() ?? '';
        return this.candidates()
            .filter((p) => !query || `${p.id} ${p.displayName} ${p.description}`.toLowerCase().includes(query))
            .slice(0, filter.limit)
            .map((p) => ({ id: p.id, displayName: p.displayName, description: p.description, purposes: ['delegate'] }));
    }

    private candidateHint(): string {
        const names = this.candidates().map((p) => `${p.id} (${p.displayName})`);
        return names.length ? `Agents you may delegate to: ${names.join(', ')}.` : 'No agent is available to this one; do the work yourself.';
    }

    private delegate(agentId: string, task: TaskSpec, parentCallId: string): { ok: true; taskId: string; agentName: string } | { ok: false; error: ToolError } {
        const target = this.profiles().find((p) => p.id === agentId);
        if (!target) return { ok: false, error: toolError('agent.not_found', `There is no agent "${agentId}".`, this.candidateHint()) };
        const refusal = this.refusal(target);
        if (refusal) return { ok: false, error: toolError('agent.delegation_denied', `Delegation to "${agentId}" is not allowed: ${refusal}.`, this.candidateHint()) };
        const limits = this.caller.delegation;
        if (this.delegations >= limits.maxDelegationsPerRun) {
            return { ok: false, error: toolError('agent.delegation_limit', `This run may delegate at most ${limits.maxDelegationsPerRun} tasks; all are used.`, 'Await the tasks you have, or do the work yourself.') };
        }
        const running = [...this.tasks.values()].filter((t) => t.status === 'running').length;
        if (running >= limits.maxConcurrent) {
            return { ok: false, error: toolError('agent.delegation_limit', `At most ${limits.maxConcurrent} tasks may run at once, and ${running} are running.`, 'Call agent_await to wait for one to finish, then delegate again.') };
        }
        this.delegations += 1;
        const entry = newTaskEntry({
            taskId: this.session.nextTaskId(),
            agentId: target.id,
            agentName: target.displayName,
            title: task.title?.trim() || task.objective.slice(0, 80),
            parentCallId,
            startedAt: this.session.now(),
        });
        this.launch(entry, () => this.startTask(entry, target, task));
        return { ok: true, taskId: entry.taskId, agentName: target.displayName };
    }

    /** Runs a task's agent; the run's Stop reaches every child, a child's own cancel reaches only it. */
    private launch(entry: TaskEntry, run: () => Promise<void>): void {
        const onRunAbort = () => entry.controller.abort(this.session.signal.reason);
        if (this.session.signal.aborted) onRunAbort();
        else this.session.signal.addEventListener('abort', onRunAbort, { once: true });
        this.tasks.set(entry.taskId, entry);
        entry.done = run().finally(() => this.session.signal.removeEventListener('abort', onRunAbort));
    }

    /**
     * A resumed run's tasks, as its journal left them: a finished one keeps its result (its model is not asked
     * again), one cut off mid-way goes on with `resume` (from its own journal). Counts as the delegations made.
     */
    restore(entry: TaskEntry, resume: (() => Promise<void>) | null): void {
        this.delegations += 1;
        if (resume) this.launch(entry, resume);
        else this.tasks.set(entry.taskId, entry);
    }

    private async await(request: { taskIds?: string[]; mode: 'nextCompleted' | 'allCompleted' | 'statusOnly'; timeoutMs: number }) {
        const ids = request.taskIds && request.taskIds.length > 0 ? request.taskIds : [...this.tasks.keys()];
        const unknown = ids.filter((id) => !this.tasks.has(id));
        if (unknown.length > 0) {
            const own = [...this.tasks.keys()];
            return {
                ok: false as const,
                error: toolError('agent.task_not_found', `No task ${unknown.join(', ')} was started by this agent.`, own.length ? `Your tasks: ${own.join(', ')}.` : 'You have started no task; use agent_delegate first.'),
            };
        }
        const entries = ids.map((id) => this.tasks.get(id)!);
        let timedOut = false;
        if (request.mode !== 'statusOnly' && entries.length > 0) {
            const ready = () =>
                request.mode === 'allCompleted'
                    ? entries.every((e) => e.status !== 'running')
                    : entries.some((e) => e.status !== 'running' && !e.delivered) || entries.every((e) => e.status !== 'running');
            if (!ready()) {
                const settled = request.mode === 'allCompleted' ? Promise.all(entries.map((e) => e.done)) : Promise.race(entries.filter((e) => e.status === 'running').map((e) => e.done));
                timedOut = (await raceTimeout(settled, Math.min(request.timeoutMs, AWAIT_MAX_MS), this.session.signal)) === 'timeout';
            }
        }
        const deliver = request.mode !== 'statusOnly';
        const delivered = deliver ? entries.filter((entry) => entry.status !== 'running').map((entry) => entry.taskId) : [];
        const tasks = entries.map((entry) => this.capsule(entry, deliver));
        return { ok: true as const, tasks, timedOut, delivered };
    }

    private capsule(entry: TaskEntry, deliver: boolean): TaskCapsule {
        const capsule: TaskCapsule = {
            taskId: entry.taskId,
            agentId: entry.agentId,
            title: entry.title,
            status: entry.status,
            elapsedMs: (entry.endedAt ?? this.session.now()) - entry.startedAt,
        };
        if (entry.status === 'running') return capsule;
        if (deliver) entry.delivered = true;
        if (entry.reason) capsule.reason = entry.reason;
        if (entry.summaryPath) capsule.summaryPath = entry.summaryPath;
        const result = entry.result;
        if (result) {
            capsule.summary = result.summary;
            if (result.confidence) capsule.confidence = result.confidence;
            if (result.findings.length) capsule.findings = result.findings;
            if (result.warnings.length) capsule.warnings = result.warnings;
            if (result.artifacts.length) capsule.artifacts = result.artifacts;
        }
        return capsule;
    }

    /**
     * Finished results the parent has not awaited go into its next turn, once: journaled with the note the
     * model reads, which the run's projection puts into the parent's conversation.
     */
    async injectFinished(): Promise<void> {
        const finished = [...this.tasks.values()].filter((e) => e.status !== 'running' && !e.delivered);
        if (finished.length === 0) return;
        const capsules = finished.map((entry) => this.capsule(entry, true));
        await this.session.journal.append('task-inject', { taskIds: finished.map((e) => e.taskId), message: taskResultsMessage(capsules) });
    }

    cancelAll(reason: string): void {
        for (const entry of this.tasks.values()) if (entry.status === 'running') entry.controller.abort(reason);
    }

    /** Cancels what still runs and waits until every task has journaled its end. */
    async closeAll(reason: string): Promise<void> {
        this.cancelAll(reason);
        await Promise.allSettled([...this.tasks.values()].map((e) => e.done));
    }
}

function raceTimeout(settled: Promise<unknown>, ms: number, signal: AbortSignal): Promise<'settled' | 'timeout' | 'aborted'> {
    return new Promise((resolve) => {
        const timer = setTimeout(() => finish('timeout'), ms);
        const onAbort = () => finish('aborted');
        signal.addEventListener('abort', onAbort, { once: true });
        settled.then(() => finish('settled'), () => finish('settled'));
        function finish(how: 'settled' | 'timeout' | 'aborted') {
            clearTimeout(timer);
            signal.removeEventListener('abort', onAbort);
            resolve(how);
        }
    });
}
