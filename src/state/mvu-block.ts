import type { StatePatchOp } from '../contract/state';
import { formatPointer, parsePointer } from './json-pointer';
import { stateError, stateOk, type StateOutcome } from './outcome';

/**
 * The MVU scope's paths start at `/stat_data`, as the snapshot stores it; MVU's own update blocks address
 * paths inside stat_data. Only the values under stat_data are the agent's to change.
 */
export const MVU_ROOT = 'stat_data';

function underStatData(path: string): StateOutcome<string> {
    const tokens = parsePointer(path);
    if (!tokens.ok) return tokens;
    if (tokens.value[0] !== MVU_ROOT || tokens.value.length < 2) {
        return stateError('state.invalid_path', `In the mvu scope only the values under /${MVU_ROOT} change, and ${JSON.stringify(path)} is not under it.`, `Start the path with /${MVU_ROOT}/, e.g. /${MVU_ROOT}/hp.`);
    }
    return stateOk(formatPointer(tokens.value.slice(1)));
}

/** The ops with their paths relative to stat_data, as an MVU update block writes them; refused when one is not under it. */
export function mvuRelativeOps(ops: readonly StatePatchOp[]): StateOutcome<StatePatchOp[]> {
    const out: StatePatchOp[] = [];
    for (const op of ops) {
        if (op.op === 'move') {
            const from = underStatData(op.from);
            if (!from.ok) return from;
            const target = op.path ?? op.to;
            const to = target === undefined ? null : underStatData(target);
            if (to && !to.ok) return to;
            out.push({ op: 'move', from: from.value, ...(to ? { path: to.value } : {}) });
            continue;
        }
        const path = underStatData(op.path);
        if (!path.ok) return path;
        out.push({ ...op, path: path.value });
    }
    return stateOk(out);
}

/**
 * MVU's update block, in the house format its own tool-call path writes (design note §3.3): the reasons in
 * `<Analyze>`, the ops as a JSON array in `<JSONPatch>`, inside `<UpdateVariable>`. Appended to the reply,
 * MVU replays it like any model-written update, so its replay, clean-up and restore keep working.
 */
export function mvuUpdateBlock(relativeOps: readonly StatePatchOp[], reasons: readonly string[]): string {
    const analysis = reasons.map((reason) => reason.replace(/<\/?(?:Analyze|JSONPatch|UpdateVariable)>/gi, '').trim()).filter(Boolean);
    return ['<UpdateVariable>', `<Analyze>${analysis.length ? analysis.join('\n') : 'State changes made by Tavern Agent.'}</Analyze>`, '<JSONPatch>', JSON.stringify(relativeOps, null, 1), '</JSONPatch>', '</UpdateVariable>'].join('\n');
}
