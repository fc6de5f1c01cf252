import type { CapturedState, StateChange, StatePatchOp, StateScope, StateWrite } from '../contract/state';
import { isContainer } from './json-pointer';
import { mvuRelativeOps, mvuUpdateBlock, MVU_ROOT } from './mvu-block';
import { rewrapValues, unwrapValues } from './mvu-data';
import { stateError, stateOk, type StateOutcome } from './outcome';
import { applyPatch } from './patch';
import { changedVariables, variablesView } from './variables';

/**
 * The state as the tools show it, per scope, from what the run froze at its start plus the changes it
 * staged since (later reads see them): chat and global variables as a table (JSON text shown as the object
 * it holds), Tavern Helper's message table, MVU's values under `/stat_data` (description pairs unwrapped),
 * Tracker's object. And what a commit writes of those changes, per scope.
 */

/** Keys of a message table that are MVU's, never the message scope's to change (the mvu scope changes them). */
export const MVU_KEYS = new Set(['stat_data', 'schema', 'display_data', 'delta_data', 'initialized_lorebooks', 'snapshot']);

export function presentScopes(captured: CapturedState): StateScope[] {
    const scopes: StateScope[] = [];
    if (captured.chat) scopes.push('chat');
    if (captured.global) scopes.push('global');
    if (captured.message) scopes.push('message');
    if (captured.mvu) scopes.push('mvu');
    if (captured.tracker) scopes.push('tracker');
    return scopes;
}

/** The scope's state at the run's start, or why there is none. */
export function capturedView(captured: CapturedState, scope: StateScope): StateOutcome<unknown> {
    if (captured.tooLarge.includes(scope)) {
        return stateError('state.scope_unavailable', `The ${scope} state of this chat is too large to read here.`, 'Use another scope, or ask the user to trim it.');
    }
    switch (scope) {
        case 'chat':
            return captured.chat ? stateOk(variablesView(captured.chat.values)) : unavailable(scope);
        case 'global':
            return captured.global ? stateOk(variablesView(captured.global.values)) : unavailable(scope);
        case 'message':
            if (!captured.message) return unavailable(scope);
            return stateOk(Object.fromEntries(Object.entries(captured.message.values).filter(([key]) => !MVU_KEYS.has(key))));
        case 'mvu':
            return captured.mvu ? stateOk({ [MVU_ROOT]: unwrapValues(captured.mvu.statData ?? {}) }) : unavailable(scope);
        case 'tracker':
            return captured.tracker ? stateOk(captured.tracker.value) : unavailable(scope);
    }
}

function unavailable(scope: StateScope): StateOutcome<never> {
    const why: Record<StateScope, string> = {
        chat: "SillyTavern's chat variables are not available here.",
        global: "SillyTavern's global variables are not available here.",
        message: "Tavern Helper's message variables are not available here.",
        mvu: 'This chat has no MVU state: no message before the reply carries a valid MVU snapshot, and MVU is not loaded.',
        tracker: 'This chat has no Tracker state: no message before the reply carries a tracker.',
    };
    return stateError('state.scope_unavailable', why[scope], 'Call state_scopes to see the scopes this chat has.');
}

/** The scope's state now: as frozen, with the run's staged changes of that scope applied in order. */
export function currentView(captured: CapturedState, scope: StateScope, changes: readonly StateChange[]): StateOutcome<unknown> {
    const start = capturedView(captured, scope);
    if (!start.ok) return start;
    const ops = changes.filter((change) => change.scope === scope).flatMap((change) => change.ops);
    if (!ops.length) return start;
    const patched = applyPatch(start.value, ops);
    // Staged changes applied once already; they apply again the same way.
    return patched.ok ? stateOk(patched.value.value) : patched;
}

/** One JSON line of a value for a diff, or null when absent; long values are cut. */
function line(value: unknown): string | null {
    if (value === undefined) return null;
    const text = JSON.stringify(value) ?? 'null';
    return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** The change as the touched paths with their values before and after. */
export function diffOf(before: unknown, after: unknown, touched: readonly string[]): StateChange['diff'] {
    const at = (root: unknown, path: string): unknown => {
        let node = root;
        for (const token of path.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))) {
            if (!isContainer(node)) return undefined;
            node = Array.isArray(node) ? node[Number(token)] : Object.hasOwn(node, token) ? (node as Record<string, unknown>)[token] : undefined;
        }
        return node;
    };
    return touched.slice(0, 50).map((path) => ({ path, before: line(at(before, path)), after: line(at(after, path)) }));
}

/** What the commit writes for the run's staged changes, one write per scope that changed. */
export function stateWrites(captured: CapturedState, changes: readonly StateChange[], reasons = true): StateWrite[] {
    const writes: StateWrite[] = [];
    for (const scope of ['chat', 'global', 'message', 'mvu'] as const) {
        const scoped = changes.filter((change) => change.scope === scope);
        if (!scoped.length) continue;
        const ops: StatePatchOp[] = scoped.flatMap((change) => change.ops);
        const before = capturedView(captured, scope);
        const after = currentView(captured, scope, changes);
        if (!before.ok || !after.ok) continue;
        const table = (value: unknown) => (isContainer(value) && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
        if (scope === 'chat' || scope === 'global') {
            writes.push({ scope, ops, values: changedVariables(table(before.value), table(after.value)) });
        } else if (scope === 'message') {
            writes.push({ scope, ops, variables: table(after.value) });
        } else {
            const relative = mvuRelativeOps(ops);
            if (!relative.ok) continue;
            const base = captured.mvu?.statData ?? null;
            const statData = table(rewrapValues(base ?? {}, table(after.value)[MVU_ROOT]));
            const why = reasons ? scoped.flatMap((change) => (change.reason ? [change.reason] : [])) : [];
            writes.push({ scope, ops, statData, base, block: mvuUpdateBlock(relative.value, why) });
        }
    }
    return writes;
}
