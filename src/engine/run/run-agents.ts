import type { Profile } from '../../contract/profile';
import type { TaskSpec } from '../../tools/agent-access';
import type { Workspace } from '../../workspace/workspace';
import type { AgentInvocation } from '../agents/agent';
import { createAgent } from '../agents/create-agent';
import { runTask, taskProfile } from '../agents/run-task';
import { TaskBoard, type TaskEntry } from '../agents/task-board';
import { taskJournal } from '../agents/task-journal';
import type { RunSession } from './run-session';

/**
 * The run's agents, all from the one factory: the root agent with its task board, and a sub-agent for each
 * task it delegates (its profile's roots over the run's files, its journal stamped with its task).
 */
export function createRootAgent(session: RunSession, workspace: Workspace, memory: Readonly<Record<string, string>>): AgentInvocation {
    const profile = session.input.profile;
    const board = new TaskBoard(session, profile, (entry, target, spec) => runTask(createTaskAgent(session, workspace, entry, target, spec), entry, spec));
    return createAgent({ session, profile, task: null, workspace, journal: session.journal, signal: session.signal, delegation: board, memory });
}

export function createTaskAgent(session: RunSession, workspace: Workspace, entry: TaskEntry, target: Profile, spec: TaskSpec): AgentInvocation {
    const journal = taskJournal(session.journal, { taskId: entry.taskId, parentCallId: entry.parentCallId });
    return createAgent({
        session,
        profile: taskProfile(target),
        task: { entry, spec },
        workspace: workspace.viewFor({ visible: target.workspace.visibleRoots, writable: target.workspace.writableRoots }, journal),
        journal,
        signal: entry.controller.signal,
        delegation: null,
        memory: null,
    });
}
