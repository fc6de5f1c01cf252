import { BUILD_LORE_PROFILE, BUILD_MEMORY_PROFILE, allChunksDone, buildFailed, buildFinished, buildResumed, buildStatus, buildStopped, chunkAt, chunkCount, chunkDone, chunkStarted, newBuildJob, type MemoryBuildJob, type MemoryBuildStatus } from '../../contract/memory-build';
import type { MemorySeed } from '../../contract/memory-seed';
import { newId } from '../../contract/new-id';
import type { ChatIdentity, RunRequest } from '../../contract/run-input';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { stopBackgroundRun } from '../run/background-runs';
import { launchBuildChunk } from '../run/new-run';
import { storedProfiles } from '../settings/profile-store';
import { isOpenChat, openChatIdentity, sameChat } from '../sillytavern/chat-identity';
import { stContext } from '../sillytavern/st-context';
import { getEngine } from '../worker/worker-client';
import { buildChunkRequest } from './build-input';
import { readBuildJob, writeBuildJob } from './build-store';
import { writeMemorySeed } from './seed-store';

/**
 * Building memory from a long chat (issue 37 §3): a background job over the open chat's existing messages, chunk
 * by chunk, oldest first; each chunk is one run of the memory keeper (then, when chosen, the lore keeper) that
 * starts from the memory the chunks before it left. The job is stored after every step (build-store.ts), so a
 * reload loses at most the chunk going on, and a run that completed is never run again. It never writes a chat
 * message; when the last chunk is done, its memory becomes the chat's memory seed.
 *
 * One job per chat; this tab works on at most one at a time (`active`).
 */
/** A first capture per profile (its skills are its own), taken again for each later chunk in this tab. */
type Captures = Map<string, { input: RunRequest | null }>;
let active: { job: MemoryBuildJob; stopping: boolean; runId: string | null; captures: Captures } | null = null;
const listeners = new Set<() => void>();

function changed(): void {
    for (const listener of [...listeners]) listener();
}

/** Called when a build starts, moves on a step or ends. Returns the unsubscribe function. */
export function onMemoryBuildChange(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
}

async function save(job: MemoryBuildJob): Promise<MemoryBuildJob> {
    await writeBuildJob(job);
    if (active && active.job.id === job.id) active.job = job;
    changed();
    return job;
}

/** Whether this tab is building memory now (between chunks too): its seed, written at the end, would replace an edit. */
export function memoryBuildWorking(): boolean {
    return active !== null;
}

/** The open chat's build (the one this tab works on, else the stored one), or null. */
export async function memoryBuildStatus(): Promise<MemoryBuildStatus | null> {
    const chat = openChatIdentity();
    if (!chat) return null;
    if (active && sameChat(active.job.chat, chat)) return buildStatus(active.job, true);
    const job = await readBuildJob(chat.integrity);
    return job ? buildStatus(job, false) : null;
}

/**
 * Starts a build of the open chat, or goes on with its unfinished one (a chunk done is never run again) unless
 * `restart`. `lore`: each chunk also runs the lore keeper (a new build only; a resumed one keeps its choice).
 */
export async function startMemoryBuild(options: { lore?: boolean; restart?: boolean } = {}): Promise<Result<MemoryBuildStatus>> {
    const chat = openChatIdentity();
    if (!chat) return fail('host.no_chat', t`Open a chat first.`);
    return takeOn(chat, async (stored) => {
        if (stored && stored.state !== 'finished' && !options.restart) return ok(buildResumed(stored, Date.now()));
        const messages = stContext().chat.length;
        if (messages === 0) return fail('memory.build_empty_chat', t`This chat has no messages to build memory from.`);
        const profile = await (await getEngine()).resolveProfile(BUILD_MEMORY_PROFILE, storedProfiles());
        if (!profile.ok) return fail('profile.not_found', profile.error.message);
        return ok(newBuildJob({ id: newId(), chat, messages, chunkSize: profile.value.memory.buildChunk, lore: options.lore === true, now: Date.now() }));
    });
}

/** Goes on with the open chat's stopped, failed or cut-off build from its first chunk not done. */
export async function resumeMemoryBuild(): Promise<Result<MemoryBuildStatus>> {
    const chat = openChatIdentity();
    if (!chat) return fail('host.no_chat', t`Open a chat first.`);
    return takeOn(chat, async (stored) =>
        !stored || stored.state === 'finished' ? fail('memory.build_not_found', t`This chat has no unfinished memory build to resume.`) : ok(buildResumed(stored, Date.now())),
    );
}

/** Between a start or resume and its lock: a second call is refused, not raced. */
let taking = false;

/**
 * Takes a build of `chat` on in this tab and answers at once, the build working on in the background. It runs
 * under the chat's Web Lock for builds, held while it works: two tabs never run one build (its chunks would
 * run twice, and one tab's restart would drop the other's chunks). The job is read and chosen under the lock.
 */
function takeOn(chat: ChatIdentity, choose: (stored: MemoryBuildJob | null) => Promise<Result<MemoryBuildJob>>): Promise<Result<MemoryBuildStatus>> {
    if (active || taking) return Promise.resolve(fail('memory.build_running', t`A memory build is already going on in this tab; stop it first.`));
    taking = true;
    return new Promise((resolve) => {
        const held = async (lock: unknown): Promise<void> => {
            let current: NonNullable<typeof active>;
            try {
                if (!lock) return resolve(fail('memory.build_running', t`Another tab is building this chat's memory.`));
                const chosen = await choose(await readBuildJob(chat.integrity));
                if (!chosen.ok) return resolve(chosen);
                current = { job: await save(chosen.value), stopping: false, runId: null, captures: new Map() };
            } catch (error) {
                return resolve(fail('run.internal_error', error instanceof Error ? error.message : String(error)));
            } finally {
                taking = false;
            }
            active = current;
            resolve(ok(buildStatus(current.job, true)));
            try {
                await work(current);
            } catch (error) {
                await save(buildFailed(current.job, { code: 'run.internal_error', message: error instanceof Error ? error.message : String(error) }, Date.now())).catch(() => undefined);
            } finally {
                if (active === current) active = null;
                changed();
            }
        };
        // Web Locks are in every browser SillyTavern supports; without them (an old one), this tab's guard alone.
        const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
        if (locks) void locks.request(`tavern-agent:memory-build:${chat.integrity}`, { ifAvailable: true }, held).catch(() => resolve(fail('memory.build_running', t`The memory build could not take its lock.`)));
        else void held(true);
    });
}

/** Stops this tab's build after its current run is stopped; resumable at the chunk not yet done. */
export async function stopMemoryBuild(): Promise<Result<MemoryBuildStatus>> {
    const current = active;
    if (!current) return fail('memory.build_not_found', t`No memory build is going on in this tab.`);
    current.stopping = true;
    if (current.runId) await stopBackgroundRun(current.runId, 'The memory build was stopped.');
    return ok(buildStatus(current.job, true));
}

async function work(current: NonNullable<typeof active>): Promise<void> {
    while (!allChunksDone(current.job)) {
        // Stopped by the user (between chunks, or its run stopped), or the chat cannot go on: the job keeps every chunk done.
        const refused = current.stopping ? null : chatRefusal(current.job);
        const ended = current.stopping || refused ? refused : await runChunk(current);
        if (current.stopping) {
            await save(buildStopped(current.job, Date.now()));
            return;
        }
        if (ended) {
            await save(buildFailed(current.job, ended, Date.now()));
            return;
        }
    }
    const { job } = current;
    const seed: MemorySeed = { v: 1, source: { kind: 'build', chunks: job.done, messages: job.messages }, at: new Date().toISOString(), files: job.files };
    const written = await writeMemorySeed(job.chat, seed);
    await save(written.ok ? buildFinished(job, Date.now()) : buildFailed(job, written.error, Date.now()));
}

function captureOf(captures: Captures, profileId: string): { input: RunRequest | null } {
    const kept = captures.get(profileId) ?? { input: null };
    captures.set(profileId, kept);
    return kept;
}

/** Why the next chunk cannot run in the open chat now (another chat open, messages deleted), or null. */
function chatRefusal(job: MemoryBuildJob): { code: string; message: string } | null {
    if (!isOpenChat(job.chat)) return { code: 'memory.chat_changed', message: t`Another chat is open: the memory build stopped. Open its chat again to resume it.` };
    if (stContext().chat.length < job.messages) return { code: 'memory.build_chat_changed', message: `${t`The chat has fewer messages than this build covers:`} ${job.messages}. ${t`Start it over.`}` };
    return null;
}

/**
 * One chunk: each profile's run in turn, each starting from the memory the one before it left. A run recorded
 * for this chunk that completed (before a reload, say) is taken as it is, not run again. Returns the error that
 * ended the chunk, or null when it is done (the job then counts it).
 */
async function runChunk(current: NonNullable<typeof active>): Promise<{ code: string; message: string } | null> {
    const chunk = chunkAt(current.job, current.job.done);
    if (!chunk) return null;
    const engine = await getEngine();
    const started = Date.now();
    const recorded = current.job.running?.chunk === chunk.index ? current.job.running.runs : [];
    const runs = [...recorded];
    let files = current.job.files;
    const profiles = current.job.lore ? [BUILD_MEMORY_PROFILE, BUILD_LORE_PROFILE] : [BUILD_MEMORY_PROFILE];
    const chunks = chunkCount(current.job.messages, current.job.chunkSize);
    for (const profileId of profiles) {
        const before = recorded.find((run) => run.profileId === profileId);
        const kept = before ? await engine.runMemory(before.runId) : null;
        if (kept?.ok && kept.value) {
            if (profileId === BUILD_MEMORY_PROFILE) files = kept.value;
            continue;
        }
        const seed: MemorySeed = { v: 1, source: { kind: 'build', chunks: chunk.index, messages: chunk.from }, at: new Date().toISOString(), files };
        const spec = { chunk: chunk.index + 1, chunks, from: chunk.from, to: chunk.to, seed };
        const launched = launchBuildChunk({
            type: 'normal',
            profileId,
            build: { chat: current.job.chat, upTo: chunk.to, shape: (captured) => buildChunkRequest(captured, spec), captured: captureOf(current.captures, profileId) },
            failureTitle: t`A memory build chunk failed`,
        });
        current.runId = launched.runId;
        const others = runs.filter((run) => run.profileId !== profileId);
        runs.splice(0, runs.length, ...others, { profileId, runId: launched.runId });
        await save(chunkStarted(current.job, runs, Date.now()));
        const outcome = await launched.outcome;
        current.runId = null;
        if (outcome.state !== 'completed') return outcome.error ?? { code: 'run.cancelled', message: t`The run was stopped.` };
        const memory = await engine.runMemory(launched.runId);
        if (!memory.ok) return memory.error;
        // A run that ended without workspace.finish kept no memory: the chunk is not done, and a resume runs it again.
        if (!memory.value) return { code: 'memory.build_chunk_unfinished', message: `${t`Chunk`} ${chunk.index + 1} ${t`ended without finishing its memory.`}` };
        if (profileId === BUILD_MEMORY_PROFILE) files = memory.value;
    }
    await save(chunkDone(current.job, files, Date.now() - started, Date.now()));
    return null;
}
