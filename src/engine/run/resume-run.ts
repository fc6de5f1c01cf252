import { RunFailure } from '../../contract/errors';
import type { JournalEvent } from '../../contract/events';
import type { WorkspaceFile } from '../../contract/records';
import type { RunOutcome } from '../../contract/run-input';
import type { TaskResult } from '../../tools/agent-access';
import { Workspace } from '../../workspace/workspace';
import type { AgentInvocation } from '../agents/agent';
import { runTask } from '../agents/run-task';
import { newTaskEntry, type TaskEntry } from '../agents/task-board';
import { finishCutTurn } from '../loop/finish-cut-turn';
import { ROOT_AGENT_KEY } from '../projection/agent-track';
import type { TaskFacts } from '../projection/run-projection';
import { fixMemoryBase } from './fix-run';
import type { MemoryBase } from './memory-base';
import { createRootAgent, createTaskAgent } from './run-agents';
import type { RunStart } from './run-start';
import type { ResumePlan } from './resume-plan';
import type { RunSession } from './run-session';

/**
 * Continues an interrupted run from its journal (issue 13 §1, issue 33 §4): its agents are built again by the
 * same factory, and the stored events are folded into their tracks by the same reducer as the live loop, so
 * conversations, budgets, guidance and sub-agent results are what they were; nothing confirmed runs again.
 * A finished task keeps its result; a task cut off mid-way goes on from its own journal. Each agent then
 * finishes the turn it was cut off in (the model call cut off is sent again).
 */
export async function beginResume(session: RunSession, plan: ResumePlan): Promise<RunStart | RunOutcome> {
    const { input, events, record } = plan;
    const { root, agents, entries, workspace, files, memory } = await rebuildRun(session, plan);
    if (plan.continueRounds !== undefined) {
        // Continued past its end (issue 38 §5): the same run, its failure on the budget no longer its outcome.
        session.record.error = null;
        await session.journal.append('run-continue', { from: record.state, rounds: plan.continueRounds, events: events.length });
    } else {
        await session.journal.append('run-resume', { from: record.state, events: events.length });
    }
    if (session.projection.finished) {
        // Cut off after its end was journaled: nothing is left to do but say so.
        await session.setState('completed');
        return { runId: input.runId, state: 'completed', messageId: session.record.messageId, error: null };
    }
    const cut: Array<[TaskEntry, AgentInvocation]> = [];
    for (const [taskId, entry] of entries) {
        const facts = session.projection.tasks.get(taskId);
        const child = agents.get(taskId);
        if (facts?.end) {
            restoreEnded(entry, facts, files, session.projection.delivered.has(taskId));
            root.tasks?.restore(entry, null);
        } else if (child) {
            cut.push([entry, child]);
        }
    }
    session.deps.guidance?.restore(session.projection.pendingGuidance(), session.projection.guidance.size);
    return {
        root,
        workspace,
        memory,
        async resume() {
            for (const [entry, child] of cut) root.tasks?.restore(entry, () => runTask(child, entry, null));
            await finishCutTurn(root);
        },
    };
}

/** A stored run's agents as its journal left them: built by the factory, its events folded into their tracks. */
export interface RebuiltRun {
    root: AgentInvocation;
    /** Every agent by the stamp its events carry (`root`, or a task id). */
    agents: Map<string, AgentInvocation>;
    entries: Map<string, TaskEntry>;
    workspace: Workspace;
    files: WorkspaceFile[];
    /** The memory the run started from: its pinned blocks are in the root agent's first message again. */
    memory: MemoryBase;
}

/**
 * Builds the run's agents again (the root, and a sub-agent per task it started) and folds the stored journal
 * into them. `onEvent` sees each event once it is applied (the conformance test compares each agent's
 * conversation, at each of its model requests, with what the model was shown).
 */
export async function rebuildRun(session: RunSession, plan: ResumePlan, onEvent?: (event: JournalEvent, agents: ReadonlyMap<string, AgentInvocation>) => void): Promise<RebuiltRun> {
    const { input, events } = plan;
    const { storage } = session.deps;
    const files = await storage.listFiles(input.runId);
    const workspace = new Workspace(input.runId, { visible: input.profile.workspace.visibleRoots, writable: input.profile.workspace.writableRoots }, session.fileStore, session.journal, session.now);
    workspace.restore(files, await storage.listCheckpoints(input.runId));
    const memory = await fixMemoryBase(input, storage);
    const root = createRootAgent(session, workspace, memory.files);
    const agents = new Map<string, AgentInvocation>([[ROOT_AGENT_KEY, root]]);
    const entries = new Map<string, TaskEntry>();
    for (const event of events) {
        if (event.type !== 'task-start') continue;
        const { payload } = event;
        const entry = newTaskEntry({ taskId: payload.taskId, agentId: payload.agentId, agentName: payload.agentName, title: payload.title, parentCallId: payload.parentCallId, startedAt: event.at });
        const target = (input.agentProfiles ?? session.deps.profiles ?? []).find((profile) => profile.id === payload.agentId);
        if (!target) throw new RunFailure('run.resume_failed', `The run cannot be resumed: its sub-agent "${payload.agentId}" is gone.`);
        // The task as the model gave it (format 2); older journals had only the shown title and objective.
        const spec = payload.task ?? { objective: payload.objective, title: payload.title };
        agents.set(payload.taskId, createTaskAgent(session, workspace, entry, target, spec));
        entries.set(payload.taskId, entry);
    }
    fold(session, events, files, agents, onEvent);
    return { root, agents, entries, workspace, files, memory };
}

/** Folds the stored journal into the run's projection, and each agent's writes into its read-state. */
function fold(
    session: RunSession,
    events: readonly JournalEvent[],
    files: readonly WorkspaceFile[],
    agents: ReadonlyMap<string, AgentInvocation>,
    onEvent?: (event: JournalEvent, agents: ReadonlyMap<string, AgentInvocation>) => void,
): void {
    const byPath = new Map(files.map((file) => [file.path, file.content]));
    const lookup = (path: string) => byPath.get(path);
    for (const event of events) {
        session.projection.apply(event, event.at, lookup);
        // What an agent wrote in full it has, in effect, read in full (as Workspace.write records live).
        const agent = agents.get(event.payload.taskId ?? ROOT_AGENT_KEY);
        if (event.type === 'file-write' && event.payload.mode !== 'append') agent?.workspace.readState.recordFull(event.payload.path, event.payload.version);
        // A patch read only what it wrote (journals before issue 39 kept no edits: read whole, as then).
        if (event.type === 'patch-apply') {
            const { path, version, edits } = event.payload;
            if (edits) agent?.workspace.readState.recordPatch(path, version - 1, version, edits.map(([offset, oldLength, newLength]) => ({ offset, oldLength, newLength })));
            else agent?.workspace.readState.recordFull(path, version);
        }
        onEvent?.(event, agents);
    }
    if (session.projection.messageId !== null) session.record.messageId = session.projection.messageId;
    // The run's skill reads before the cut count against the same budget after it.
    session.skillCharsRead = session.projection.skillChars;
}

/** A finished task as its end left it: status, reason, summary file, and its result for the parent. */
function restoreEnded(entry: TaskEntry, facts: TaskFacts, files: readonly WorkspaceFile[], delivered: boolean): void {
    const end = facts.end!;
    entry.status = end.status;
    entry.reason = end.reason;
    entry.summaryPath = end.summaryPath;
    entry.endedAt = facts.endedAt;
    entry.delivered = delivered;
    const stored = end.resultPath ? files.find((file) => file.path === end.resultPath) : undefined;
    entry.result = stored ? storedTaskResult(stored.content) : null;
}

/** A task's result file (written by task.return from its checked arguments), or null when unreadable. */
function storedTaskResult(content: string): TaskResult | null {
    try {
        const raw = JSON.parse(content) as Partial<TaskResult>;
        if (typeof raw.summary !== 'string' || (raw.status !== 'completed' && raw.status !== 'failed')) return null;
        const list = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
        return {
            summary: raw.summary,
            status: raw.status,
            ...(raw.confidence ? { confidence: raw.confidence } : {}),
            artifacts: Array.isArray(raw.artifacts) ? raw.artifacts : [],
            findings: list(raw.findings),
            warnings: list(raw.warnings),
            suggestedNextActions: list(raw.suggestedNextActions),
            questionsForCaller: list(raw.questionsForCaller),
        };
    } catch {
        return null;
    }
}
