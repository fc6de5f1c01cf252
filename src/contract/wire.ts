import * as z from 'zod';
import type { MemoryPayload } from './memory';
import type { ModelReply, ModelRequest } from './model';
import type { RunRecord } from './records';
import type { JournalEvent } from './events';
import type { Result } from './result';
import type { ChatIdentity, GenerationType, RunOutcome, RunRequest } from './run-input';
import type { Profile } from './profile';
import type { ConnectionProfile } from './connection-profile';
import type { FailedStart } from './failed-start';
import type { CheckpointDiff, CheckpointInfo, RunFileInfo } from './archive';
import type { FieldError, ImportResult, ProfileParse } from './profile-migrations';
import type { ParsedSkill, SkillBundle, SkillFile, SkillSource } from './skills';
import type { LoreDecision } from './lore';
import type { StateWrite } from './state';
import type { ExtToolCallReply, ExtToolCallRequest } from './ext-tools';
import type { ChatRunCount, PruneReport, PruneRequest, RetentionPolicy } from './storage';
import type { MemoryCarrier } from './memory-chain';
import type { ChatFileRequest, ChatMarkers } from './chat-markers';
import type { MemorySeed } from './memory-seed';
import type { MemoryChange } from './memory-change';

/**
 * On a run's event port (HostBridge.openEventPort), worker to page: its events as they are stored, and at its
 * end one flush, which the page answers with `flushed` once it has taken every event before it.
 */
export type EventPortMessage = { type: 'events'; events: JournalEvent[] } | { type: 'flush' };
export type EventPortReply = { type: 'flushed' };

/** What the worker answers to a health call: proof that it runs, its storage opened and zod is jitless. */
export const HealthReportSchema = z.object({
    ok: z.literal(true),
    engineVersion: z.string(),
    isModuleWorker: z.boolean(),
    zodJitless: z.boolean(),
    database: z.object({
        name: z.string(),
        version: z.number().int(),
        stores: z.array(z.string()),
    }),
});

export type HealthReport = z.infer<typeof HealthReportSchema>;

export interface ProfileListing {
    id: string;
    builtIn: boolean;
    /** A built-in the user changed (reset restores the shipped one). */
    overridden: boolean;
    profile: Profile | null;
    /** Why a stored profile cannot be used (it is listed, flagged, never silently dropped). */
    errors: FieldError[];
}

export interface ToolInfo {
    name: string;
    alias: string;
    description: string;
    readOnly: boolean;
}

/** What the engine asks of the main thread. Passed once per run as a comlink proxy. */
export interface HostBridge {
    /** One model call through SillyTavern's backend; never throws, errors come back as data. */
    requestModel(request: ModelRequest): Promise<ModelReply>;
    /** Aborts one request in flight (a sub-agent cancelled while its parent goes on); test fakes may omit it. */
    abortModelRequest?(requestId: string): void;
    /** Writes text into the run's chat (identity checked again first). */
    commit(request: CommitRequest): Promise<Result<{ messageId: number }>>;
    /**
     * Writes the memory a finished run promoted into the message it committed (its current swipe), and saves
     * the chat. Over MEMORY_MAX_BYTES nothing is written and the user is told. Test fakes may omit it.
     */
    attachMemory?(request: { runId: string; memory: MemoryPayload }): Promise<Result<{ stored: boolean; bytes: number }>>;
    /** Journal events as they are stored, in order (where the run has no event port). */
    onEvents(events: JournalEvent[]): void;
    /**
     * A port the run's events travel on one way (EventPortMessage): a call through the bridge is answered
     * each time, which costs a message a round; on this port only the flush at the run's end is answered.
     * Test fakes may omit it: the events then go through `onEvents`.
     */
    openEventPort?(): MessagePort;
    /**
     * Writes a run's staged state (issue 36) into the chat without a new commit: changes staged after the run's
     * last commit, or a keeper's into the reply it follows. Test fakes may omit it.
     */
    writeState?(request: { runId: string; writes: StateWrite[] }): Promise<Result<{ messageId: number }>>;
    /** Asks the user to Approve or Deny a tool call (a global state change); false when they deny. */
    askApproval?(request: { runId: string; name: string; args: unknown }): Promise<boolean>;
    /** Runs another extension's tool on the page (asking the user first when told to); test fakes may omit it. */
    callExtTool?(request: ExtToolCallRequest): Promise<ExtToolCallReply>;
}

/** What the page needs to resume a run: where it belongs, what chat it saw, and its profile for routing. */
/** A Continue instead of a resume: a run that ended on its budget, `rounds` more (its profile's budget when absent). */
export interface ResumeOptions {
    continue?: { rounds?: number };
    /** The Connection Manager profiles the page has now (which agents' models are configured: see prepareRun). */
    connections?: ConnectionProfile[];
}

export interface ResumeTicket {
    runId: string;
    profile: Profile;
    chat: ChatIdentity;
    generationType: GenerationType;
    /** The chat as the run saw it: each message's index and text. */
    prefix: Array<{ index: number; text: string }>;
    /** The message the run committed to, as its journal knows it. */
    messageId: number | null;
    /** A fix run: the index of the agent reply it revises in place (in `prefix`). */
    fix?: { messageIndex: number };
}

export interface CommitRequest {
    runId: string;
    path: string;
    text: string;
    mode: 'replace' | 'append';
    reason: string | null;
    /** The model's reasoning since the run's last commit, stored where SillyTavern keeps a reply's reasoning. */
    reasoning?: string;
    /** The run's staged state, all of it so far (issue 36): written with the text, each scope its own way. */
    state?: StateWrite[];
}

/** Runs: start, stop, steer and resume them; read their records and journals. */
export interface RunsApi {
    /**
     * Resolves and validates the profile a run will use, and keeps it for that run id: the page gets it for
     * routing its model calls, `startRun` takes it from here. `connections`, the Connection Manager profiles
     * the page has, decide which agents' models are configured: only those are listed and delegated to.
     */
    prepareRun(runId: string, profileId: string, stored: Record<string, unknown>, connections?: ConnectionProfile[]): Promise<Result<Profile>>;
    /** Runs an agent to its end (after prepareRun); resolves with the outcome (failures included). */
    startRun(request: RunRequest, host: HostBridge): Promise<Result<RunOutcome>>;
    /** Asks a run to stop; the run ends as cancelled at its next step. */
    cancelRun(runId: string, reason: string): Promise<void>;
    /** Queues the user's guidance for a running run; it reaches the model at the agent's next turn. */
    guideRun(runId: string, text: string): Promise<Result<{ guidanceId: string }>>;
    /**
     * Checks that an interrupted run can go on (its inputs kept in a format that can be resumed) and keeps
     * its plan for `resumeRun`; the page gets what it needs to check the chat (identity, prefix) and route
     * model calls.
     */
    prepareResume(runId: string, stored: Record<string, unknown>, options?: ResumeOptions): Promise<Result<ResumeTicket>>;
    /**
     * Continues the interrupted run from its journal (after prepareResume), as the chat's only writer; with
     * `continue`, the run that ended on its budget, with more rounds (issue 38 §5).
     */
    resumeRun(runId: string, host: HostBridge): Promise<Result<RunOutcome>>;
    /**
     * Keeps a run that failed before it started (issue 39 §10) as a failed run of its chat, journal and record,
     * so the panel shows it; returns the events written (none when the run has a record already).
     */
    recordFailedStart(failed: FailedStart): Promise<Result<JournalEvent[]>>;
    /** The page saw the worker running `runId` die: marks the run interrupted (resumable). */
    interruptRun(runId: string): Promise<Result<boolean>>;
    listRuns(chatKey: string): Promise<Result<RunRecord[]>>;
    /** The runs of any chat by its file id (open or not), oldest first; imported copies excluded. */
    listChatRuns(chatId: string): Promise<Result<RunRecord[]>>;
    getRun(runId: string): Promise<Result<RunRecord>>;
    readEvents(runId: string, fromSeq: number): Promise<Result<JournalEvent[]>>;
    /**
     * The memory (persist/ files) a run finished with, or null when it has not completed through workspace.finish
     * (a memory build reads each chunk's from here, issue 37 §3).
     */
    runMemory(runId: string): Promise<Result<Record<string, string> | null>>;
}

/** Stored runs as the timeline reads and changes them: files, checkpoints, export, import, delete. */
export interface ArchiveApi {
    /** Visible files first, then the hidden stores (input/, tool-args/, tool-results/, model-responses/). */
    listRunFiles(runId: string): Promise<Result<RunFileInfo[]>>;
    readRunFile(runId: string, path: string): Promise<Result<{ path: string; content: string; version: number }>>;
    listCheckpoints(runId: string): Promise<Result<CheckpointInfo[]>>;
    checkpointDiff(runId: string, seq: number): Promise<Result<CheckpointDiff>>;
    /** Writes a checkpoint's text back as the file's current version (ended runs only). */
    restoreCheckpoint(runId: string, seq: number): Promise<Result<{ path: string; version: number }>>;
    /** Journals a checkpoint's text put in the chat as the run's reply (message `messageId`): a commit row and checkpoint. */
    journalPutInChat(runId: string, seq: number, messageId: number): Promise<Result<{ path: string; version: number }>>;
    /** One JSON file: the run record, its journal, files and checkpoints. */
    exportRun(runId: string): Promise<Result<string>>;
    /** Stores an export read-only for viewing, under a new run id (chat key "imported"). */
    importRun(text: string): Promise<Result<{ runId: string; events: number }>>;
    deleteRun(runId: string): Promise<Result<null>>;
}

/** Agent profiles and the tools they name. */
export interface ProfilesApi {
    /** Built-ins merged with the user's stored profiles (raw JSON, validated here). */
    listProfiles(stored: Record<string, unknown>): Promise<ProfileListing[]>;
    /** The profile a run of `id` would use, or why it cannot be used. */
    resolveProfile(id: string, stored: Record<string, unknown>): Promise<Result<Profile>>;
    validateProfile(raw: unknown): Promise<ProfileParse>;
    importProfiles(text: string): Promise<ImportResult>;
    exportProfiles(profiles: unknown[]): Promise<string>;
    listTools(): Promise<ToolInfo[]>;
}

/** The engine's database: open it, check it, keep it bounded. */
export interface StorageApi {
    /** Opens the database of one SillyTavern user; idempotent for the same handle. */
    open(userHandle: string): Promise<Result<HealthReport['database']>>;
    health(): Promise<Result<HealthReport>>;
    /** Runs stored per chat (runs of deleted chats included), for the storage section. */
    storageOverview(): Promise<Result<{ chats: ChatRunCount[] }>>;
    /** The retention applied after every run (the page sends the user's settings). */
    setRetention(policy: RetentionPolicy): Promise<Result<RetentionPolicy>>;
    /** Applies the retention now, or deletes every run, of some chats or all; live runs are never touched. */
    pruneRuns(request: PruneRequest): Promise<Result<PruneReport>>;
}

/** Skills: parsed, hashed, zipped and cached in the worker. */
export interface SkillsApi {
    /** Zips, SKILL.md files or a picked folder's files → one entry per skill (parsed, checked, hashed; not stored). */
    parseSkills(sources: SkillSource[]): Promise<ParsedSkill[]>;
    /** Caches bundles by hash (checked against their schema and recomputed hash), all or none. */
    cacheSkillBundles(bundles: SkillBundle[]): Promise<Result<null>>;
    /** Which of these hashes the cache lacks (the page then fetches them from the server). */
    missingSkillBundles(hashes: string[]): Promise<string[]>;
    readSkillFile(hash: string, path: string): Promise<Result<SkillFile>>;
    /**
     * The cached skill of this hash with one text file's content replaced, checked as an import checks it and
     * hashed anew (not cached: the page stores it as it stores an import). Refused with `skill.name_changed`
     * when SKILL.md then names another skill.
     */
    editSkillFile(hash: string, path: string, content: string): Promise<Result<SkillBundle>>;
    /** A zip with one top-level folder per skill. */
    exportSkillsZip(hashes: string[]): Promise<Result<Uint8Array>>;
    /** The `{version: 1, items}` payload for a card or preset (TauriTavern's format). */
    encodeSkillPayload(hashes: string[]): Promise<Result<unknown>>;
}

/** Lore proposals' answers. */
export interface LoreApi {
    /**
     * Claims a pending proposal for this tab before its answer is written (issue 39 §7), atomically in
     * IndexedDB: `lore.already_decided` when it was answered, `lore.proposal_busy` while another tab holds it.
     */
    claimLoreProposal(runId: string, proposalId: string): Promise<Result<{ token: string }>>;
    /** Ends a claim without a decision (the write failed). */
    releaseLoreClaim(runId: string, proposalId: string, token: string): Promise<Result<null>>;
    /** Journals the user's answer to a lore proposal of the run (issue 19): once per proposal; ends the claim `claimToken` names. */
    recordLoreDecision(runId: string, decision: LoreDecision, claimToken?: string): Promise<Result<null>>;
}

/** The chat's memory as the panel's Memory view reads it, and a user's change to it journaled (issue 37 §1). */
export interface MemoryApi {
    /**
     * The memory a run at the end of `messages` (the open chat's shown branch) would start from: the same
     * resolution as a run's (engine/run/memory-base.ts), this browser's cache included, then the seed.
     * `runId` names the message that gave it (null: the seed, or no memory).
     */
    resolveMemory(messages: MemoryCarrier[], seed: MemorySeed | null): Promise<Result<{ files: Record<string, string>; runId: string | null }>>;
    /** Journals a user's change to a chat's memory, already written into the chat, as a completed run of its own. */
    journalMemoryEdit(edit: MemoryEditJournal): Promise<Result<{ runId: string }>>;
    /** Another chat of the open character or group, fetched and parsed here, down to what memory needs (issue 37 §2). */
    readChatMarkers(request: ChatFileRequest, maxBytes: number): Promise<Result<ChatMarkers>>;
}

/** A user's change to a chat's memory as it went into the chat: into a message (by index), or its seed. */
export interface MemoryEditJournal {
    chatKey: string;
    chatId: string;
    change: MemoryChange;
    before: Record<string, string>;
    after: Record<string, string>;
    into: { kind: 'message'; messageId: number } | { kind: 'seed' };
    bytes: number;
}

/**
 * The engine as the main thread sees it through comlink: the intersection of its facets, each built by its
 * own factory (engine/api/). Every method returns data, never throws.
 */
export type EngineApi = RunsApi & ArchiveApi & ProfilesApi & StorageApi & SkillsApi & LoreApi & MemoryApi;
