import type { RunState } from './records';
import type { TokenUsage } from './model';
import type { SkillScope } from './skills';

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
    };
    'model-reminder': { round: number; attempt: number; savedTo: string };
    'tool-call-start': { callId: string; name: string; canonical: string | null; argsPath: string };
    'tool-call-complete': { callId: string; name: string; durationMs: number; summary: string; resultPath: string };
    'tool-call-fail': { callId: string; name: string; durationMs: number; code: string; message: string; hint: string; resultPath: string };
    'file-write': { path: string; mode: 'replace' | 'append' | 'direct_output'; version: number; chars: number };
    'patch-apply': { path: string; replacements: number; version: number };
    checkpoint: { seq: number; path: string; version: number; full: boolean };
    'budget-wrap-up': { reason: 'maxRounds' | 'maxCallsPerRun'; rounds: number; calls: number };
    commit: { path: string; mode: 'replace' | 'append'; messageId: number; chars: number; reason: string | null };
    'persist-promote': { files: number };
    'run-finish': { reason: string | null };
    'run-fail': { code: string; message: string; detail: string | null };
    'run-cancel': { reason: string };
    /** A checkpoint's text written back as the file's current version, from the timeline. */
    'checkpoint-restore': { seq: number; path: string; version: number };
    /** The run's skill set, resolved and frozen at its start (shown in the run's details). */
    'skills-resolve': { skills: Array<{ name: string; scope: SkillScope; hash: string }> };
}

export type EventType = keyof EventPayloads;
