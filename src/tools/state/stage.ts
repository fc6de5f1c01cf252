import { toolError } from '../../contract/errors';
import { STATE_LIMITS, type StateChange, type StatePatchOp, type StateScope } from '../../contract/state';
import { parsePointer } from '../../state/json-pointer';
import { mvuRelativeOps, MVU_ROOT } from '../../state/mvu-block';
import { checkMvuSchema } from '../../state/mvu-schema';
import { stateError, stateOk, type StateOutcome } from '../../state/outcome';
import { applyPatch } from '../../state/patch';
import { currentView, diffOf, MVU_KEYS } from '../../state/state-view';
import { failure, success, type ToolContext, type ToolOutcome } from '../tool';
import { capturedState, stateFailure } from './access';

/** The paths an op names (a move names two). */
function opPaths(op: StatePatchOp): string[] {
    if (op.op === 'move') return [op.from, ...(op.path !== undefined ? [op.path] : []), ...(op.to !== undefined ? [op.to] : [])];
    return [op.path];
}

/** Checks what only this scope forbids, before anything is applied. */
function checkScope(scope: StateScope, ops: readonly StatePatchOp[]): StateOutcome<null> {
    if (scope === 'tracker') return stateError('state.read_only', "Tracker's state is read-only here.", 'Tracker updates it itself after each reply; read it with state_get.');
    for (const op of ops) {
        if ((op.op === 'replace' || op.op === 'add' || op.op === 'insert') && op.value === undefined) {
            return stateError('state.invalid_op', `${op.op} at ${op.path} needs a value.`, 'Send the new value as "value": any JSON value.');
        }
        if ('value' in op && (JSON.stringify(op.value) ?? '').length > STATE_LIMITS.valueChars) {
            return stateError('state.value_too_large', `A value to write is over ${STATE_LIMITS.valueChars.toLocaleString('en-US')} characters as JSON.`, 'Write smaller values, one path each.');
        }
        for (const path of opPaths(op)) {
            const tokens = parsePointer(path);
            if (!tokens.ok) return tokens;
            if ((scope === 'chat' || scope === 'global') && tokens.value.length === 0) {
                return stateError('state.invalid_path', `A ${scope} write names the variable: /name, not the whole table.`, 'Use a path like /hp.');
            }
            if (scope === 'message' && MVU_KEYS.has(tokens.value[0] ?? '')) {
                return stateError('state.read_only', `${path} is MVU's, and changes only through the mvu scope.`, `Use scope mvu with a path under /${MVU_ROOT}.`);
            }
        }
    }
    if (scope === 'mvu') {
        const relative = mvuRelativeOps(ops);
        if (!relative.ok) return relative;
    }
    return stateOk(null);
}

/**
 * Stages a change (state.patch, state.set): checked against the scope, applied to the state as the run now
 * sees it, checked against MVU's schema, approved by the user for `global`, then journaled. The journal's
 * `state-change` is the staged change: later reads see it, and the run's commit writes it to the chat.
 */
export async function stageChange(context: ToolContext, scope: StateScope, ops: StatePatchOp[], reason: string | null, toolName: string, args: unknown): Promise<ToolOutcome> {
    if (!context.state || !context.journal) throw new Error(`${toolName} needs the run's state access and journal in its tool context.`);
    const checked = checkScope(scope, ops);
    if (!checked.ok) return stateFailure(checked);
    const captured = capturedState(context);
    const before = currentView(captured, scope, context.state.changes());
    if (!before.ok) return stateFailure(before);
    const patched = applyPatch(before.value, ops);
    if (!patched.ok) return stateFailure(patched);
    if (scope === 'mvu' && captured.mvu?.schema) {
        const root = (value: unknown) => (value as Record<string, unknown>)[MVU_ROOT];
        const schema = checkMvuSchema(captured.mvu.schema, root(before.value), root(patched.value.value));
        if (!schema.ok) return stateFailure(schema);
    }
    if (scope === 'global') {
        const approved = context.state.approve ? await context.state.approve(toolName, args) : false;
        if (!approved) return failure(toolError('tool.denied_by_user', 'The user denied this change of global variables.', 'Global variables are shared by every chat; go on without changing them.'));
    }
    const change: StateChange = { scope, ops, reason, diff: diffOf(before.value, patched.value.value, patched.value.touched) };
    await context.journal.append('state-change', change);
    const lines = change.diff.map((entry) => `${entry.path}: ${entry.before ?? '(absent)'} → ${entry.after ?? '(removed)'}`);
    return success(`Staged in ${scope} (written to the chat with your commit):\n${lines.join('\n')}`, { scope, changed: change.diff.length });
}
