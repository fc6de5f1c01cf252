import * as z from 'zod';
import { toolError, type RecoverableCode } from '../../contract/errors';
import { loreRef } from '../../contract/lore';
import { SCRIPT_LIMITS, SCRIPT_MODULE_LIMITS, type ScriptFailure, type ScriptWorldInfoEntry } from '../../contract/scripts';
import { checkWrite } from '../../workspace/write-check';
import { checkWritable } from '../../workspace/paths';
import { aliasOf, defineTool, failure, success, type ToolContext, type ToolOutcome } from '../tool';
import { findSkill, isToolError } from './access';

/** A script's name: lowercase letters, digits and "-", starting with a letter or digit (TauriTavern's rule). */
const SCRIPT_NAME = /^[a-z0-9][a-z0-9-]*$/;

const args = z
    .object({
        skill: z.string().trim().min(1).describe('A visible skill that has scripts (skill_list).'),
        script: z.string().trim().min(1).describe('The script to run: the file name under the skill\'s scripts/, without ".js" (its SKILL.md names them).'),
        args: z.record(z.string(), z.unknown()).default({}).describe('An object passed to the script\'s entry function (default {}).'),
    })
    .strict();

const error = (code: RecoverableCode, message: string, hint: string): ToolOutcome => failure(toolError(code, message, hint));

/** The activated lore as a script reads it (`context.worldInfo.entries`). */
function worldInfoEntries(context: ToolContext): ScriptWorldInfoEntry[] {
    return context.input.worldInfo.entries.map((entry) => ({
        uid: String(entry.uid),
        ref: loreRef(entry),
        content: entry.content,
        constant: entry.constant,
        world: entry.book,
        ...(entry.title ? { displayName: entry.title } : {}),
    }));
}

/** The skill's `scripts/**.js` modules, read from the cache; or why they cannot be run. */
async function moduleSnapshot(context: ToolContext, skill: { name: string; hash: string; files: Array<{ path: string; bytes: number }> }): Promise<{ modules: Record<string, string> } | { refused: ToolOutcome }> {
    const paths = skill.files.filter((file) => file.path.startsWith('scripts/') && file.path.endsWith('.js'));
    const bytes = paths.reduce((sum, file) => sum + file.bytes, 0);
    if (paths.length > SCRIPT_MODULE_LIMITS.files || bytes > SCRIPT_MODULE_LIMITS.bytes) {
        return { refused: error('skill.run_script_execution_failed', `Skill "${skill.name}" has ${paths.length} script modules (${bytes} bytes), over the ${SCRIPT_MODULE_LIMITS.files} files and ${SCRIPT_MODULE_LIMITS.bytes} bytes a script may load.`, 'This skill\'s scripts cannot run here; work without them.') };
    }
    const modules: Record<string, string> = {};
    for (const { path } of paths) {
        const file = await context.skills.readFile(skill.hash, path);
        if (!file || file.encoding !== 'utf8') return { refused: error('skill.run_script_execution_failed', `The script module ${path} of skill "${skill.name}" could not be loaded.`, 'Go on without this script; the user can reopen the chat to sync skills.') };
        modules[path] = file.content;
    }
    return { modules };
}

const FAILURE_CODES: Record<ScriptFailure, RecoverableCode> = {
    execution: 'skill.run_script_execution_failed',
    timeout: 'skill.run_script_execution_failed',
    input_too_large: 'skill.run_script_execution_failed',
    output_too_large: 'skill.run_script_execution_failed',
    too_many_calls: 'skill.run_script_execution_failed',
    result_too_large: 'skill.run_script_result_too_large',
};

/**
 * skill.run_script (issue 35, TauriTavern's settled contract, SKILL-SCRIPTS.md §1): runs a visible skill's
 * script in the sandbox over a snapshot of the workspace. Its writes are applied after it ends, the last per
 * path: each checked against the roots the agent may write and the file's version at the snapshot, then
 * written (journaled and checkpointed) like workspace.write_file. Its logs go to the timeline, not the model.
 */
export const skillRunScriptTool = defineTool({
    name: 'skill.run_script',
    alias: aliasOf('skill.run_script'),
    description: [
        "Runs a script of a visible skill (a file under the skill's scripts/, named without .js) with args, and returns its result as JSON.",
        'Its SKILL.md says which scripts exist and what they take. A script reads the workspace folders you can see and may write files where you may write; they are written after it ends.',
        'It has no network and runs at most 30 s.',
    ].join(' '),
    args,
    readOnly: false,
    async execute(input, context) {
        if (!context.scripts) return error('skill.run_script_execution_failed', 'Scripts cannot run in this run.', 'Work without the skill\'s scripts.');
        if (!SCRIPT_NAME.test(input.script)) {
            return error('skill.run_script_invalid_name', `"${input.script}" is not a script name: use lowercase letters, digits and "-", without ".js" or a folder.`, "Check the script's name in the skill's SKILL.md (skill_read).");
        }
        const skill = findSkill(context, input.skill);
        if (isToolError(skill)) return error('skill.run_script_skill_not_visible', `There is no skill "${input.skill}" this agent may use.`, 'Call skill_list to see the skills you may use.');
        const entry = `scripts/${input.script}.js`;
        if (!skill.files.some((file) => file.path === entry)) {
            return error('skill.run_script_not_found', `Skill "${skill.name}" has no script ${entry}.`, `Read its SKILL.md with skill_read to see which scripts it has.`);
        }
        const snapshotted = await moduleSnapshot(context, skill);
        if ('refused' in snapshotted) return snapshotted.refused;
        const { modules } = snapshotted;
        const snapshot = context.workspace.list();
        const versions = new Map(snapshot.map((file) => [file.path, file.version]));
        const { policy } = context.workspace;
        const result = await context.scripts.run(
            {
                kind: 'skill',
                modules,
                entry,
                args: input.args,
                workspace: { files: Object.fromEntries(snapshot.map((file) => [file.path, file.content])), visible: [...policy.visible], writable: [...policy.writable] },
                context: { worldInfo: { entries: worldInfoEntries(context) }, variables: { local: {}, global: {} } },
                limits: SCRIPT_LIMITS,
            },
            async () => ({ ok: false, code: 'tool.not_allowed', message: 'A skill script calls no tools.' }),
        );
        const where = `${skill.name}/${entry}`;
        const details = { skill: skill.name, script: input.script, logs: result.logs };
        if (!result.ok) return error(FAILURE_CODES[result.failure], `${where} failed: ${result.message}`, 'Fix the arguments, or go on without this script.');
        // Every write is checked before any is made: a refused one leaves the workspace as it was.
        for (const write of result.writes) {
            const checked = checkWritable(write.path, policy);
            if (!checked.ok) return error('skill.run_script_write_failed', `${where} wrote ${write.path}, where this agent may not write: ${checked.error.message}`, 'Nothing it wrote was applied.');
            const now = context.workspace.get(write.path)?.version;
            if (now !== versions.get(write.path)) return error('skill.run_script_write_failed', `${where} wrote ${write.path}, which changed while the script ran.`, 'Nothing it wrote was applied; run it again.');
            const refused = checkWrite(write.path, context.workspace.get(write.path)?.content, write.content);
            if (refused) return error('skill.run_script_write_failed', `${where} wrote ${write.path}: ${refused.message}`, 'Nothing it wrote was applied.');
        }
        for (const write of result.writes) await context.workspace.write(write.path, write.content, 'replace');
        const written = result.writes.map((write) => write.path);
        return success(`Executed skill script \`${where}\`. Result:\n${result.json}${written.length ? `\nWrote: ${written.join(', ')}.` : ''}`, { ...details, writes: written, lastWritePath: result.lastWritePath });
    },
});
