import type { Profile } from '../../contract/profile';
import type { RunInput } from '../../contract/run-input';
import type { AgentAccess, TaskSpec } from '../../tools/agent-access';
import type { RunControls, ScriptAccess, SkillAccess } from '../../tools/tool';
import type { JournalWriter } from '../../workspace/journal-writer';
import type { Workspace } from '../../workspace/workspace';
import type { AgentTrack } from '../projection/agent-track';
import type { RunSession } from '../run/run-session';
import type { Dispatcher } from './dispatch';
import type { TaskBoard, TaskEntry } from './task-board';

/**
 * One agent working inside a run: the root agent, or a sub-agent on one task. Both run the same loop over
 * the same session and files; each has its own profile, input view, budget, tools and conversation.
 */
export interface AgentInvocation {
    readonly session: RunSession;
    readonly profile: Profile;
    /** What this agent's tools read: the run's frozen snapshot, seen with this agent's profile and skills. */
    readonly input: RunInput;
    /** The task this agent works on, or null for the root agent. */
    readonly taskId: string | null;
    readonly foreground: boolean;
    readonly workspace: Workspace;
    /** The run's journal, stamped with the task for a sub-agent. */
    readonly journal: JournalWriter;
    /** The run's cancel signal, or a sub-agent's own (cancelled with its task). */
    readonly signal: AbortSignal;
    readonly dispatcher: Dispatcher;
    readonly controls: RunControls;
    readonly skills: SkillAccess;
    /** Delegation as the tool call `callId` sees it; undefined for an agent built without a task board. */
    agentsFor(callId: string): AgentAccess | undefined;
    /** The sandbox as the script tool call `callId` uses it; undefined where the run has no sandbox. */
    scriptsFor(callId: string): ScriptAccess | undefined;
    /** The tasks this agent started (null for a sub-agent: they never delegate). */
    readonly tasks: TaskBoard | null;
    /** Its projection of the journal: conversation, loop state and budget. */
    readonly track: AgentTrack;
}

/** What an agent is made of (issue 33 §5): the invocation factory builds the root and every sub-agent from one. */
export interface AgentSpec {
    session: RunSession;
    /** The profile it works with, as it applies here (a sub-agent's gains task.return, loses commit and finish). */
    profile: Profile;
    /** The sub-agent's task, or null for the root agent. */
    task: { entry: TaskEntry; spec: TaskSpec } | null;
    /** Its view of the run's files (its own roots and read-state). */
    workspace: Workspace;
    journal: JournalWriter;
    signal: AbortSignal;
    /** The tasks it may start, or null when it does not delegate. */
    delegation: TaskBoard | null;
    /** The chat's persist/ files the run started from, whose pinned blocks open the root agent's prompt; null for a sub-agent. */
    memory: Readonly<Record<string, string>> | null;
}
