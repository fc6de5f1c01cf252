import type { TaskStatus } from '../../contract/events';
import type { TokenUsage } from '../../contract/model';
import type { SkillScope } from '../../contract/skills';
import type { PlanItem } from '../../contract/plan';
import type { RequestRef } from '../../contract/request-parts';

/**
 * The rows the timeline draws: projections of journal events. A row object is never changed after it is
 * handed out; an update replaces it, so RowView (row-view.tsx) skips rendering while its row is the same object.
 */

/** `stopped`: the run ended (stopped, failed, interrupted) before this call finished or even started. */
type CallStatus = 'pending' | 'running' | 'completed' | 'error' | 'stopped';

interface RowBase {
    /** Stable across updates: `m<seq>` model turn, `c<callId>` tool call, `e<seq>` anything else. */
    key: string;
    /** The journal event the row shows now (undefined for a call only announced so far). */
    eventType: string | undefined;
    /** When the row began (ms since epoch). */
    at: number;
}

export interface ModelRow extends RowBase {
    kind: 'model';
    round: number;
    wrapUp: boolean;
    /** `stopped`: the run ended before the model answered (no row spins once its run is over). */
    status: 'running' | 'completed' | 'stopped';
    durationMs: number | null;
    usage: TokenUsage | null;
    text: string;
    reasoning: string;
    toolCalls: Array<{ id: string; name: string }>;
    finishReason: string | null;
    stored: string | null;
    /** The turn's cost at its profile's prices; null when unpriced (issue 38 §2). */
    cost: number | null;
    /** What the model was sent, by its stored parts (issue 38 §1); null in journals from before. */
    request: RequestRef | null;
}

/** A workspace change: a write, a patch, the model's plain text, or a restored checkpoint. */
export interface FileChange {
    path: string;
    action: 'replace' | 'append' | 'direct_output' | 'patch' | 'restore';
    version: number;
    /** The checkpoint holding the change (its diff), once journaled. */
    checkpointSeq: number | null;
    chars: number | null;
    replacements: number | null;
}

export interface ToolRow extends RowBase {
    kind: 'tool';
    callId: string;
    name: string;
    canonical: string | null;
    status: CallStatus;
    argsPath: string | null;
    resultPath: string | null;
    durationMs: number | null;
    summary: string;
    error: { code: string; message: string; hint: string } | null;
    changes: FileChange[];
    /** Events of sub-agent tasks this call started (nested timeline), by count; the rows live in the model. */
    nestedCount: number;
    /**
     * The tools a program (script.run) called, in order, each a finished call of its own (`script-call`
     * events): drawn nested under the program's row, inside it, so the list's rows stay the run's own.
     */
    innerCalls: readonly ToolRow[];
}

export interface FileRow extends RowBase {
    kind: 'file';
    change: FileChange;
}

export interface CommitRow extends RowBase {
    kind: 'commit';
    path: string;
    mode: 'replace' | 'append';
    messageId: number;
    chars: number;
    reason: string | null;
}

export type NoteTone = 'info' | 'ok' | 'error';

/** Retries, reminders, wrap-up, memory saved, finish, failure, cancel, and any event type added later. */
export interface NoteRow extends RowBase {
    kind: 'note';
    tone: NoteTone;
    /** What the note says, from the event payload; labels are chosen (and translated) at render time. */
    payload: Record<string, unknown>;
}

export type TimelineRow = ModelRow | ToolRow | FileRow | CommitRow | NoteRow;

export interface RunSummary {
    runId: string;
    state: string;
    generationType: string;
    profileId: string;
    chatKey: string | null;
    chatId: string | null;
    foreground: boolean;
    startedAt: number | null;
    lastAt: number | null;
    /** Set once the run reached an end state. */
    endedAt: number | null;
    tokensIn: number;
    tokensOut: number;
    /** What the run's model turns cost, its sub-agents' included; null while none was priced. */
    cost: number | null;
    rounds: number;
    calls: number;
    failedCalls: number;
    messageId: number | null;
    error: { code: string; message: string } | null;
    /** Files under output/ the run wrote (a draft to commit after a failure). */
    outputPaths: string[];
    events: number;
    /** The skill set frozen at the run's start (`skills-resolve`); null for a run that journaled none. */
    skills: Array<{ name: string; scope: SkillScope; hash: string }> | null;
    /** Sub-agent tasks by status (tokens and calls above already include theirs). */
    tasks: TaskCounts;
    /** The run's wrap-up turn came (since its last Continue): with `roundBudget`, what a Continue offers (issue 38 §5). */
    wrappedUp: boolean;
    roundBudget: number | null;
    /** The agent's plan as its last plan.update set it (issue 38 §4); null before one. */
    plan: PlanItem[] | null;
}

export type TaskState = 'running' | TaskStatus;

export interface TaskCounts {
    running: number;
    completed: number;
    failed: number;
    cancelled: number;
}

/** One sub-agent task, from its task-start and task-end events (SPEC §3 agent.delegate, task.return). */
export interface TaskInfo {
    taskId: string;
    agentId: string;
    agentName: string;
    title: string;
    objective: string;
    parentCallId: string;
    status: TaskState;
    startedAt: number;
    endedAt: number | null;
    summary: string;
    /** Why it failed or was cancelled. */
    reason: string | null;
    resultPath: string | null;
    summaryPath: string | null;
    /** The task-end's figures; while it runs, the nested timeline's own summary counts. */
    final: { rounds: number; calls: number; tokensIn: number; tokensOut: number; durationMs: number } | null;
}

export const END_STATES: ReadonlySet<string> = new Set(['completed', 'failed', 'cancelled', 'interrupted']);
