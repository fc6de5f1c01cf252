import type { StatePatchOp } from '../contract/state';
import { arrayIndex, formatPointer, isContainer, parsePointer, valueAt, type Pointer } from './json-pointer';
import { stateError, stateOk, type StateOutcome } from './outcome';

/**
 * Applies changes in MVU's JSON-Patch dialect (design note §3.3) to a copy of a state: `replace` sets (a new
 * key of an existing object too), `delta` adds to a number (a numeric string counts, as SillyTavern's
 * variables store numbers as text), `add`/`insert` insert (`-` appends to an array; on an object they set the
 * key), `remove` deletes, `move` moves `from` to `path` (or `to`). The input is never changed. A change that
 * cannot apply is the model's to fix: its code names why, and the op's number where.
 */
export interface Patched {
    value: unknown;
    /** Every path a change touched, in order (a move's source and target both). */
    touched: string[];
}

export function applyPatch(root: unknown, ops: readonly StatePatchOp[]): StateOutcome<Patched> {
    let state = structuredClone(root);
    const touched: string[] = [];
    for (let i = 0; i < ops.length; i++) {
        const op = ops[i]!;
        const applied = applyOne(state, op);
        if (!applied.ok) {
            const where = ops.length > 1 ? `Change ${i + 1} (${op.op}): ` : '';
            return stateError(applied.error.code, where + applied.error.message, applied.error.hint);
        }
        state = applied.value.state;
        touched.push(...applied.value.paths);
    }
    return stateOk({ value: state, touched: [...new Set(touched)] });
}

type Step = StateOutcome<{ state: unknown; paths: string[] }>;

function applyOne(state: unknown, op: StatePatchOp): Step {
    if (op.op === 'move') return move(state, op.from, op.path ?? op.to);
    const tokens = parsePointer(op.path);
    if (!tokens.ok) return tokens;
    const path = formatPointer(tokens.value);
    switch (op.op) {
        case 'replace':
            return put(state, tokens.value, op.value, 'set', path);
        case 'add':
        case 'insert':
            return put(state, tokens.value, op.value, 'insert', path);
        case 'delta': {
            const current = valueAt(state, tokens.value);
            if (!current.found) return notFound(path, tokens.value.length === 0);
            const number = numberOf(current.value);
            if (number === null) {
                return stateError('state.invalid_op', `delta adds to a number, and ${path} holds ${describe(current.value)}.`, 'Use replace to set a value that is not a number.');
            }
            return put(state, tokens.value, number + op.value, 'set', path);
        }
        case 'remove': {
            const removed = take(state, tokens.value, path);
            return removed.ok ? stateOk({ state: removed.value.state, paths: [path] }) : removed;
        }
    }
}

function numberOf(value: unknown): number | null {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
    return null;
}

function describe(value: unknown): string {
    if (value === null) return 'null';
    if (Array.isArray(value)) return 'a list';
    if (typeof value === 'object') return 'an object';
    return `the ${typeof value} ${JSON.stringify(value).slice(0, 60)}`;
}

function notFound(path: string, root: boolean): Step {
    return stateError('state.path_not_found', root ? 'There is no state at the root to change.' : `Nothing is at ${path}.`, 'Read the state with state_get to see which paths exist; add a new key with replace or insert.');
}

/** Sets (`set`) or inserts (`insert`) `value` at `tokens`; the root itself may only be replaced. */
function put(state: unknown, tokens: Pointer, value: unknown, mode: 'set' | 'insert', path: string): Step {
    if (tokens.length === 0) return stateOk({ state: structuredClone(value), paths: [path || '/'] });
    const parent = valueAt(state, tokens.slice(0, -1));
    if (!parent.found || !isContainer(parent.value)) {
        return stateError('state.path_not_found', `${formatPointer(tokens.slice(0, -1)) || 'The root'} is not an object or a list, so ${path} cannot be set.`, 'Set the parent first, or check the path with state_get.');
    }
    const key = tokens.at(-1)!;
    const copy = structuredClone(value);
    if (Array.isArray(parent.value)) {
        const list = parent.value;
        const index = key === '-' ? list.length : arrayIndex(key);
        const limit = mode === 'insert' ? list.length : list.length - 1;
        if (index === null || index > limit) {
            return stateError('state.invalid_path', `${path} is not a place in a list of ${list.length}.`, mode === 'insert' ? 'Use an index from 0 to the length, or "-" to append.' : 'Use an index of an existing element, or insert with "-" to append.');
        }
        if (mode === 'insert') list.splice(index, 0, copy);
        else list[index] = copy;
        return stateOk({ state, paths: [formatPointer([...tokens.slice(0, -1), String(index)])] });
    }
    (parent.value as Record<string, unknown>)[key] = copy;
    return stateOk({ state, paths: [path] });
}

function take(state: unknown, tokens: Pointer, path: string): StateOutcome<{ state: unknown; value: unknown }> {
    if (tokens.length === 0) return stateError('state.invalid_op', 'The whole state cannot be removed.', 'Remove the keys you mean, one path each.');
    const current = valueAt(state, tokens);
    if (!current.found) return stateError('state.path_not_found', `Nothing is at ${path} to remove.`, 'Read the state with state_get to see which paths exist.');
    const parent = valueAt(state, tokens.slice(0, -1));
    const key = tokens.at(-1)!;
    if (parent.found && Array.isArray(parent.value)) parent.value.splice(arrayIndex(key)!, 1);
    else if (parent.found && isContainer(parent.value)) delete (parent.value as Record<string, unknown>)[key];
    return stateOk({ state, value: current.value });
}

function move(state: unknown, from: string, to: string | undefined): Step {
    if (to === undefined) return stateError('state.invalid_op', 'move needs a target: path (or to) beside from.', 'Send {"op":"move","from":"/a","path":"/b"}.');
    const source = parsePointer(from);
    if (!source.ok) return source;
    const target = parsePointer(to);
    if (!target.ok) return target;
    const fromPath = formatPointer(source.value);
    const toPath = formatPointer(target.value);
    if (toPath.startsWith(`${fromPath}/`)) return stateError('state.invalid_op', `${fromPath} cannot move into itself (${toPath}).`, 'Move it somewhere outside it.');
    const taken = take(state, source.value, fromPath);
    if (!taken.ok) return taken;
    const placed = put(taken.value.state, target.value, taken.value.value, 'insert', toPath);
    return placed.ok ? stateOk({ state: placed.value.state, paths: [fromPath, ...placed.value.paths] }) : placed;
}
