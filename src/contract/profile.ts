import * as z from 'zod';
import { VISIBLE_ROOTS } from './workspace-roots';

/**
 * Agent profiles (SPEC §5): one agent's model, tools, budgets, skills, delegation, presentation, context
 * and system prompt. Stored and exported as JSON with a version; older versions are migrated on read.
 */
export const PROFILE_VERSION = 3;

/**
 * Ids no profile may take: profiles are stored as an object keyed by id, where these names are the
 * object's own machinery (`__proto__` would replace its prototype).
 */
export const RESERVED_PROFILE_IDS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Compaction as the built-ins and profiles without their own have it (issue 38 §3). */
export const DEFAULT_COMPACTION = { threshold: 0.6, keepRecentRounds: 4 } as const;

/** Characters of pinned memory a run starts with unless its profile says otherwise (issue 37 §1). */
export const DEFAULT_PINNED_CHARS = 8_000;

/** Messages per chunk of a memory build (issue 37 §3) unless the memory keeper's profile says otherwise. */
export const DEFAULT_BUILD_CHUNK = 40;

/** "*", "namespace.*" or a canonical tool name. */
const ToolPatternSchema = z
    .string()
    .regex(/^(\*|[a-z]+\.\*|[a-z]+\.[a-z_]+|ext\.[A-Za-z0-9_-]+)$/, 'use a canonical tool name like "workspace.read_file", "workspace.*", "ext.<name>" or "*"');

const RootSchema = z.enum(VISIBLE_ROOTS);

export const ModelBindingSchema = z.discriminatedUnion('mode', [
    z.object({ mode: z.literal('current') }),
    z.object({
        mode: z.literal('connection-profile'),
        /** A SillyTavern Connection Manager profile id; its name is kept to explain a missing profile. */
        profileId: z.string().min(1),
        profileName: z.string(),
    }),
]);
export type ModelBinding = z.infer<typeof ModelBindingSchema>;

export const ScriptsSettingSchema = z.enum(['off', 'skills', 'all']);
export type ScriptsSetting = z.infer<typeof ScriptsSettingSchema>;

/** The script tools and the setting each needs. */
const SCRIPT_TOOLS: Readonly<Record<string, ScriptsSetting>> = { 'skill.run_script': 'skills', 'script.run': 'all' };

/** A tool the `scripts` setting governs rather than the allow list (the profile editor gives it no box). */
export function isScriptTool(name: string): boolean {
    return Object.hasOwn(SCRIPT_TOOLS, name);
}

export const ProfileSchema = z
    .object({
        version: z.literal(PROFILE_VERSION),
        id: z
            .string()
            .regex(/^[a-z0-9_-]{1,64}$/, 'use 1–64 lowercase letters, digits, "-" or "_"')
            .refine((id) => !RESERVED_PROFILE_IDS.includes(id), 'this id is reserved; choose another'),
        displayName: z.string().trim().min(1, 'give the profile a name').max(80),
        description: z.string().max(2000),
        model: ModelBindingSchema,
        presentation: z.enum(['foreground', 'background']),
        tools: z.object({
            /** Canonical names or patterns; deny wins. */
            allow: z.array(ToolPatternSchema),
            deny: z.array(ToolPatternSchema),
            maxRounds: z.number().int().min(1).max(500),
            maxCallsPerRun: z.number().int().min(1).max(2000),
            maxCallsPerTool: z.record(z.string().regex(/^[a-z]+\.[a-z_]+$/, 'use a canonical tool name'), z.number().int().min(0).max(2000)),
        }),
        skills: z.object({
            visible: z.array(z.string().min(1)),
            deny: z.array(z.string().min(1)),
            maxReadCharsPerCall: z.number().int().min(1).max(80_000),
            maxReadCharsPerRun: z.number().int().min(1).max(1_000_000),
        }),
        delegation: z.object({
            canDelegate: z.boolean(),
            callable: z.boolean(),
            allowAsSubagent: z.boolean(),
            allowedCallers: z.array(z.string().min(1)),
            maxDelegationsPerRun: z.number().int().min(0).max(50),
            maxConcurrent: z.number().int().min(1).max(8),
        }),
        context: z.object({
            /** Chat messages of history in the starting prompt: -1 all (as SillyTavern assembled), 0 none. */
            historyMessages: z.number().int().min(-1).max(100_000),
            includeWorldInfo: z.boolean(),
            /**
             * Whether the chat tools may read hidden (`is_system`) messages. Off unless the user opts in:
             * hiding a message should keep it from the agent too. Optional (absent = off), not a new version,
             * so every stored profile keeps loading unchanged.
             */
            includeHiddenMessages: z.boolean().optional(),
        }),
        workspace: z.object({
            /** Roots this agent may see (list, search, read); profiles narrow the workspace, never widen it. */
            visibleRoots: z.array(RootSchema).min(1),
            /** Roots this agent may write: a subset of the visible ones. */
            writableRoots: z.array(RootSchema).min(1),
        }),
        maxToolReminders: z.number().int().min(0).max(10),
        /**
         * Text Completion connections (SPEC §9): whether requests constrain decoding to the tool-call protocol
         * with a grammar where the backend supports one. Defaulted, so profiles saved before it load unchanged.
         */
        textProtocol: z.object({ grammar: z.boolean() }).default({ grammar: true }),
        systemPrompt: z.string().max(20_000),
        /**
         * Lore proposals (worldinfo.propose): by default they write only the chat's own lorebook; with
         * editOtherBooks an accepted edit may change the other books in scope. Defaulted, so profiles stored
         * before it existed load unchanged (no version bump).
         */
        lore: z.object({ editOtherBooks: z.boolean() }).default({ editOtherBooks: false }),
        /**
         * Other extensions' tools (`ext.<name>`): ask the user before each call. Absent: ask (issue 39 §8: a
         * tool another extension registered may do anything its code does; the user opts out per profile).
         */
        extTools: z.object({ askBeforeCall: z.boolean() }).optional(),
        /**
         * As a `before` agent (a director, issue 34): where its brief goes into SillyTavern's own generation,
         * as an extension prompt `depth` messages from the end of the chat with this `role`, and whether a
         * swipe or regenerate of the reply plans again (else it reuses the brief made for that user message).
         * Defaulted, so profiles stored before it load unchanged.
         */
        brief: z
            .object({ depth: z.number().int().min(0).max(10_000), role: z.enum(['system', 'user', 'assistant']), replanOnSwipe: z.boolean() })
            .default({ depth: 1, role: 'system', replanOnSwipe: false }),
        /**
         * Scripts (issue 35): `skills` lets the agent run its visible skills' scripts (skill.run_script), `all`
         * also lets it run a program of its own that calls the read tools (script.run), `off` neither. These two
         * tools follow this setting, not the allow list; a deny still wins. Defaulted (`skills`), so profiles
         * stored before it load unchanged.
         */
        scripts: ScriptsSettingSchema.default('skills'),
        /**
         * Price per million input and output tokens (issue 38 §2), for the cost the panel and `runs()` show;
         * null: not priced. Defaulted, so profiles stored before it load unchanged; always present once parsed.
         */
        pricing: z.object({ input: z.number().nonnegative().max(1_000_000).nullable(), output: z.number().nonnegative().max(1_000_000).nullable() }).nullable().default(null),
        /**
         * Compaction (issue 38 §3): once a request would pass `threshold` of the connection's context size, tool
         * results older than the last `keepRecentRounds` rounds are replaced by a one-line stub.
         */
        compaction: z
            .object({ threshold: z.number().min(0.05).max(1), keepRecentRounds: z.number().int().min(0).max(100) })
            .default({ threshold: DEFAULT_COMPACTION.threshold, keepRecentRounds: DEFAULT_COMPACTION.keepRecentRounds }),
        /**
         * Memory (issue 37): how many characters of pinned memory blocks (persist/ files with `pinned: true`) open
         * each run; blocks past it are named, not shown. `buildChunk`: how many messages each run of a memory build
         * (issue 37 §3) summarises, read from the memory keeper's profile. Defaulted, so profiles stored before
         * either load unchanged.
         */
        memory: z
            .object({ pinnedChars: z.number().int().min(0).max(100_000), buildChunk: z.number().int().min(5).max(400).default(DEFAULT_BUILD_CHUNK) })
            .default({ pinnedChars: DEFAULT_PINNED_CHARS, buildChunk: DEFAULT_BUILD_CHUNK }),
    })
    .superRefine((profile, ctx) => {
        for (const root of profile.workspace.writableRoots) {
            if (!profile.workspace.visibleRoots.includes(root)) {
                ctx.addIssue({ code: 'custom', path: ['workspace', 'writableRoots'], message: `"${root}" is writable but not visible; make it visible too` });
            }
        }
        if (profile.presentation === 'foreground') {
            for (const tool of ['workspace.commit', 'workspace.finish']) {
                if (!isToolAllowed(profile, tool)) {
                    ctx.addIssue({ code: 'custom', path: ['tools', 'allow'], message: `a foreground profile must allow ${tool}, or it can never reply` });
                }
            }
        }
    });
export type Profile = z.infer<typeof ProfileSchema>;

const BASE: Omit<Profile, 'id' | 'displayName' | 'description'> = {
    version: PROFILE_VERSION,
    model: { mode: 'current' },
    presentation: 'foreground',
    tools: { allow: [], deny: [], maxRounds: 80, maxCallsPerRun: 80, maxCallsPerTool: {} },
    skills: { visible: ['*'], deny: [], maxReadCharsPerCall: 20_000, maxReadCharsPerRun: 80_000 },
    delegation: { canDelegate: false, callable: false, allowAsSubagent: false, allowedCallers: ['*'], maxDelegationsPerRun: 8, maxConcurrent: 3 },
    context: { historyMessages: -1, includeWorldInfo: true, includeHiddenMessages: false },
    workspace: { visibleRoots: [...VISIBLE_ROOTS], writableRoots: [...VISIBLE_ROOTS] },
    maxToolReminders: 2,
    textProtocol: { grammar: true },
    systemPrompt: '',
    lore: { editOtherBooks: false },
    brief: { depth: 1, role: 'system', replanOnSwipe: false },
    scripts: 'skills',
    pricing: null,
    compaction: { ...DEFAULT_COMPACTION },
    memory: { pinnedChars: DEFAULT_PINNED_CHARS, buildChunk: DEFAULT_BUILD_CHUNK },
};

export const WRITER_PROFILE: Profile = {
    ...BASE,
    id: 'writer',
    displayName: 'Writer',
    description: 'Drafts the reply in its workspace, revises it, and commits one clean message.',
    tools: { ...BASE.tools, allow: ['chat.*', 'memory.*', 'worldinfo.*', 'skill.*', 'workspace.*', 'plan.*', 'agent.*', 'state.*'] },
    delegation: { ...BASE.delegation, canDelegate: true },
    scripts: 'all',
};

export const RESEARCHER_PROFILE: Profile = {
    ...BASE,
    id: 'researcher',
    displayName: 'Researcher',
    description: 'A read-only sub-agent: searches the chat, lore and skills, and writes its findings to scratch/ and summaries/.',
    presentation: 'background',
    tools: {
        ...BASE.tools,
        // Lore it may look up, never propose: a read-only helper.
        allow: ['chat.*', 'memory.search', 'worldinfo.read_activated', 'worldinfo.search', 'worldinfo.read', 'skill.*', 'workspace.list_files', 'workspace.search_files', 'workspace.read_file', 'workspace.write_file', 'workspace.apply_patch', 'workspace.finish'],
        maxRounds: 30,
        maxCallsPerRun: 60,
    },
    delegation: { ...BASE.delegation, callable: true, allowAsSubagent: true },
    workspace: { visibleRoots: [...VISIBLE_ROOTS], writableRoots: ['scratch', 'summaries'] },
    scripts: 'all',
};

export const EDITOR_PROFILE: Profile = {
    ...BASE,
    id: 'editor',
    displayName: 'Editor',
    description: 'A sub-agent that reads the draft in output/ and writes review notes to summaries/.',
    presentation: 'background',
    tools: {
        ...BASE.tools,
        allow: ['skill.*', 'workspace.list_files', 'workspace.search_files', 'workspace.read_file', 'workspace.write_file', 'workspace.apply_patch', 'workspace.finish'],
        maxRounds: 20,
        maxCallsPerRun: 40,
    },
    delegation: { ...BASE.delegation, callable: true, allowAsSubagent: true, allowedCallers: ['writer'] },
    workspace: { visibleRoots: [...VISIBLE_ROOTS], writableRoots: ['summaries'] },
};

export const GAME_MASTER_PROFILE: Profile = {
    ...BASE,
    id: 'game-master',
    displayName: 'Game Master',
    description: 'Runs the scene like a tabletop game master: rolls dice for uncertain outcomes and narrates the results.',
    tools: { ...BASE.tools, allow: ['chat.*', 'memory.*', 'worldinfo.*', 'skill.*', 'workspace.*', 'plan.*', 'dice.*', 'agent.*', 'state.*'] },
    delegation: { ...BASE.delegation, canDelegate: true },
    scripts: 'all',
    systemPrompt:
        'You are the game master. When an action has an uncertain outcome, roll for it with dice_roll (e.g. 1d20 for a check, 2d6 for damage) before you narrate, and let the numbers decide. Mention the roll briefly in the reply.',
};

/** Read-only tools of the chat, its memory, the lore, the skills and the state: what an agent around the reply looks things up with. */
const LOOK_UP_TOOLS = ['chat.*', 'memory.search', 'worldinfo.read_activated', 'worldinfo.search', 'worldinfo.read', 'skill.*', 'state.scopes', 'state.get'];

export const DIRECTOR_PROFILE: Profile = {
    ...BASE,
    id: 'director',
    displayName: 'Director',
    description: 'Plans before the reply: reads the chat, the lore and the memory, and writes a brief of what the next reply must respect.',
    presentation: 'background',
    tools: {
        ...BASE.tools,
        allow: [...LOOK_UP_TOOLS, 'workspace.list_files', 'workspace.search_files', 'workspace.read_file', 'workspace.write_file', 'workspace.apply_patch', 'workspace.finish'],
        maxRounds: 12,
        maxCallsPerRun: 30,
    },
    workspace: { visibleRoots: [...VISIBLE_ROOTS], writableRoots: ['output', 'scratch', 'plan'] },
    systemPrompt:
        'Keep the brief short (a few bullet points, under 150 words): the open threads and promises to keep, the facts the reply must not contradict, how the character speaks, and what the user just asked for. Do not write the reply itself.',
};

export const LORE_KEEPER_PROFILE: Profile = {
    ...BASE,
    id: 'lore-keeper',
    displayName: 'Lore keeper',
    description: 'Works after each reply: reads it and the lore in scope, and proposes lore changes for you to accept.',
    presentation: 'background',
    tools: {
        ...BASE.tools,
        allow: [...LOOK_UP_TOOLS, 'worldinfo.propose', 'workspace.list_files', 'workspace.read_file', 'workspace.write_file', 'workspace.finish'],
        maxRounds: 12,
        maxCallsPerRun: 30,
    },
    workspace: { visibleRoots: [...VISIBLE_ROOTS], writableRoots: ['scratch'] },
    systemPrompt:
        'Propose a lore change only for a lasting fact the reply established (a new place, person, item or rule, or a change to one), never for passing detail. Prefer editing an existing entry to adding a near-duplicate. Propose nothing when nothing lasting changed.',
};

export const MEMORY_KEEPER_PROFILE: Profile = {
    ...BASE,
    id: 'memory-keeper',
    displayName: 'Memory keeper',
    description: 'Works after each reply: keeps the chat\'s memory in persist/ up to date, one memory block per subject.',
    presentation: 'background',
    tools: {
        ...BASE.tools,
        allow: [...LOOK_UP_TOOLS, 'workspace.list_files', 'workspace.search_files', 'workspace.read_file', 'workspace.write_file', 'workspace.apply_patch', 'workspace.finish'],
        maxRounds: 16,
        maxCallsPerRun: 40,
    },
    workspace: { visibleRoots: [...VISIBLE_ROOTS], writableRoots: ['persist', 'scratch'] },
    systemPrompt:
        [
            'Keep persist/ as one memory block per subject: persist/characters.md, persist/relationships.md, persist/places.md, persist/threads.md (open threads and promises).',
            'Each block starts with front matter, e.g. "---\\ntitle: Characters\\npinned: true\\nlimit: 2000\\n---\\n" and then its text. Pin characters.md (title "Characters") and threads.md (title "Open threads"): pinned blocks open every later run of this chat. Leave relationships.md and places.md unpinned (pinned: false): later runs find them with memory_search.',
            'Update the blocks with what the new reply changed, keep them short and current (a pinned block\'s text must stay within its limit, or the write is refused), and drop what no longer holds.',
        ].join(' '),
};

export const STATE_KEEPER_PROFILE: Profile = {
    ...BASE,
    id: 'state-keeper',
    displayName: 'State keeper',
    description: "Works after each reply: reads it and updates the chat's state (variables, MVU) to match what happened.",
    presentation: 'background',
    tools: {
        ...BASE.tools,
        allow: [...LOOK_UP_TOOLS, 'state.patch', 'state.set', 'workspace.list_files', 'workspace.read_file', 'workspace.write_file', 'workspace.finish'],
        maxRounds: 12,
        maxCallsPerRun: 30,
    },
    workspace: { visibleRoots: [...VISIBLE_ROOTS], writableRoots: ['scratch'] },
    systemPrompt:
        'Call state_scopes, read what the new reply may have changed with state_get, and stage each change it made (damage, money spent, items gained or lost, time passed, places moved to) with state_patch, one reason each. Change nothing the reply did not change. Global variables are not yours to change.',
};

export const BUILT_IN_PROFILES: readonly Profile[] = [
    WRITER_PROFILE,
    RESEARCHER_PROFILE,
    EDITOR_PROFILE,
    GAME_MASTER_PROFILE,
    DIRECTOR_PROFILE,
    LORE_KEEPER_PROFILE,
    MEMORY_KEEPER_PROFILE,
    STATE_KEEPER_PROFILE,
];

export function builtInProfile(id: string): Profile | undefined {
    return BUILT_IN_PROFILES.find((profile) => profile.id === id);
}

/** Whether a canonical tool name matches a profile pattern ("*", "workspace.*" or an exact name). */
export function matchesToolPattern(name: string, pattern: string): boolean {
    // Other extensions' tools are offered only when named (`ext.*` or `ext.<name>`): "*" does not reach them.
    if (pattern === '*') return !name.startsWith('ext.');
    if (pattern.endsWith('.*')) return name.startsWith(pattern.slice(0, -1));
    return name === pattern;
}

export function isToolAllowed(profile: Pick<Profile, 'tools'> & Partial<Pick<Profile, 'scripts'>>, name: string): boolean {
    const denied = profile.tools.deny.some((pattern) => matchesToolPattern(name, pattern));
    if (denied) return false;
    const needs = SCRIPT_TOOLS[name];
    if (needs) return scriptsAllow(profile.scripts ?? 'skills', needs);
    return profile.tools.allow.some((pattern) => matchesToolPattern(name, pattern));
}

function scriptsAllow(setting: ScriptsSetting, needs: ScriptsSetting): boolean {
    return setting === 'all' || (setting === 'skills' && needs === 'skills');
}

/**
 * Each commit is a chat save: a run's commits are bounded unless the profile sets its own cap (SPEC §3).
 * In the contract so the profile editor can show the cap a blank field means.
 */
export const DEFAULT_TOOL_CAPS: Readonly<Record<string, number>> = { 'workspace.commit': 10 };
