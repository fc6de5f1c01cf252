import { toolError, type ToolError } from '../../contract/errors';
import type { RunSkill, SkillFile } from '../../contract/skills';
import type { ToolContext, ToolOutcome } from '../tool';

/** How the model addresses a skill file: `skills/<name>/<path>#L<a>-L<b>`. */
export function skillRef(name: string, path: string, first?: number, last?: number): string {
    return `skills/${name}/${path}${first === undefined ? '' : `#L${first}-L${last ?? first}`}`;
}

/** The visible skill of this name, or the error telling the model it is hidden or does not exist. */
export function findSkill(context: ToolContext, name: string): RunSkill | ToolError {
    const skill = context.input.skills.find((candidate) => candidate.name === name);
    if (skill) return skill;
    const visible = context.input.skills.map((candidate) => candidate.name);
    const listed = visible.length === 0 ? 'No skills are visible to this agent.' : `Visible skills: ${visible.slice(0, 20).join(', ')}${visible.length > 20 ? ', …' : ''}.`;
    if (context.input.hiddenSkills.includes(name)) {
        return toolError('skill.not_visible', `Skill "${name}" is installed, but this agent's profile may not read it.`, `${listed} Work without it.`);
    }
    return toolError('skill.not_found', `There is no skill named "${name}".`, `${listed} Call skill_list to see names and descriptions.`);
}

export function isToolError(value: unknown): value is ToolError {
    return typeof value === 'object' && value !== null && 'code' in value && 'hint' in value;
}

/**
 * A path as the model may write it → the path inside the skill: the ref form
 * ("skills/lore-keeper/references/a.md#L3-L9") and a leading "./" are accepted too.
 */
export function skillPath(skill: RunSkill, path: string): string {
    let clean = path.trim().replace(/#L\d+(-L\d+)?$/, '');
    const prefix = `skills/${skill.name}/`;
    if (clean.startsWith(prefix)) clean = clean.slice(prefix.length);
    while (clean.startsWith('./')) clean = clean.slice(2);
    return clean.replace(/\/+$/, '');
}

export function fileNotFound(skill: RunSkill, path: string): ToolError {
    const files = skill.files.map((file) => file.path);
    const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
    const similar = files.filter((candidate) => candidate.slice(candidate.lastIndexOf('/') + 1).toLowerCase() === base);
    const shown = similar.length > 0 ? similar : files;
    return toolError(
        'skill.file_not_found',
        `Skill "${skill.name}" has no file "${path}".`,
        `${similar.length > 0 ? 'Did you mean' : 'Its files:'} ${shown.slice(0, 20).map((file) => `"${file}"`).join(', ')}${shown.length > 20 ? ', …' : ''}.`,
    );
}

/** A text file of the skill, or the recoverable error the model gets instead. */
export async function readSkillText(context: ToolContext, skill: RunSkill, path: string): Promise<{ file: SkillFile; text: string } | ToolError> {
    if (!skill.files.some((file) => file.path === path)) return fileNotFound(skill, path);
    const file = await context.skills.readFile(skill.hash, path);
    if (!file) {
        return toolError('skill.file_not_found', `"${skillRef(skill.name, path)}" could not be loaded: the skill is not in this browser's cache.`, 'Go on without it; the user can reopen the chat to sync skills.');
    }
    if (file.encoding !== 'utf8') {
        return toolError('skill.binary_file', `"${skillRef(skill.name, path)}" is a binary file (${file.bytes} bytes); skills are read as text only.`, 'Read the text files of this skill instead (skill_list shows them).');
    }
    return { file, text: file.content };
}

/**
 * What this agent may read of skills, and what is left of it: per call its profile's limit; per run the run's
 * one count (every agent's reads, before and after a resume) against its profile's limit and the run's.
 */
export function skillBudget(context: ToolContext): { perCall: number; perRun: number; used: number; remaining: number } {
    const { maxReadCharsPerCall, maxReadCharsPerRun } = context.input.profile.skills;
    const perRun = Math.min(maxReadCharsPerRun, context.skills.runLimit ?? maxReadCharsPerRun);
    const used = context.skills.charsRead;
    return { perCall: maxReadCharsPerCall, perRun, used, remaining: Math.max(0, perRun - used) };
}

/** Where a skill tool's result says how many characters of skill text it handed over (the journal keeps the count). */
export const SKILL_CHARS_DETAIL = 'skillChars';

/** The skill text a call's outcome handed over, as its details say (0 for any other call). */
export function skillCharsOf(outcome: ToolOutcome): number {
    const chars = outcome.ok ? outcome.result.details?.[SKILL_CHARS_DETAIL] : undefined;
    return typeof chars === 'number' && Number.isInteger(chars) && chars > 0 ? chars : 0;
}

export function runBudgetExhausted(context: ToolContext): ToolError {
    const { perRun, used } = skillBudget(context);
    return toolError(
        'skill.read_budget_exhausted',
        `This run has used its skill read budget: ${used} of ${perRun} characters (search snippets count).`,
        'No more skill text can be read in this run; go on with what you have read (0 characters remain).',
    );
}
