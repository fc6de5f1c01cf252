import * as z from 'zod';

/**
 * State the story keeps outside its text (issue 36): where SillyTavern, Tavern Helper, MVU and Tracker keep
 * it (design/STATE-VARIABLES.md), what a run freezes of it, the changes the state tools stage, and what a
 * commit writes back. Every scope is read as it stood before the reply being written, on the active swipes of
 * the messages before it.
 * - `chat`: SillyTavern's chat variables (`chat_metadata.variables`), made branch-aware by our own op log;
 * - `global`: SillyTavern's global variables (never branch-aware: a write asks the user first);
 * - `message`: Tavern Helper's message variables, per swipe (`chat[i].variables[swipe_id]`);
 * - `mvu`: MVU's snapshot (`stat_data` and its `schema`) in those message variables;
 * - `tracker`: SillyTavern-Tracker's per-message object, read-only.
 */
export const STATE_SCOPES = ['chat', 'global', 'message', 'mvu', 'tracker'] as const;
export const StateScopeSchema = z.enum(STATE_SCOPES);
export type StateScope = z.infer<typeof StateScopeSchema>;

export const STATE_LIMITS = {
    /** A state.get result, as other reads are bounded. */
    readChars: 20_000,
    /** One scope as a run freezes it; a larger one is left out and named (the tools say so). */
    scopeChars: 200_000,
    /** Ops in one state.patch. */
    opsPerCall: 50,
    /** One value a tool writes, as JSON. */
    valueChars: 20_000,
    /** Path segments in a JSON Pointer. */
    pathDepth: 32,
    /** The MVU schema outline state.scopes shows. */
    outlineChars: 6_000,
} as const;

/** The event a commit of state emits on SillyTavern's event source, once per scope it wrote. */
export const STATE_COMMITTED_EVENT = 'tavern_agent_state_committed';

const pointer = z.string().max(2000);

/**
 * One change in MVU's JSON-Patch dialect (design note §3.3): `replace` sets, `delta` adds a number, `add` and
 * `insert` insert (`-` appends to an array), `remove` deletes, `move` moves `from` to `path` (or `to`). Paths
 * are JSON Pointers.
 */
export const StatePatchOpSchema = z.discriminatedUnion('op', [
    z.object({ op: z.literal('replace'), path: pointer, value: z.unknown() }),
    z.object({ op: z.literal('delta'), path: pointer, value: z.number().finite() }),
    z.object({ op: z.literal('add'), path: pointer, value: z.unknown() }),
    z.object({ op: z.literal('insert'), path: pointer, value: z.unknown() }),
    z.object({ op: z.literal('remove'), path: pointer }),
    z.object({ op: z.literal('move'), from: pointer, path: pointer.optional(), to: pointer.optional() }),
]);
export type StatePatchOp = z.infer<typeof StatePatchOpSchema>;

/** A chat or global variable as SillyTavern stores it: a string or a number; null: the variable is deleted. */
export const StoredVariableSchema = z.union([z.string(), z.number()]).nullable();
export type StoredVariable = z.infer<typeof StoredVariableSchema>;

const table = z.record(z.string(), z.unknown());

/** What a run freezes of the chat's state at its start (absent parts: that system keeps nothing here). */
export const CapturedStateSchema = z.object({
    /** SillyTavern's chat variables as the branch before the reply has them; null without the variables API. */
    chat: z.object({ values: table }).nullable(),
    global: z.object({ values: table }).nullable(),
    /**
     * Tavern Helper's message variables: the latest message before the reply whose shown swipe has a table
     * (`messageIndex`), or an empty table when none has one but Tavern Helper is loaded (null index).
     */
    message: z.object({ values: table, messageIndex: z.number().int().nonnegative().nullable() }).nullable(),
    /**
     * MVU: the latest valid snapshot before the reply (`stat_data` with its `schema`), as stored (values may
     * be `[value, "description"]` pairs); `loaded` when MVU itself runs on the page. `descriptions` come from
     * those pairs and the `[initvar]` lore entries, by JSON Pointer under stat_data.
     */
    mvu: z
        .object({
            statData: table.nullable(),
            schema: z.unknown().nullable(),
            messageIndex: z.number().int().nonnegative().nullable(),
            loaded: z.boolean(),
            descriptions: z.record(z.string(), z.string()),
            /** The texts of the `[initvar]` lore entries in scope, bounded: the worker reads their descriptions. */
            initvar: z.array(z.string().max(50_000)).max(20).optional(),
        })
        .nullable(),
    tracker: z.object({ value: z.unknown(), messageIndex: z.number().int().nonnegative() }).nullable(),
    /** Scopes present but over STATE_LIMITS.scopeChars, left out of the snapshot. */
    tooLarge: z.array(StateScopeSchema),
});
export type CapturedState = z.infer<typeof CapturedStateSchema>;

export const EMPTY_STATE: CapturedState = { chat: null, global: null, message: null, mvu: null, tracker: null, tooLarge: [] };

/**
 * What a commit writes, per scope, as the engine computed it from the run's staged changes: the host writes
 * each the way its system expects. `ops` are the staged changes in order (for the event and the MVU block).
 */
export const StateWriteSchema = z.discriminatedUnion('scope', [
    /** The variables the run changed, with their new stored values (null: deleted). */
    z.object({ scope: z.literal('chat'), ops: z.array(StatePatchOpSchema), values: z.record(z.string(), StoredVariableSchema) }),
    z.object({ scope: z.literal('global'), ops: z.array(StatePatchOpSchema), values: z.record(z.string(), StoredVariableSchema) }),
    /** The whole new table for the reply's swipe. */
    z.object({ scope: z.literal('message'), ops: z.array(StatePatchOpSchema), variables: table }),
    /**
     * The new `stat_data` as MVU stores it (description pairs kept) with the snapshot it came from, and the
     * update block appended to the reply (its ops relative to stat_data, as MVU reads them).
     */
    z.object({ scope: z.literal('mvu'), ops: z.array(StatePatchOpSchema), statData: table, base: table.nullable(), block: z.string() }),
]);
export type StateWrite = z.infer<typeof StateWriteSchema>;

/** One staged change, as the journal records it (`state-change`) and the timeline shows it. */
export const StateChangeSchema = z.object({
    scope: StateScopeSchema,
    ops: z.array(StatePatchOpSchema),
    reason: z.string().nullable(),
    /** The change as lines of the state: each path with its value before and after (JSON; null: absent). */
    diff: z.array(z.object({ path: z.string(), before: z.string().nullable(), after: z.string().nullable() })),
});
export type StateChange = z.infer<typeof StateChangeSchema>;
