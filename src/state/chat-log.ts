import * as z from 'zod';
import { StoredVariableSchema, type StoredVariable } from '../contract/state';

/**
 * SillyTavern's chat variables, made branch-aware (issue 36). SillyTavern keeps one mutable table per chat,
 * so a swipe or a deleted message never rolls a value back. For the variables Tavern Agent writes, each reply
 * that changed them carries the new values in its marker, per swipe (`ChatOps`), and the chat's metadata
 * keeps what each variable was before we first wrote it (`base`) and what we last set (`applied`). Replaying a
 * variable along the active path (base, then every reply's op on its shown swipe) gives the branch's value.
 *
 * The user's own writes win: a variable whose live value is no longer what we applied was changed by someone
 * else (`/setvar`, a Quick Reply, another extension); we stop managing it and leave their value. A later
 * write of ours starts a new epoch, so older replies' ops of that variable no longer count.
 */

/** A reply's changes to chat variables: each variable's value after the reply (null: deleted), with its epoch. */
export const ChatOpsSchema = z.record(z.string().max(200), z.object({ v: StoredVariableSchema, e: z.number().int().nonnegative() }));
export type ChatOps = z.infer<typeof ChatOpsSchema>;

/**
 * A variable we manage: its value before our first write of this epoch, the epoch, and the value we last set.
 * `off`: someone else changed it, so it is theirs now; the entry stays to remember the epoch.
 */
const KeyStateSchema = z.object({ base: StoredVariableSchema, epoch: z.number().int().nonnegative(), applied: StoredVariableSchema, off: z.literal(true).optional() });

/** What the chat's metadata keeps: every variable we manage. At most MAX_KEYS of them. */
export const ChatStateMetaSchema = z.object({ v: z.literal(1), keys: z.record(z.string().max(200), KeyStateSchema) });
export type ChatStateMeta = z.infer<typeof ChatStateMetaSchema>;

export const CHAT_STATE_META_KEY = 'tavern_agent_state';
const MAX_KEYS = 500;

export const EMPTY_META: ChatStateMeta = { v: 1, keys: {} };

/** The metadata as stored, or an empty one when it is absent or not ours to trust (edited by hand, foreign). */
export function readMeta(raw: unknown): ChatStateMeta {
    const parsed = ChatStateMetaSchema.safeParse(raw);
    return parsed.success && Object.keys(parsed.data.keys).length <= MAX_KEYS ? parsed.data : { v: 1, keys: {} };
}

export function readOps(raw: unknown): ChatOps | null {
    const parsed = ChatOpsSchema.safeParse(raw);
    return parsed.success ? parsed.data : null;
}

/** A chat variable's live value as a stored one: missing is null; an object (Tavern Helper puts some) as its JSON. */
export function liveValue(table: Readonly<Record<string, unknown>>, key: string): StoredVariable {
    if (!Object.hasOwn(table, key)) return null;
    const value = table[key];
    if (value === undefined || value === null) return null;
    if (typeof value === 'string' || typeof value === 'number') return value;
    return JSON.stringify(value);
}

/** The value of a managed variable on this path: its base, then each reply's op of the same epoch. */
function branchValue(key: string, state: ChatStateMeta['keys'][string], path: ReadonlyArray<ChatOps | null>): StoredVariable {
    let value = state.base;
    for (const ops of path) {
        const op = ops?.[key];
        if (op && op.e === state.epoch) value = op.v;
    }
    return value;
}

/** Whether a managed variable is still ours: nobody else changed it since we last set it. */
function stillOurs(state: ChatStateMeta['keys'][string], table: Readonly<Record<string, unknown>>, key: string): boolean {
    return liveValue(table, key) === state.applied;
}

/**
 * What replaying along `path` (the ops of the messages on their shown swipes, in order) changes: the
 * variables to set (null: delete), and the metadata after it (variables changed by others no longer managed,
 * `applied` updated). Nothing to set when the live values already are the branch's.
 */
export function replayPlan(meta: ChatStateMeta, table: Readonly<Record<string, unknown>>, path: ReadonlyArray<ChatOps | null>): { sets: Record<string, StoredVariable>; meta: ChatStateMeta; changed: boolean } {
    const sets: Record<string, StoredVariable> = {};
    const keys: ChatStateMeta['keys'] = {};
    let changed = false;
    for (const [key, state] of Object.entries(meta.keys)) {
        if (state.off) {
            keys[key] = state;
            continue;
        }
        if (!stillOurs(state, table, key)) {
            keys[key] = { ...state, off: true };
            changed = true;
            continue;
        }
        const value = branchValue(key, state, path);
        if (value !== state.applied) {
            sets[key] = value;
            changed = true;
        }
        keys[key] = { ...state, applied: value };
    }
    return { sets, meta: { v: 1, keys }, changed };
}

/**
 * The chat variables as the branch `path` has them (a run's frozen view of the state before its reply): the
 * live table, with each variable we still manage replayed along the path.
 */
export function branchVariables(meta: ChatStateMeta, table: Readonly<Record<string, unknown>>, path: ReadonlyArray<ChatOps | null>): Record<string, unknown> {
    const view: Record<string, unknown> = { ...table };
    for (const [key, state] of Object.entries(meta.keys)) {
        if (state.off || !stillOurs(state, table, key)) continue;
        const value = branchValue(key, state, path);
        if (value === null) delete view[key];
        else view[key] = value;
    }
    return view;
}

/**
 * A reply's write of chat variables: the ops its marker carries, and the metadata after it. A variable not
 * yet managed (or changed by someone else since) starts a new epoch, with the value the branch had before
 * the reply as its base (what a swipe or a deletion goes back to).
 */
export function recordWrite(
    meta: ChatStateMeta,
    table: Readonly<Record<string, unknown>>,
    before: Readonly<Record<string, StoredVariable>>,
    values: Readonly<Record<string, StoredVariable>>,
): { ops: ChatOps; meta: ChatStateMeta } {
    const keys = { ...meta.keys };
    const ops: ChatOps = {};
    for (const [key, value] of Object.entries(values)) {
        let state = keys[key];
        if (!state || state.off || !stillOurs(state, table, key)) {
            if (!state && Object.keys(keys).length >= MAX_KEYS) continue;
            state = { base: before[key] ?? null, epoch: (state?.epoch ?? 0) + 1, applied: liveValue(table, key) };
        }
        keys[key] = state;
        ops[key] = { v: value, e: state.epoch };
    }
    return { ops, meta: { v: 1, keys } };
}
