import type { Pipeline } from '../contract/agent-mode';
import type { ConnectionProfile } from '../contract/connection-profile';
import type { ConnectionProtocol } from '../contract/text-protocol/source';
import type { PanelSettings } from '../contract/panel-settings';
import type { Result } from '../contract/result';
import type { RunOutcome } from '../contract/run-input';
import type { SkillOwners, SkillsService } from '../contract/skills-service';
import type { EngineApi } from '../contract/wire';
import type { LoreAcceptOutcome, LoreAcceptRequest, LoreDecision } from '../contract/lore';
import type { ReplyPlace } from '../contract/reply-place';
import type { ExtToolSpec } from '../contract/ext-tools';
import type { RetentionPolicy } from '../contract/storage';
import type { MemoryBuildStatus } from '../contract/memory-build';
import type { ChatWithMemory, MemorySnapshot, SeedSummary } from '../contract/memory-view';
import type { MemoryChange } from '../contract/memory-change';

/**
 * Everything the panel asks of the world outside it: the worker, SillyTavern's chat, the profile store,
 * popups and toasts. The panel never imports src/host/; src/runtime.ts builds this object from host functions
 * and hands it over once, at mount (`provideServices`). A new feature adds a field here and one line there.
 */

/** The worker calls the panel makes (the run itself is the host's). */
type PanelEngine = Pick<
    EngineApi,
    | 'listRuns'
    | 'getRun'
    | 'readEvents'
    | 'listRunFiles'
    | 'readRunFile'
    | 'listCheckpoints'
    | 'checkpointDiff'
    | 'restoreCheckpoint'
    | 'exportRun'
    | 'importRun'
    | 'deleteRun'
    | 'listProfiles'
    | 'validateProfile'
    | 'importProfiles'
    | 'exportProfiles'
    | 'listTools'
    | 'storageOverview'
    | 'setRetention'
    | 'pruneRuns'
>;

export interface PanelServices {
    /** The worker, started on first need. */
    engine(): Promise<PanelEngine>;
    chat: {
        /** The open chat's id and run key, or null on the welcome screen. */
        open(): { chatId: string; chatKey: string } | null;
        /** The last message of the open chat, and the run that committed it, if any. */
        lastMessage(): { index: number; isUser: boolean; runId: string | null } | null;
        /** The open chat's agent replies: message index, run id, and the memory files the message carries. */
        agentReplies(): Array<{ index: number; runId: string; memoryFiles: string[] }>;
        /** SillyTavern is generating (its own reply, or an agent run's dry run). */
        generating(): boolean;
        /** A new reply for the latest turn, as SillyTavern's /regenerate makes it. */
        regenerate(): Promise<void>;
        /** Scrolls the chat to a message and flashes it; false when it is not in the page. */
        revealMessage(messageId: number): boolean;
        /** Commits a file of an ended run into its chat as a new reply. */
        commitDraft(runId: string, path: string): Promise<Result<{ messageId: number }>>;
        /** Where a run's reply is in the open chat now: shown, swiped away, replaced by another, gone. */
        replyPlace(runId: string, messageId: number | null): ReplyPlace;
        /** Replaces the run's reply (still shown) with a checkpoint's text, through the commit path. */
        replaceReply(runId: string, seq: number): Promise<Result<{ messageId: number }>>;
        /** Tokens of a text by SillyTavern's tokenizer for the connection; null where it has none (issue 38 §1). */
        countTokens?(text: string): Promise<number | null>;
        /** Continues an interrupted run from its journal (refused with a reason when the chat moved on). */
        resume?(runId: string): Promise<Result<RunOutcome>>;
        /** Gives a run that ended on its budget `rounds` more, as the same run (issue 38 §5). */
        continueRun?(runId: string, rounds: number): Promise<Result<RunOutcome>>;
        /** Sets the open chat's agent profile (chatStatus follows when it is saved). */
        setProfile(profileId: string): Promise<void>;
        /**
         * Sets any part of the open chat's pipeline (issue 34: before, reply, after); a profile id that names no
         * usable profile is refused, and nothing changes. chatStatus follows when it is saved.
         */
        setPipeline(partial: Partial<Pipeline>): Promise<Result<Pipeline>>;
        /** A turn's reply in the open chat (its index; runId null when SillyTavern wrote it), null when none. */
        turnReply?(turnId: string): { index: number; runId: string | null } | null;
        /** Stops a run this tab drives in the background (a keeper after a reply); false when it is not one. */
        stopBackground?(runId: string): Promise<boolean>;
    };
    profiles: {
        /** The user's stored profiles as raw JSON (the worker validates them). */
        stored(): Record<string, unknown>;
        save(profiles: ReadonlyArray<{ id: string }>): void;
        remove(id: string): void;
        /** SillyTavern's Connection Manager profiles, read fresh. */
        connections(): ConnectionProfile[];
        /** How agents on the current connection call tools (SPEC §9); absent in test fakes. */
        currentProtocol?(): ConnectionProtocol;
    };
    /** A yes/no question in SillyTavern's own popup. */
    confirm(question: string): Promise<boolean>;
    /** Retention settings and persistent storage (host/settings/storage-settings.ts); without it the section only shows usage and prunes. */
    storage?: {
        retention(): RetentionPolicy;
        saveRetention(policy: RetentionPolicy): void;
        /** Asks the browser to keep the data persistently; true when it is. */
        persist(): Promise<boolean>;
    };
    /** The skill service (host/skills/); without it the panel has no Skills section. */
    skills?: SkillsService;
    /** The open character and selected preset, as skill scopes the manager can target. */
    skillOwners?(): SkillOwners;
    /** Queues guidance for the run working in this tab (reaches the model at its next turn); absent: no input. */
    guide?(text: string): Promise<Result<{ guidanceId: string }>>;
    /**
     * Lore proposals (issue 19): Accept writes through SillyTavern's world-info API, or writes nothing and says
     * the entry changed since the run began (issue 39 §7); both answers are journaled in the run.
     */
    lore?: {
        accept(request: LoreAcceptRequest): Promise<Result<LoreAcceptOutcome>>;
        discard(runId: string, proposalId: string): Promise<Result<LoreDecision>>;
    };
    /** Other extensions' tools: what is registered now, and the user's answer to a call waiting for approval. */
    extTools?: { registered(): Promise<ExtToolSpec[]>; decide(id: string, approved: boolean): void };
    /** The open chat's memory build (issue 37 §3, host/memory/memory-build.ts); absent in test fakes: no control. */
    memoryBuild?: {
        status(): Promise<MemoryBuildStatus | null>;
        start(options: { lore: boolean; restart: boolean }): Promise<Result<MemoryBuildStatus>>;
        stop(): Promise<Result<MemoryBuildStatus>>;
        resume(): Promise<Result<MemoryBuildStatus>>;
        /** Called when a build starts, moves on a step or ends; returns the unsubscribe function. */
        onChange(listener: () => void): () => void;
    };
    /**
     * The open chat's long memory (issue 37, host/memory/): read it as the next run would start from it, change it
     * (written into the chat and journaled), and bring memory from another chat of the same character.
     */
    memory?: {
        read(): Promise<Result<MemorySnapshot>>;
        change(change: MemoryChange): Promise<Result<{ journalRunId: string | null }>>;
        chatsWithMemory(): Promise<Result<ChatWithMemory[]>>;
        seedFrom(chatFileName: string): Promise<Result<SeedSummary>>;
    };
    /** Saves a change of the panel's settings (panelSettingsState follows); without it changes last the page. */
    settings?: { update(change: Partial<PanelSettings>): void };
    toast: {
        info(message: string, title?: string): void;
        success(message: string, title?: string): void;
        warning(message: string, title?: string): void;
    };
}

let provided: PanelServices | null = null;

export function provideServices(value: PanelServices): void {
    provided = value;
}

/** The services given at mount; using the panel's logic before mountPanel is a bug, so it throws. */
export function services(): PanelServices {
    if (!provided) throw new Error('Tavern Agent: the panel was used before src/runtime.ts provided its services.');
    return provided;
}
