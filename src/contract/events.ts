import * as z from 'zod';
import { TokenUsageSchema } from './model';
import { JournalEventSchema, RECORD_VERSION, RunStateSchema, WorkspaceFileSchema } from './records';
import { SkillScopeSchema } from './skills';
import { LoreDecisionSchema, LoreProposalSchema } from './lore';
import { StateChangeSchema } from './state';
import { PlanItemSchema } from './plan';

/**
 * The journal's events (noun-then-verb) and their payloads, as zod schemas: the one source of their types.
 * The journal is the truth: the panel, exports, resume and the model-facing conversation are projections of
 * these events. An imported run is checked against the schemas, so a crafted file cannot hand a reader a
 * payload of the wrong shape; extra fields pass (a sub-agent's events carry a task stamp), missing or
 * mistyped ones fail. Fields added after a format shipped are optional: stored journals keep loading.
 */
const text = z.string();
const count = z.number().int().nonnegative();
const nullableText = z.string().nullable();
const usage = TokenUsageSchema.nullable();

export const TaskStatusSchema = z.enum(['completed', 'failed', 'cancelled']);
export type TaskStatus = z.infer<typeof TaskStatusSchema>;

/** What made a checkpoint: a write (or the model's plain text), a patch, a commit of the file, a restore. */
export const CheckpointKindSchema = z.enum(['write', 'patch', 'commit', 'restore']);
export type CheckpointKind = z.infer<typeof CheckpointKindSchema>;

export const WrapUpReasonSchema = z.enum(['maxRounds', 'maxCallsPerRun']);
export type WrapUpReason = z.infer<typeof WrapUpReasonSchema>;

export const EVENT_PAYLOAD_SCHEMAS = {
    'run-create': z.object({ chatKey: text, chatId: text, profileId: text, generationType: text, foreground: z.boolean() }),
    'run-state': z.object({ from: RunStateSchema.nullable(), to: RunStateSchema }),
    /**
     * `request`: what was sent (issue 38 §1), by the content-addressed parts stored under request-parts/ (new
     * ones with this event): its messages in order, then its tool definitions. Absent in journals from before.
     * `tools`, the names of the tools offered, only in journals from before 2026-12-04: `request.tools` names
     * the stored set, and the names cost every round's event a few hundred bytes (issue 41 §2).
     */
    'model-request': z.object({
        round: count,
        messageCount: count,
        tools: z.array(text).optional(),
        wrapUp: z.boolean(),
        request: z.object({ parts: z.array(text), tools: text }).optional(),
    }),
    'model-retry': z.object({ round: count, attempt: count, delayMs: z.number(), status: z.number().nullable(), message: text }),
    'model-response': z.object({
        round: count,
        durationMs: z.number(),
        usage,
        text,
        reasoning: text,
        toolCalls: z.array(z.object({ id: text, name: text })),
        finishReason: nullableText,
        /** The raw response, kept as a hidden file: resume decodes it again into the same turn. */
        stored: text,
        /** Text protocol only: what the reader repaired in the model's calls (SPEC §9). */
        repairs: z.array(text).optional(),
        /** The turn's cost at its agent's profile prices (issue 38 §2); absent when the profile prices nothing. */
        cost: z.number().nonnegative().optional(),
    }),
    'model-reminder': z.object({ round: count, attempt: count, savedTo: text }),
    /** The agent's frozen skill set (SPEC §6), as resolved by scope and its profile's visible/deny. */
    'skills-resolve': z.object({ skills: z.array(z.object({ name: text, scope: SkillScopeSchema, hash: text })) }),
    /**
     * `callId` is unique in the run (providers may repeat their own ids, e.g. `call_0` every round);
     * `providerCallId` is the id the provider gave, used only to answer it. `counted`: the call counts
     * against the agent's budget (a call refused by policy does not; one with bad arguments does). Journals
     * written before it existed count every call of a known tool.
     */
    'tool-call-start': z.object({ callId: text, providerCallId: text.optional(), name: text, canonical: nullableText, argsPath: text, counted: z.boolean().optional() }),
    /**
     * `skillChars`: the skill text the call handed over (skill.read, skill.search), counted against the run's one
     * skill read budget, which a resume sums again from here (issue 39 §10). Absent: none, or a journal from before.
     */
    'tool-call-complete': z.object({ callId: text, name: text, durationMs: z.number(), summary: text, resultPath: text, skillChars: count.optional() }),
    'tool-call-fail': z.object({ callId: text, name: text, durationMs: z.number(), code: text, message: text, hint: text, resultPath: text }),
    /**
     * One tool a program called (script.run, issue 35), under the program's call `programCallId`: run with the
     * agent's rules, counted against its budget when `counted`, never part of its conversation. `code` is the
     * tool's error code when it failed.
     */
    'script-call': z.object({
        callId: text,
        programCallId: text,
        name: text,
        canonical: nullableText,
        counted: z.boolean(),
        durationMs: z.number(),
        summary: text,
        code: nullableText,
        argsPath: text,
        resultPath: text,
        /** As on `tool-call-complete`: skill text a program's skill.read or skill.search handed over. */
        skillChars: count.optional(),
    }),
    'file-write': z.object({ path: text, mode: z.enum(['replace', 'append', 'direct_output']), version: count, chars: count }),
    /** `edits`: each replacement as [offset, old length, new length] in the text before (absent in older journals). */
    'patch-apply': z.object({ path: text, replacements: count, version: count, edits: z.array(z.tuple([count, count, count])).max(10_000).optional() }),
    /** `kind` says what made it; checkpoints journaled before it existed get theirs from the events around them. */
    checkpoint: z.object({ seq: count, path: text, version: count, full: z.boolean(), kind: CheckpointKindSchema.optional() }),
    /** `maxRounds`: the profile's round budget, which a Continue offers again (absent in journals from before). */
    'budget-wrap-up': z.object({ reason: WrapUpReasonSchema, rounds: count, calls: count, maxRounds: count.optional() }),
    commit: z.object({ path: text, mode: z.enum(['replace', 'append']), messageId: z.number().int(), chars: count, reason: nullableText }),
    'persist-promote': z.object({ files: count }),
    /**
     * The promoted memory written into the committed message (SPEC §4: it travels with the chat), as every
     * file or as the change against the memory the run started from. Absent when there was nothing to write.
     */
    'memory-attach': z.object({ stored: z.boolean(), mode: z.enum(['full', 'delta']), bytes: count, reason: nullableText }),
    /** The run ended without an accepted workspace.finish: its persist/ changes do not reach the chat. */
    'persist-skip': z.object({ reason: text }),
    'run-finish': z.object({ reason: nullableText }),
    'run-fail': z.object({ code: text, message: text, detail: nullableText }),
    'run-cancel': z.object({ reason: text }),
    /**
     * A sub-agent task started by the delegate call `parentCallId` (SPEC §3 agent.delegate). Every event of
     * the task's own steps carries `taskId` and `parentCallId` in its payload too (see TaskStamp), so the
     * timeline nests them under that call. `task` is the task as the model gave it (`title` is the one
     * shown), so a resumed run rebuilds the sub-agent's conversation (absent in journals from before).
     */
    'task-start': z.object({
        taskId: text,
        agentId: text,
        agentName: text,
        title: text,
        objective: text,
        parentCallId: text,
        task: z
            .object({
                objective: text,
                title: text.optional(),
                context: z.record(z.string(), z.unknown()).optional(),
                expectedOutput: z.record(z.string(), z.unknown()).optional(),
            })
            .optional(),
    }),
    'task-end': z.object({
        taskId: text,
        agentId: text,
        parentCallId: text,
        status: TaskStatusSchema,
        summary: text,
        /** Why a task failed or was cancelled; null when it returned. */
        reason: nullableText,
        resultPath: nullableText,
        summaryPath: nullableText,
        rounds: count,
        calls: count,
        tokensIn: z.number(),
        tokensOut: z.number(),
        durationMs: z.number(),
    }),
    /**
     * Finished task results the parent had not awaited, put into its next model turn (once). `message` is the
     * note the model read (absent in journals written before resume could rebuild it).
     */
    'task-inject': z.object({ taskIds: z.array(text), message: text.optional() }),
    /**
     * A run that ran out of its budget goes on, as the same run, with `rounds` more model turns (issue 38 §5):
     * its loop starts again, told so, with a fresh allowance of rounds and calls.
     */
    'run-continue': z.object({ from: RunStateSchema, rounds: count, events: count }),
    /** An interrupted run goes on from its journal (`events` journaled before this one). */
    'run-resume': z.object({ from: RunStateSchema, events: count }),
    /** A checkpoint's text written back as the file's current version, from the timeline. */
    'checkpoint-restore': z.object({ seq: count, path: text, version: count }),
    /** The user steered the running agent (panel or `/agent guide`): queued until the agent's next turn. */
    'guidance-queue': z.object({ guidanceId: text, text }),
    /** Queued guidance put into the agent's next model turn as a user note (once). */
    'guidance-deliver': z.object({ guidanceIds: z.array(text), round: count }),
    /** A lore change the agent proposed (worldinfo.propose); nothing is written until the user accepts it. */
    'lore-propose': LoreProposalSchema,
    /** The user accepted (and where it was written) or discarded a proposal, from the panel. */
    'lore-decide': LoreDecisionSchema,
    /** A change of the chat's state the agent staged (state.patch, state.set, issue 36): written with the commit. */
    'state-change': StateChangeSchema,
    /**
     * Staged state written to the chat: with a commit (`messageId` its message) or, for changes staged after the
     * last commit or by a keeper, when the run completed. `changes`: how many staged changes it includes.
     */
    'state-write': z.object({ changes: count, messageId: z.number().int().nullable(), scopes: z.array(text), error: nullableText.optional() }),
    /**
     * Old tool results replaced by one-line stubs (issue 38 §3): each by its place in the agent's conversation,
     * the call it answered, and the visible copy (`path`, stored with this event) the agent can read again.
     * `tokens` is the request's estimated size that passed `limit`.
     */
    'conversation-compact': z.object({
        stubs: z.array(z.object({ index: count, callId: text, name: text, path: text })),
        tokens: count,
        limit: count,
    }),
    /** The agent's plan, replaced whole by plan.update (issue 38 §4): the timeline's checklist, the note of each turn. */
    'plan-update': z.object({ items: z.array(PlanItemSchema) }),
} as const;

export type EventType = keyof typeof EVENT_PAYLOAD_SCHEMAS;
export type EventPayloads = { [K in EventType]: z.infer<(typeof EVENT_PAYLOAD_SCHEMAS)[K]> };
export const EVENT_TYPES = Object.keys(EVENT_PAYLOAD_SCHEMAS) as EventType[]; // keys of a const object: exactly EventType

/** Fields a sub-agent task adds to the payload of each event of its own steps. */
export interface TaskStamp {
    taskId: string;
    parentCallId: string;
}

/** One journal event of one type: `{runId, seq, at, type, payload}`, the payload stamped when a task made it. */
export interface JournalEventOf<K extends EventType> {
    v: typeof RECORD_VERSION;
    runId: string;
    seq: number;
    at: number;
    type: K;
    payload: EventPayloads[K] & Partial<TaskStamp>;
}

/** A journal event: one discriminated union, so every reader switches over typed payloads. */
export type JournalEvent = { [K in EventType]: JournalEventOf<K> }[EventType];

/** An event before the journal numbers it: what the loop appends, and what the conversation reducer folds. */
export type EventFact = { [K in EventType]: { type: K; payload: EventPayloads[K] & Partial<TaskStamp> } }[EventType];

export function isEventType(type: string): type is EventType {
    return Object.hasOwn(EVENT_PAYLOAD_SCHEMAS, type);
}

/** The payload's problem, or null when the event is one of ours and well-formed. */
export function eventPayloadProblem(type: string, payload: unknown): string | null {
    if (!isEventType(type)) return `unknown event type "${type.slice(0, 60)}"`;
    const parsed = EVENT_PAYLOAD_SCHEMAS[type].safeParse(payload);
    if (parsed.success) return null;
    const issue = parsed.error.issues[0];
    return issue ? `${issue.path.join('.') || 'payload'}: ${issue.message}` : 'invalid payload';
}

/**
 * A stored or imported event envelope as a typed JournalEvent, once its type and payload are checked; or
 * what is wrong with it. The one place an untrusted envelope becomes a typed event.
 */
export function checkedEvent(raw: { v: typeof RECORD_VERSION; runId: string; seq: number; at: number; type: string; payload: unknown }): { ok: true; event: JournalEvent } | { ok: false; problem: string } {
    const problem = eventPayloadProblem(raw.type, raw.payload);
    if (problem) return { ok: false, problem };
    // Checked just above: the type is an EventType and the payload parses with that type's schema.
    return { ok: true, event: raw as JournalEvent };
}

/** The pair as one member of the union: TypeScript cannot correlate a generic key with its payload itself. */
export function eventFact<K extends EventType>(type: K, payload: EventPayloads[K]): EventFact {
    // Sound: `payload` is EventPayloads[K] for this very K, which is what the union's member for K holds.
    return { type, payload } as EventFact;
}

/**
 * How the journal stores one write (database version 4 on): the events of the batch, in seq order, as one
 * record of the `events` store keyed by its first event, with the small hidden files they describe inline
 * (store/event-groups.ts says which). `fileKeys` feeds the store's index of every inline file's
 * [runId, path]. `seqs` (every seq the group holds) fed a unique index in version 4 only: groups written
 * then still carry it, and nothing reads it. Records written before version 4 are single JournalEvents;
 * both kinds are read.
 */
export const EventGroupRecordSchema = z.object({
    v: z.literal(RECORD_VERSION),
    runId: z.string(),
    seq: z.number().int().nonnegative(),
    group: z.array(JournalEventSchema),
    seqs: z.array(z.tuple([z.string(), z.number().int().nonnegative()])).optional(),
    files: z.array(WorkspaceFileSchema).optional(),
    fileKeys: z.array(z.tuple([z.string(), z.string()])).optional(),
});
/** The schema checks the envelope of each grouped event; the store holds only events the journal wrote. */
export type EventGroupRecord = Omit<z.infer<typeof EventGroupRecordSchema>, 'group'> & { group: JournalEvent[] };
/** A record of the `events` store: one event (as written before version 4) or a group. */
export type StoredEventRecord = JournalEvent | EventGroupRecord;

/** Whether an event is of this type: a guard that narrows the union by a type named at run time. */
export function isEventOf<K extends EventType>(event: JournalEvent, type: K): event is JournalEvent & JournalEventOf<K> {
    return event.type === type;
}

/** The last event of a type in a batch, typed. */
export function lastEventOf<K extends EventType>(events: readonly JournalEvent[], type: K): (JournalEvent & JournalEventOf<K>) | undefined {
    for (let index = events.length - 1; index >= 0; index -= 1) {
        const event = events[index]!;
        if (isEventOf(event, type)) return event;
    }
    return undefined;
}
