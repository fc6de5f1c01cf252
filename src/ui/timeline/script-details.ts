import type { ScriptLog } from '../../contract/scripts';
import { firstLine, toolDisplayName } from './format';
import type { ToolRow } from './rows';

/**
 * What the timeline shows of a script call (issue 35), read from what the call stored: its arguments (the
 * model's JSON text) and its outcome. Pure: the views stay thin, and a stored value of the wrong shape shows
 * less, never breaks the row.
 */

/** `program`: script.run, a program of the agent's own; `skill`: skill.run_script, a skill's script. */
export type ScriptTool = 'program' | 'skill';

/** Which script tool a call is: by its canonical name, or the alias the model used before the call started. */
export function scriptToolOf(row: Pick<ToolRow, 'name' | 'canonical'>): ScriptTool | null {
    const name = row.canonical ?? toolDisplayName(row.name);
    if (name === 'script.run') return 'program';
    if (name === 'skill.run_script') return 'skill';
    return null;
}

/** A JSON object's fields, or null for anything else. */
function recordOf(value: unknown): Record<string, unknown> | null {
    // Any non-array object may be read field by field; each field is checked where it is used.
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

function parsedObject(text: string): Record<string, unknown> | null {
    try {
        return recordOf(JSON.parse(text));
    } catch {
        return null;
    }
}

/** A value the model passed as `args`, pretty-printed; null when there is none (or an empty object). */
function argsText(value: unknown): string | null {
    if (value === undefined || value === null) return null;
    if (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0) return null;
    return JSON.stringify(value, null, 2);
}

/** A program's code and the args it was given. */
export function programInput(storedArgs: string): { code: string; args: string | null } | null {
    const args = parsedObject(storedArgs);
    if (!args || typeof args.code !== 'string') return null;
    return { code: args.code, args: argsText(args.args) };
}

/** Which skill's script ran (its path in the skill, as skill.run_script maps the name) and with what. */
export function skillScriptInput(storedArgs: string): { skill: string; path: string; args: string | null } | null {
    const args = parsedObject(storedArgs);
    if (!args || typeof args.skill !== 'string' || typeof args.script !== 'string') return null;
    return { skill: args.skill, path: `scripts/${args.script}.js`, args: argsText(args.args) };
}

const LOG_LEVELS: readonly string[] = ['info', 'warn', 'error', 'debug'] satisfies ReadonlyArray<ScriptLog['level']>;

function isLogLevel(level: unknown): level is ScriptLog['level'] {
    return typeof level === 'string' && LOG_LEVELS.includes(level);
}

/** A skill script's log (it goes to the timeline, not the model): the details its stored outcome carries. */
export function scriptLogs(storedResult: string): ScriptLog[] {
    const outcome = parsedObject(storedResult);
    const details = outcome?.ok === true ? recordOf(recordOf(outcome.result)?.details) : null;
    const logs: unknown[] = Array.isArray(details?.logs) ? details.logs : [];
    return logs.flatMap((entry) => {
        const log = recordOf(entry);
        return log && isLogLevel(log.level) && typeof log.text === 'string' ? [{ level: log.level, text: log.text }] : [];
    });
}

/**
 * The collapsed row's line for a finished script call, from its summary (the start of what the model read,
 * as the script tools word it): what it returned, and for a skill's script which one ran. Any other
 * summary is shown by its first line.
 */
export function scriptResultLine(tool: ScriptTool, summary: string): string {
    if (tool === 'program') {
        const match = /^Program result:\n/.exec(summary);
        return firstLine(match ? summary.slice(match[0].length) : summary);
    }
    const match = /^Executed skill script `([^`]+)`\. Result:\n/.exec(summary);
    return match ? `${match[1]} → ${firstLine(summary.slice(match[0].length))}` : firstLine(summary);
}
