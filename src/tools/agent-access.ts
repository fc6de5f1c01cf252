import type { TaskStatus } from '../contract/events';
import type { ToolError } from '../contract/errors';

/** One agent this agent may call (agent.list). */
export interface AgentCard {
    id: string;
    displayName: string;
    description: string;
    /** What it may be used for: `delegate` (a sub-agent task). */
    purposes: string[];
}

export interface TaskSpec {
    objective: string;
    title?: string;
    context?: Record<string, unknown>;
    expectedOutput?: Record<string, unknown>;
}

export interface TaskResult {
    summary: string;
    status: 'completed' | 'failed';
    confidence?: 'low' | 'medium' | 'high';
    artifacts: Array<{ path: string; kind?: string; role?: string }>;
    findings: string[];
    warnings: string[];
    suggestedNextActions: string[];
    questionsForCaller: string[];
}

/** A task as agent.await reports it: compact, with the result when there is one. */
export interface TaskCapsule {
    taskId: string;
    agentId: string;
    title: string;
    status: 'running' | TaskStatus;
    elapsedMs: number;
    summary?: string;
    reason?: string;
    confidence?: string;
    findings?: string[];
    warnings?: string[];
    artifacts?: TaskResult['artifacts'];
    summaryPath?: string;
}

/**
 * What agent tools see of delegation (SPEC §3): the engine's task board for the calling agent. Refusals
 * come back as ToolErrors; nothing here throws for a mistake the model can fix.
 */
export interface AgentAccess {
    /** The task this agent works on, or null for the run's root agent. */
    readonly taskId: string | null;
    list(filter: { purpose: 'any' | 'delegate' | 'handoff'; query?: string; limit: number }): AgentCard[];
    delegate(agentId: string, task: TaskSpec): { ok: true; taskId: string; agentName: string } | { ok: false; error: ToolError };
    /** `delivered`: the finished tasks whose results this answer hands over (the parent has seen them). */
    await(request: { taskIds?: string[]; mode: 'nextCompleted' | 'allCompleted' | 'statusOnly'; timeoutMs: number }): Promise<{ ok: true; tasks: TaskCapsule[]; timedOut: boolean; delivered: string[] } | { ok: false; error: ToolError }>;
    /** Stores the result of this agent's task and ends it (only inside a task). */
    returnResult(result: TaskResult): Promise<{ ok: true; resultPath: string; summaryPath: string } | { ok: false; error: ToolError }>;
}
