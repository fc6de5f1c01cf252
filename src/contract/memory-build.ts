import * as z from 'zod';
import { ChatIdentitySchema } from './run-input';

/** The profiles a build runs on each chunk, in this order: the memory keeper always, the lore keeper when chosen. */
export const BUILD_MEMORY_PROFILE = 'memory-keeper';
export const BUILD_LORE_PROFILE = 'lore-keeper';

/**
 * A memory build (issue 37 §3): one background job over a chat's existing messages, chunk by chunk, oldest
 * first. Stored in this browser (host/memory/build-store.ts) after every chunk, so it survives a reload and
 * a chunk already done is never run again; `running` names the chunk's runs as they start, so a run that
 * completed just before a reload is taken, not run again.
 */
export const MemoryBuildJobSchema = z
    .object({
        v: z.literal(1),
        id: z.string().min(1),
        /** The chat it builds memory for; the job is keyed by its `integrity`. */
        chat: ChatIdentitySchema,
        /** The messages it covers: the chat's first `messages`, as many as it had when the job started. */
        messages: z.number().int().positive(),
        chunkSize: z.number().int().positive(),
        /** Whether each chunk also runs the lore keeper (lore proposals for the user to review). */
        lore: z.boolean(),
        /** Chunks done, the oldest first: chunk `done` (0-based) is the next one. */
        done: z.number().int().nonnegative(),
        /** The memory (persist/ files) the chunks done left: the next chunk starts from it. */
        files: z.record(z.string(), z.string()),
        /** How long each chunk done took (ms), for the estimate. */
        chunkMs: z.array(z.number().nonnegative()),
        /** The runs of the chunk going on (chunk index and run id per profile, in order), journaled before each starts. */
        running: z.object({ chunk: z.number().int().nonnegative(), runs: z.array(z.object({ profileId: z.string(), runId: z.string() })) }).nullable(),
        state: z.enum(['running', 'stopped', 'failed', 'finished']),
        error: z.object({ code: z.string(), message: z.string() }).nullable(),
        startedAt: z.number(),
        updatedAt: z.number(),
    })
    .strict();
export type MemoryBuildJob = z.infer<typeof MemoryBuildJobSchema>;

/** One chunk: message indexes `from` to `to`, both included. */
export interface BuildChunk {
    index: number;
    from: number;
    to: number;
}

/** How many chunks cover `messages` messages. */
export function chunkCount(messages: number, chunkSize: number): number {
    return Math.ceil(messages / Math.max(1, chunkSize));
}

/** Chunk `index` of the job (null past its last). */
export function chunkAt(job: Pick<MemoryBuildJob, 'messages' | 'chunkSize'>, index: number): BuildChunk | null {
    if (index < 0 || index >= chunkCount(job.messages, job.chunkSize)) return null;
    const from = index * job.chunkSize;
    return { index, from, to: Math.min(job.messages, from + job.chunkSize) - 1 };
}

/** A new job over a chat's first `messages` messages, going on from chunk 0 with no memory. */
export function newBuildJob(input: { id: string; chat: MemoryBuildJob['chat']; messages: number; chunkSize: number; lore: boolean; now: number }): MemoryBuildJob {
    const { id, chat, messages, chunkSize, lore, now } = input;
    return { v: 1, id, chat, messages, chunkSize, lore, done: 0, files: {}, chunkMs: [], running: null, state: 'running', error: null, startedAt: now, updatedAt: now };
}

/** The chunk's runs are about to start (recorded first, so a reload finds them). */
export function chunkStarted(job: MemoryBuildJob, runs: Array<{ profileId: string; runId: string }>, now: number): MemoryBuildJob {
    return { ...job, running: { chunk: job.done, runs }, state: 'running', error: null, updatedAt: now };
}

/** A chunk finished: its memory is the job's, and the next chunk follows (or, after the last, the seed is written). */
export function chunkDone(job: MemoryBuildJob, files: Record<string, string>, ms: number, now: number): MemoryBuildJob {
    return { ...job, done: job.done + 1, files, chunkMs: [...job.chunkMs, ms], running: null, updatedAt: now };
}

/** Whether every chunk is done (what is left is writing the seed). */
export function allChunksDone(job: Pick<MemoryBuildJob, 'done' | 'messages' | 'chunkSize'>): boolean {
    return job.done >= chunkCount(job.messages, job.chunkSize);
}

/** The seed is written: the job is over. Only once every chunk is done. */
export function buildFinished(job: MemoryBuildJob, now: number): MemoryBuildJob {
    return allChunksDone(job) ? { ...job, state: 'finished', running: null, error: null, updatedAt: now } : job;
}

/** Stopped by the user (or by a reload that cut it off): resumable at the chunk not yet done. */
export function buildStopped(job: MemoryBuildJob, now: number): MemoryBuildJob {
    return job.state === 'finished' ? job : { ...job, state: 'stopped', running: null, updatedAt: now };
}

/** A chunk failed: the job keeps every chunk done, and a resume runs the failed one again. */
export function buildFailed(job: MemoryBuildJob, error: { code: string; message: string }, now: number): MemoryBuildJob {
    return { ...job, state: 'failed', running: null, error, updatedAt: now };
}

/** Going on again from the first chunk not done (a finished job has nothing left to run). */
export function buildResumed(job: MemoryBuildJob, now: number): MemoryBuildJob {
    return job.state === 'finished' ? job : { ...job, state: 'running', error: null, updatedAt: now };
}

/** What the panel, `/agent memory build` and `TavernAgent.memory.buildStatus()` show of a job. */
export interface MemoryBuildStatus {
    jobId: string;
    chatId: string;
    state: MemoryBuildJob['state'];
    /** Whether this tab is working on it now (a `running` job no tab works on was cut off: resume it). */
    active: boolean;
    /** Chunks done, and of how many; the chunk going on is `done + 1` (1-based). */
    done: number;
    chunks: number;
    messages: number;
    chunkSize: number;
    lore: boolean;
    /** The time left, from the chunks done (null before the first is done, or when finished). */
    remainingMs: number | null;
    error: { code: string; message: string } | null;
}

/** Time left: the mean of the chunks done (the last few, as a model's speed drifts) times the chunks left. */
export function estimateRemainingMs(job: Pick<MemoryBuildJob, 'chunkMs' | 'done' | 'messages' | 'chunkSize' | 'state'>): number | null {
    const left = chunkCount(job.messages, job.chunkSize) - job.done;
    if (job.state === 'finished' || left <= 0) return null;
    const recent = job.chunkMs.slice(-5);
    if (recent.length === 0) return null;
    const mean = recent.reduce((sum, ms) => sum + ms, 0) / recent.length;
    return Math.round(mean * left);
}

export function buildStatus(job: MemoryBuildJob, active: boolean): MemoryBuildStatus {
    return {
        jobId: job.id,
        chatId: job.chat.chatId,
        state: job.state === 'running' && !active ? 'stopped' : job.state,
        active,
        done: job.done,
        chunks: chunkCount(job.messages, job.chunkSize),
        messages: job.messages,
        chunkSize: job.chunkSize,
        lore: job.lore,
        remainingMs: estimateRemainingMs(job),
        error: job.error,
    };
}
