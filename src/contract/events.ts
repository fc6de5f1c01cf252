import type { RunState } from './records';
import type { TokenUsage } from './model';
import type { SkillScope } from './skills';
import type { LoreDecision, LoreProposal } from './lore';

/**
 * The journal's event types (noun-then-verb) and their payloads. The journal is the truth: the panel,
 * exports and replay are projections of these events.
 */
export interface EventPayloads {
    'run-create': { chatKey: string; chatId: string; profileId: string; generationType: string; foreground: boolean };
    'run-state': { from: RunState | null; to: RunState };
    'model-request': { round: number; messageCount: number; tools: string[]; wrapUp: boolean };
    'model-retry': { round: number; attempt: number; delayMs: number; status: number | null; message: string };
    'model-response': {
        round: number;
        durationMs: number;
        usage: TokenUsage | null;
        text: string;
        reasoning: string;
        toolCalls: Array<{ id: string; name: string }>;
        finishReason: string | null;
        stored: string;
        /** Text protocol only: what the reader repaired in the model's calls (SPEC §9). */
        repairs?: string[];
    };
    'model-reminder': { round: number; attempt: number; savedTo: string };
    /** The run's frozen skill set (SPEC §6), as resolved by scope and the profile's visible/deny. */
    'skills-resolve': { skills: Array<{ name: string; scope: SkillScope; hash: string }> };
    /**
     * `callId` is unique in the run (providers may repeat their own ids, e.g. `call_0` every round);
     * `providerCallId` is the id the provider gave, used only to answer it.
     */
    'tool-call-start': { callId: string; providerCallId?: string; name: string; canonical: string | null; argsPath: string };
    'tool-call-complete': { callId: string; name: string; durationMs: number; summary: string; resultPath: string };
    'tool-call-fail': { callId: string; name: string; durationMs: number; code: string; message: string; hint: string; resultPath: string };
    'file-write': { path: string; mode: 'replace' | 'append' | 'direct_output'; version: number; chars: number };
    'patch-apply': { path: string; replacements: number; version: number };
    /** `kind` says what made it; checkpoints journaled before it existed get theirs from the events around them. */
    checkpoint: { seq: number; path: string; version: number; full: boolean; kind?: CheckpointKind };
    'budget-wrap-up': { reason: 'maxRounds' | 'maxCallsPerRun'; rounds: number; calls: number };
    commit: { path: string; mode: 'replace' | 'append'; messageId: number; chars: number; reason: string | null };
    'persist-promote': { files: number };
    /**
     * The promoted memory written into the committed message (SPEC §4: it travels with the chat), as every
     * file or as the change against the memory the run started from. Absent when there was nothing to write.
     */
    'memory-attach': { stored: boolean; mode: 'full' | 'delta'; bytes: number; reason: string | null };
    /** The run ended without an accepted workspace.finish: its persist/ changes do not reach the chat. */
    'persist-skip': { reason: string };
    'run-finish': { reason: string | null };
    'run-fail': { code: string; message: string; detail: string | null };
    'run-cancel': { reason: string };
    /**
     * A sub-agent task started by the delegate call `parentCallId` (SPEC §3 agent.delegate). Every event of
     * the task's own steps carries `taskId` and `parentCallId` in its payload too (see TaskStamp), so the
     * timeline nests them under that call.
     */
    'task-start': { taskId: string; agentId: string; agentName: string; title: string; objective: string; parentCallId: string };
    'task-end': {
        taskId: string;
        agentId: string;
        parentCallId: string;
        status: TaskStatus;
        summary: string;
        /** Why a task failed or was cancelled; null when it returned. */
        reason: string | null;
        resultPath: string | null;
        summaryPath: string | null;
        rounds: number;
        calls: number;
        tokensIn: number;
        tokensOut: number;
        durationMs: number;
    };
    /** Finished task results the parent had not awaited, put into its next model turn (once). */
    'task-inject': { taskIds: string[] };
    /** An interrupted run goes on from its journal (`events` journaled before this one). */
    'run-resume': { from: RunState; events: number };
    /** A checkpoint's text written back as the file's current version, from the timeline. */
    'checkpoint-restore': { seq: number; path: string; version: number };
    /** The user steered the running agent (panel or `/agent guide`): queued until the agent's next turn. */
    'guidance-queue': { guidanceId: string; text: string };
    /** Queued guidance put into the agent's next model turn as a user note (once). */
    'guidance-deliver': { guidanceIds: string[]; round: number };
    /** A lore change the agent proposed (worldinfo.propose); nothing is written until the user accepts it. */
    'lore-propose': LoreProposal;
    /** The user accepted (and where it was written) or discarded a proposal, from the panel. */
    'lore-decide': LoreDecision;
}

export type EventType = keyof EventPayloads;

/** What made a checkpoint: a write (or the model's plain text), a patch, a commit of the file, a restore. */
export type CheckpointKind = 'write' | 'patch' | 'commit' | 'restore';

export type TaskStatus = 'completed' | 'failed' | 'cancelled';

/** Fields a sub-agent task adds to the payload of each event of its own steps. */
export interface TaskStamp {
    taskId: string;
    parentCallId: string;
}
