import * as z from 'zod';
import { RunLoreSchema } from './lore';
import { MemoryPayloadSchema } from './memory';
import { MemorySeedSchema } from './memory-seed';
import { ProfileSchema } from './profile';
import { RunSkillSchema } from './skills';
import { ExtToolSpecSchema } from './ext-tools';
import { CapturedStateSchema } from './state';

export const GenerationTypeSchema = z.enum(['normal', 'regenerate', 'swipe']);
export type GenerationType = z.infer<typeof GenerationTypeSchema>;

/**
 * Where a run stands in its chat's turn (issue 34): `before` SillyTavern's reply (a director: it writes a
 * brief, never the chat), the `reply` itself (the agent writes it), or `after` it (a keeper, in the
 * background, bound to the reply message: its memory goes into that message, it never writes the chat).
 */
export const RunPhaseSchema = z.enum(['before', 'reply', 'after']);
export type RunPhase = z.infer<typeof RunPhaseSchema>;

/** Where a director leaves its brief: the run's outcome carries this file's text. */
export const BRIEF_PATH = 'output/brief.md';
/** The longest brief that goes into a prompt; a longer one is cut there. */
export const BRIEF_MAX_CHARS = 8000;

/** The chat a run belongs to; checked again before every commit. */
export const ChatIdentitySchema = z.object({
    chatId: z.string(),
    /** `chat_metadata.integrity`: survives renames, and is the key of the chat's runs. */
    integrity: z.string(),
    characterId: z.string().nullable(),
    groupId: z.string().nullable(),
    characterName: z.string(),
    userName: z.string(),
});
export type ChatIdentity = z.infer<typeof ChatIdentitySchema>;

export const PrefixMessageSchema = z.object({
    index: z.number().int().nonnegative(),
    role: z.enum(['user', 'assistant', 'system']),
    name: z.string(),
    text: z.string(),
    /** Hidden from prompts (`is_system`): searchable, marked as hidden. */
    hidden: z.boolean(),
    /** The run that committed this message, if an agent did. */
    agentRunId: z.string().nullable(),
    /** The memory (persist/) that run left, as the message carries it; absent when it carries none. */
    memory: MemoryPayloadSchema.optional(),
});
export type PrefixMessage = z.infer<typeof PrefixMessageSchema>;

export const WireMessageSchema = z.object({
    role: z.enum(['system', 'user', 'assistant', 'tool']),
    content: z.string().nullable(),
    name: z.string().optional(),
});

export const WorldInfoEntrySchema = z.object({
    book: z.string(),
    uid: z.number().int(),
    title: z.string(),
    keys: z.array(z.string()),
    content: z.string(),
    constant: z.boolean(),
});
export type WorldInfoEntry = z.infer<typeof WorldInfoEntrySchema>;

/** Everything a run may see, frozen when it starts (SPEC §1): tools read this, never live state. */
export const RunInputSchema = z.object({
    runId: z.string().min(1),
    generationType: GenerationTypeSchema,
    chat: ChatIdentitySchema,
    prefix: z.array(PrefixMessageSchema),
    /** The prompt SillyTavern assembled for this turn, the run's starting context. */
    prompt: z.array(WireMessageSchema),
    worldInfo: z.object({ captured: z.boolean(), entries: z.array(WorldInfoEntrySchema) }),
    /** Every enabled entry of the lorebooks in scope (worldinfo.search/read/propose); absent when not captured. */
    lore: RunLoreSchema.optional(),
    /** The agent profile, resolved by the engine before the run and validated again here. */
    profile: ProfileSchema,
    /** The chat completion source, so responses decode by provider. */
    source: z.string(),
    /**
     * The connection's context size in tokens as SillyTavern reports it (its prompt budget), for compaction
     * (issue 38 §3); absent in runs stored before it, which never compact.
     */
    contextSize: z.number().int().positive().optional(),
    retry: z.object({ maxRetries: z.number().int().min(0).max(10), baseDelayMs: z.number().int().min(0) }),
    /** The skills this run may read, resolved by scope and the profile's visible/deny, frozen at start. */
    skills: z.array(RunSkillSchema),
    /** Names of installed skills this profile may not see (`skill.not_visible` instead of `skill.not_found`). */
    hiddenSkills: z.array(z.string()),
    /**
     * Every skill a run of some profile may see in this chat, and the chat's preset and character (for the
     * scopes): each sub-agent's skills are resolved from it for its own profile. Absent in runs stored before
     * it existed (their sub-agents see the root's skills, narrowed by their own visible/deny).
     */
    skillPool: z.object({ presetName: z.string().nullable(), characterAvatar: z.string().nullable(), skills: z.array(RunSkillSchema) }).optional(),
    /**
     * Every valid agent profile of the user when the run started, built-ins included: the agents it may
     * delegate to, frozen with the rest so a resumed run's sub-agents are the ones it started. Set by the engine.
     */
    agentProfiles: z.array(ProfileSchema).optional(),
    /**
     * A run started by a script (`TavernAgent.run`, `/agent run`): its prompt reaches the model as the last
     * user message; a background one writes only scratch/ and summaries/ and never commits. Absent for a
     * run SillyTavern's Send, Regenerate or Swipe started.
     */
    script: z.object({ prompt: z.string().min(1), background: z.boolean() }).optional(),
    /** Tools other extensions registered with SillyTavern's ToolManager; offered as `ext.<name>` when the profile allows. */
    extTools: z.array(ExtToolSpecSchema).optional(),
    /**
     * A fix run (`/agent fix`, the reply's wand button): it revises the agent reply at `messageIndex` of the
     * prefix in place, starting from its current `text` (the user's edits included), per the user's `request`.
     */
    fix: z.object({ messageIndex: z.number().int().nonnegative(), text: z.string(), request: z.string().min(1) }).optional(),
    /** The run's phase in its turn; absent: `reply` (every run before issue 34). */
    phase: RunPhaseSchema.optional(),
    /** A reply agent's brief: what the turn's `before` agent wrote for this user message. */
    brief: z.string().max(BRIEF_MAX_CHARS).optional(),
    /** An `after` run: the reply it follows, an index of `prefix` (its last message). */
    follows: z.object({ messageIndex: z.number().int().nonnegative() }).optional(),
    /** The turn the run belongs to (the user message it answers): the timeline groups a turn's runs by it. */
    turnId: z.string().max(200).optional(),
    /** The chat's state systems as they stood before the reply (issue 36); absent in runs stored before it. */
    state: CapturedStateSchema.optional(),
    /**
     * The chat's memory seed (issue 37 §2), as its metadata held it when the run started: the run's persist/
     * starts from it while no message of the prefix carries memory. Absent when the chat has none.
     */
    memorySeed: MemorySeedSchema.optional(),
    /**
     * A chunk of a memory build (issue 37 §3), for an `after` run with no reply to follow: it summarises messages
     * `from` to `to` of the prefix (its last message is `to`) into its memory, which goes back to the build's
     * job, never into a chat message. Chunk `chunk` (1-based) of `chunks`.
     */
    build: z
        .object({ chunk: z.number().int().positive(), chunks: z.number().int().positive(), from: z.number().int().nonnegative(), to: z.number().int().nonnegative() })
        .optional(),
});
export type RunInput = z.infer<typeof RunInputSchema>;

/**
 * What the page sends to start a run: the input without the profiles. The engine resolved and validated the
 * profiles once, in `prepareRun`, and adds them itself: a profile is never validated twice.
 */
export const RunRequestSchema = RunInputSchema.omit({ profile: true, agentProfiles: true });
export type RunRequest = z.infer<typeof RunRequestSchema>;

export const RunOutcomeSchema = z.object({
    runId: z.string(),
    state: z.enum(['completed', 'failed', 'cancelled']),
    messageId: z.number().int().nullable(),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    /** A `before` run that completed: the text it left in output/brief.md (cut at BRIEF_MAX_CHARS), or '' when none. */
    brief: z.string().optional(),
});
export type RunOutcome = z.infer<typeof RunOutcomeSchema>;
