import * as z from 'zod';
import type { EventType } from './events';
import { TokenUsageSchema } from './model';
import { RunStateSchema } from './records';
import { LoreDecisionSchema, LoreProposalSchema } from './lore';

/**
 * The journal's payloads as zod schemas, one per event type: an imported run is checked against them, so
 * a crafted file cannot hand the timeline a payload of the wrong shape. Extra fields pass (a sub-agent's
 * events carry a task stamp); missing or mistyped ones fail. Keyed by EventType, so a new event type does
 * not typecheck until it has a schema here.
 */
const text = z.string();
const count = z.number().int().nonnegative();
const nullableText = z.string().nullable();

const usage = TokenUsageSchema.nullable();

export const EVENT_PAYLOAD_SCHEMAS = {
    'run-create': z.looseObject({ chatKey: text, chatId: text, profileId: text, generationType: text, foreground: z.boolean() }),
    'run-state': z.looseObject({ from: RunStateSchema.nullable(), to: RunStateSchema }),
    'model-request': z.looseObject({ round: count, messageCount: count, tools: z.array(text), wrapUp: z.boolean() }),
    'model-retry': z.looseObject({ round: count, attempt: count, delayMs: z.number(), status: z.number().nullable(), message: text }),
    'model-response': z.looseObject({
        round: count,
        durationMs: z.number(),
        usage,
        text,
        reasoning: text,
        toolCalls: z.array(z.looseObject({ id: text, name: text })),
        finishReason: nullableText,
        stored: text,
    }),
    'model-reminder': z.looseObject({ round: count, attempt: count, savedTo: text }),
    'skills-resolve': z.looseObject({ skills: z.array(z.looseObject({ name: text, scope: text, hash: text })) }),
    'tool-call-start': z.looseObject({ callId: text, providerCallId: text.optional(), name: text, canonical: nullableText, argsPath: text }),
    'tool-call-complete': z.looseObject({ callId: text, name: text, durationMs: z.number(), summary: text, resultPath: text }),
    'tool-call-fail': z.looseObject({ callId: text, name: text, durationMs: z.number(), code: text, message: text, hint: text, resultPath: text }),
    'file-write': z.looseObject({ path: text, mode: z.enum(['replace', 'append', 'direct_output']), version: count, chars: count }),
    'patch-apply': z.looseObject({ path: text, replacements: count, version: count }),
    checkpoint: z.looseObject({ seq: count, path: text, version: count, full: z.boolean() }),
    'budget-wrap-up': z.looseObject({ reason: z.enum(['maxRounds', 'maxCallsPerRun']), rounds: count, calls: count }),
    commit: z.looseObject({ path: text, mode: z.enum(['replace', 'append']), messageId: z.number().int(), chars: count, reason: nullableText }),
    'persist-promote': z.looseObject({ files: count }),
    'memory-attach': z.looseObject({ stored: z.boolean(), mode: z.enum(['full', 'delta']), bytes: count, reason: nullableText }),
    'persist-skip': z.looseObject({ reason: text }),
    'run-finish': z.looseObject({ reason: nullableText }),
    'run-fail': z.looseObject({ code: text, message: text, detail: nullableText }),
    'run-cancel': z.looseObject({ reason: text }),
    'task-start': z.looseObject({ taskId: text, agentId: text, agentName: text, title: text, objective: text, parentCallId: text }),
    'task-end': z.looseObject({
        taskId: text,
        agentId: text,
        parentCallId: text,
        status: z.enum(['completed', 'failed', 'cancelled']),
        summary: text,
        reason: nullableText,
        resultPath: nullableText,
        summaryPath: nullableText,
        rounds: count,
        calls: count,
        tokensIn: z.number(),
        tokensOut: z.number(),
        durationMs: z.number(),
    }),
    'task-inject': z.looseObject({ taskIds: z.array(text) }),
    'checkpoint-restore': z.looseObject({ seq: count, path: text, version: count }),
    'run-resume': z.looseObject({ from: RunStateSchema, events: count }),
    'guidance-queue': z.looseObject({ guidanceId: text, text }),
    'guidance-deliver': z.looseObject({ guidanceIds: z.array(text), round: count }),
    'lore-propose': LoreProposalSchema,
    'lore-decide': LoreDecisionSchema,
} satisfies Record<EventType, z.ZodType>;

/** The payload's problem, or null when the event is one of ours and well-formed. */
export function eventPayloadProblem(type: string, payload: unknown): string | null {
    const schema = (EVENT_PAYLOAD_SCHEMAS as Record<string, z.ZodType | undefined>)[type];
    if (!schema) return `unknown event type "${type.slice(0, 60)}"`;
    const parsed = schema.safeParse(payload);
    if (parsed.success) return null;
    const issue = parsed.error.issues[0];
    return issue ? `${issue.path.join('.') || 'payload'}: ${issue.message}` : 'invalid payload';
}
