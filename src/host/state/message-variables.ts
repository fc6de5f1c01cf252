import type { ChatMessage } from '../sillytavern/st-context';

/**
 * Tavern Helper's message variables (design note §2): `chat[i].variables[swipe_id]`, an array indexed by swipe
 * (a legacy plain object keyed by swipe number, or holding the table itself, is read too). MVU keeps its
 * snapshot in the same table. The one place they are read and written.
 */
type Table = Record<string, unknown>;
type WithVariables = ChatMessage & { variables?: unknown; tracker?: unknown };

const isTable = (value: unknown): value is Table => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The table of the message's shown swipe, or null when it has none. */
export function messageTable(message: ChatMessage): Table | null {
    const variables = (message as WithVariables).variables;
    const swipe = message.swipe_id ?? 0;
    if (Array.isArray(variables)) return isTable(variables[swipe]) ? variables[swipe] : null;
    if (!isTable(variables)) return null;
    const keys = Object.keys(variables);
    if (keys.length && keys.every((key) => /^\d+$/.test(key))) return isTable(variables[String(swipe)]) ? (variables[String(swipe)] as Table) : null;
    return swipe === 0 ? variables : null;
}

/** Sets the table of the message's shown swipe, as an array padded to its swipes (as Tavern Helper writes it). */
export function setMessageTable(message: ChatMessage, table: Table): void {
    const holder = message as WithVariables;
    const swipe = message.swipe_id ?? 0;
    const length = Math.max(message.swipes?.length ?? 1, swipe + 1);
    const current = Array.isArray(holder.variables) ? holder.variables : [];
    const next: unknown[] = Array.from({ length: Math.max(length, current.length) }, (_, index) => (isTable(current[index]) ? current[index] : {}));
    next[swipe] = table;
    holder.variables = next;
}

/** After SillyTavern deleted a swipe: the same swipe's table goes too (Tavern Helper does not splice it). */
export function spliceSwipeTable(message: ChatMessage, swipeId: number): void {
    const holder = message as WithVariables;
    if (Array.isArray(holder.variables) && swipeId < holder.variables.length) holder.variables.splice(swipeId, 1);
}

/** A valid MVU snapshot holds `stat_data` and its `schema` (MVU's own test). */
export function isMvuSnapshot(table: Table | null): table is Table & { stat_data: Table } {
    return !!table && isTable(table.stat_data) && table.schema !== undefined && table.schema !== null;
}

/** SillyTavern-Tracker's object of a message (per message, not per swipe). */
export function messageTracker(message: ChatMessage): unknown {
    const tracker = (message as WithVariables).tracker;
    return isTable(tracker) && Object.keys(tracker).length ? tracker : undefined;
}
