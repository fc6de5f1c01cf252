/**
 * Tavern Agent's public API: `globalThis.TavernAgent`, for STscript, other extensions and the browser
 * console (SPEC §9). Every method that can fail rejects with an Error whose message ends in its stable code,
 * e.g. "An agent run is already in progress. (run.already_running)"; the code is also on `error.code`.
 */

export type TavernAgentRunState =
    | 'created'
    | 'preparing'
    | 'running'
    | 'awaiting_commit'
    | 'finishing'
    | 'completed'
    | 'failed'
    | 'cancelled'
    | 'interrupted';

export interface TavernAgentStatus {
    /** Agent Mode for the open chat. */
    enabled: boolean;
    /** The open chat's file id (null on the welcome screen): what `runs({chatId})` takes. */
    chatId: string | null;
    profileId: string;
    /** Who works before, on and after each reply of the open chat. */
    pipeline: TavernAgentPipeline;
    run: { runId: string; state: string } | null;
}

/**
 * A chat's pipeline: an agent profile that runs `before` each reply (a director: its brief goes into the
 * reply's prompt), who writes the `reply` (`agent`: the chat's agent; `sillytavern`: SillyTavern's own
 * generation, with your preset), and the profiles that run `after` it, in order, in the background (keepers).
 * The default, `{ before: null, reply: 'agent', after: [] }`, is Agent Mode as it always was.
 */
export interface TavernAgentPipeline {
    before: string | null;
    reply: 'agent' | 'sillytavern';
    after: string[];
}

export interface TavernAgentPipelineApi {
    /** The open chat's pipeline (the default on the welcome screen). */
    get(): TavernAgentPipeline;
    /**
     * Sets any part of the open chat's pipeline and resolves with the new one. Rejects, changing nothing, with
     * `pipeline.invalid` (a part unknown or of the wrong kind, a profile listed twice in `after`, more than 8
     * after), `profile.not_found` / `profile.invalid` (a profile that does not exist / does not validate) or
     * `host.no_chat`.
     */
    set(change: Partial<TavernAgentPipeline>): Promise<TavernAgentPipeline>;
}

/** A memory build of the open chat (issue 37 §3): chunk `done + 1` of `chunks` is the one going on. */
export interface TavernAgentMemoryBuildStatus {
    jobId: string;
    chatId: string;
    /** `stopped` also for a build no tab works on any more (a reload cut it off): `resumeBuild()` goes on. */
    state: 'running' | 'stopped' | 'failed' | 'finished';
    /** Whether this tab is working on it now. */
    active: boolean;
    done: number;
    chunks: number;
    messages: number;
    chunkSize: number;
    lore: boolean;
    /** Milliseconds left, from the chunks done; null before the first is done and once finished. */
    remainingMs: number | null;
    error: { code: string; message: string } | null;
}

/** A chat's memory seed as `memory.seedFrom` and `/agent memory from` report it. */
export interface TavernAgentSeedSummary {
    /** The chat the memory came from (its file name, without `.jsonl`). */
    chat: string;
    /** When it was copied (ISO 8601). */
    at: string;
    /** The memory files (under persist/) it holds. */
    paths: string[];
    /** Its size as it travels in the chat's metadata. */
    bytes: number;
}

export interface TavernAgentMemoryApi {
    /**
     * Builds the open chat's memory from its existing messages in the background, in chunks of the memory
     * keeper's `memory.buildChunk` messages (40 by default), oldest first; `lore: true` also runs the lore keeper
     * on each chunk (its proposals wait for review). Goes on with the chat's unfinished build unless `restart`.
     * Resolves with the status at once. Never changes a chat message; when done, the memory is the chat's memory
     * seed. Rejects with `memory.build_running`, `memory.build_empty_chat`, `host.no_chat`, `profile.not_found`.
     */
    build(options?: { lore?: boolean; restart?: boolean }): Promise<TavernAgentMemoryBuildStatus>;
    /** The open chat's build, or null when it has none. */
    buildStatus(): Promise<TavernAgentMemoryBuildStatus | null>;
    /** Stops this tab's build (`memory.build_not_found` when none is going on). */
    stopBuild(): Promise<TavernAgentMemoryBuildStatus>;
    /** Goes on from the first chunk not done (`memory.build_not_found` when there is nothing to resume). */
    resumeBuild(): Promise<TavernAgentMemoryBuildStatus>;
    /**
     * Copies the latest memory of another chat of the open character (or group) — the last of its messages that
     * carries memory, or its own seed — into the open chat's metadata as its memory seed: runs of the open chat
     * start from it until one of its messages carries memory. Rejects, changing nothing, with
     * `memory.chat_not_found` (no chat of this character by that name, or the open chat itself),
     * `memory.no_memory` (that chat carries none), `memory.chat_too_large`, `memory.seed_too_large`,
     * `memory.chat_changed` (another chat was opened meanwhile) or `host.no_chat`.
     */
    seedFrom(chatFileName: string): Promise<TavernAgentSeedSummary>;
    /** The open chat's memory seed, or null (none, or no chat open). `chat` is '' for a seed a memory build left. */
    seed(): TavernAgentSeedSummary | null;
}

/** One journal event of a run. `type` is noun-then-verb: run-create, run-state, model-request, model-response, tool-call-start, tool-call-complete, tool-call-fail, file-write, commit, run-finish, run-fail, run-cancel, … */
export interface TavernAgentEvent {
    /** 0, 1, 2 … without gaps within a run. */
    seq: number;
    type: string;
    /** Milliseconds since the epoch. */
    at: number;
    payload: unknown;
}

export interface TavernAgentRunInfo {
    runId: string;
    chatId: string;
    state: TavernAgentRunState;
    profileId: string;
    createdAt: number;
    /**
     * Tokens of all the run's model turns, its sub-agents' included; `cost` (at the profiles' `pricing`, per
     * million tokens) is present when a profile of the run has prices.
     */
    usage: { input: number; output: number; cost?: number };
}

/** How a resumed run ended. */
export interface TavernAgentRunOutcome {
    runId: string;
    state: 'completed' | 'failed' | 'cancelled';
    /** The chat message the run committed to, if any. */
    messageId: number | null;
    error: { code: string; message: string } | null;
}

export interface TavernAgentRunOptions {
    /** What the agent is asked; it reaches the model as the last user message. */
    prompt: string;
    /** The agent profile; the chat's own when absent. */
    profileId?: string;
    /**
     * true (the default): the run writes only scratch/ and summaries/, never commits, and leaves its answer
     * in summaries/summary.md. false: a foreground run that commits its reply to the chat.
     */
    background?: boolean;
}

export type TavernAgentSkillScope = 'global' | { preset: string } | { profile: string } | { character: string };

export interface TavernAgentSkillsApi {
    list(): Promise<Array<{ name: string; description: string; scope: TavernAgentSkillScope; files: number }>>;
    preview(files: File | Blob | Array<File | Blob>, options: { scope: TavernAgentSkillScope }): Promise<unknown[]>;
    import(files: File | Blob | Array<File | Blob>, options: { scope: TavernAgentSkillScope; conflict?: 'replace' | 'skip' }): Promise<unknown>;
    export(names: string[], options: { scope: TavernAgentSkillScope }): Promise<Blob>;
    delete(name: string, options: { scope: TavernAgentSkillScope }): Promise<unknown>;
}

export interface TavernAgentApi {
    readonly version: string;
    status(): TavernAgentStatus;
    /** Stops the running agent run, if any. */
    stop(): Promise<boolean>;
    setEnabled(enabled: boolean): Promise<TavernAgentStatus>;
    health(): Promise<unknown>;
    /** Starts a run in the open chat; resolves with its id as soon as it exists (one run at a time). */
    run(options: TavernAgentRunOptions): Promise<string>;
    /** Stops that run if it is the one going on, or a keeper working in the background; resolves false otherwise. */
    cancel(runId: string): Promise<boolean>;
    /** Stored events from `fromSeq` (inclusive, default 0), at most `limit`. */
    events(runId: string, options?: { fromSeq?: number; limit?: number }): Promise<TavernAgentEvent[]>;
    /**
     * Calls `listener` with every event from `fromSeq` (default 0): the stored ones first, then the live ones
     * as they happen; each event exactly once, in seq order, no gap. Returns the unsubscribe function.
     */
    subscribe(runId: string, listener: (event: TavernAgentEvent) => void, options?: { fromSeq?: number }): () => void;
    /** The run's workspace paths: its files (output/, scratch/, summaries/ …), then its hidden stores. */
    files(runId: string): Promise<string[]>;
    readFile(runId: string, path: string): Promise<string>;
    /**
     * The runs stored for a chat, oldest first: any chat, open or not, by `chatId` as `status().chatId` and
     * `/agent status` give it; the open chat's when `chatId` is absent (none on the welcome screen).
     */
    runs(options?: { chatId?: string }): Promise<TavernAgentRunInfo[]>;
    /**
     * Continues an interrupted run of the open chat from its journal and resolves when it ends. Rejects with a
     * code: `run.not_interrupted`, `run.not_resumable` (stored by a version too old to resume it),
     * `run.inputs_missing`, `run.chat_moved`, `run.chat_busy`.
     */
    resume(runId: string): Promise<TavernAgentRunOutcome>;
    /**
     * Gives a run of the open chat that ended on its budget (`run.budget_exhausted`, or a wrap-up turn that
     * committed) `rounds` more model turns (its profile's round budget when absent, at most 200): the same run
     * goes on from its journal and commits into the same reply. Resolves when it ends. Rejects with a code:
     * `run.not_continuable`, `run.chat_moved` (the chat has a newer message than its reply), `run.chat_busy`.
     */
    continueRun(runId: string, rounds?: number): Promise<TavernAgentRunOutcome>;
    readonly skills: TavernAgentSkillsApi;
    /** The open chat's pipeline: `pipeline.get()`, `pipeline.set({ before: 'director', reply: 'sillytavern' })`. */
    readonly pipeline: TavernAgentPipelineApi;
    /** The open chat's long memory: `memory.seedFrom('Seraphina - 2026-12-4@13h33m27s')`, `memory.build()`, `memory.buildStatus()`, `memory.stopBuild()`, `memory.resumeBuild()`. */
    readonly memory: TavernAgentMemoryApi;
}

declare global {
    // eslint-disable-next-line no-var
    var TavernAgent: TavernAgentApi | undefined;
}
