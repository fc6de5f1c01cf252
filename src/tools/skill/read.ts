import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { chooseRange, continueHow, lineStarts, mixesRanges, RANGE_ARGS, readByChars, renderRange } from '../text-range';
import { aliasOf, defineTool, failure, success } from '../tool';
import { findSkill, isToolError, readSkillText, runBudgetExhausted, SKILL_CHARS_DETAIL, skillBudget, skillPath, skillRef } from './access';

export const MAX_SKILL_READ_CHARS = 80_000;
export const DEFAULT_SKILL_READ_CHARS = 20_000;

const args = z.object({
    name: z.string().min(1).describe('The skill to read (its name, from skill_list).'),
    path: z.string().default('SKILL.md').describe('File inside the skill, e.g. "references/places.md". Default: SKILL.md.'),
    max_chars: z
        .number()
        .int()
        .max(MAX_SKILL_READ_CHARS)
        .optional()
        .describe(`Most characters of file text to return (1–${MAX_SKILL_READ_CHARS}, default ${DEFAULT_SKILL_READ_CHARS}; the profile's skill budget may allow less).`),
    ...RANGE_ARGS,
});

function invalidRange(message: string, hint: string) {
    return failure(toolError('skill.invalid_range', message, hint));
}

export const skillReadTool = defineTool({
    name: 'skill.read',
    alias: aliasOf('skill.read'),
    description: [
        'Reads a file of a skill (SKILL.md by default) as text with line numbers: each line comes back as "<line number>│<text>"; the number and "│" are not part of the file.',
        'Read a range with start_line (+ line_count), or with start_char (+ max_chars); line and char ranges cannot be mixed. A longer file returns its first part and says how to continue.',
        'Skills are read-only: copy what you need into scratch/ or summaries/. What you read counts against the skill read budget of this run.',
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, context) {
        const skill = findSkill(context, input.name);
        if (isToolError(skill)) return failure(skill);
        if (mixesRanges(input)) {
            return failure(
                toolError(
                    'skill.mixed_range',
                    `Read of "${skillRef(skill.name, input.path)}" mixes a line range (start_line/line_count) with a char range (start_char).`,
                    'Use either start_line + line_count, or start_char + max_chars.',
                ),
            );
        }
        const path = skillPath(skill, input.path) || 'SKILL.md';
        const read = await readSkillText(context, skill, path);
        if (isToolError(read)) return failure(read);
        const { text } = read;
        const ref = skillRef(skill.name, path);
        const starts = lineStarts(text);
        const lines = starts.length;
        const size = `"${ref}" has ${lines} line${lines === 1 ? '' : 's'} (${text.length} chars)`;
        if (input.max_chars !== undefined && input.max_chars < 1) {
            return invalidRange(`max_chars must be at least 1 (got ${input.max_chars}); ${size}.`, `Use a max_chars from 1 to ${MAX_SKILL_READ_CHARS}.`);
        }

        const budget = skillBudget(context);
        if (budget.remaining === 0) return failure(runBudgetExhausted(context));
        if (input.max_chars !== undefined && input.max_chars > budget.perCall) {
            return failure(
                toolError(
                    'skill.read_budget_exhausted',
                    `max_chars ${input.max_chars} is over this agent's skill budget of ${budget.perCall} characters a call.`,
                    `Ask for max_chars ${Math.min(budget.perCall, budget.remaining)} or less (${budget.remaining} characters remain this run), and continue in a later call.`,
                ),
            );
        }
        const limit = Math.min(input.max_chars ?? DEFAULT_SKILL_READ_CHARS, budget.perCall, budget.remaining);
        const chosen = chooseRange(text, starts, input, limit, size);
        if (!chosen.ok) return invalidRange(chosen.message, chosen.hint);
        const { slice } = chosen;
        context.skills.charsRead += slice.to - slice.from;
        const left = budget.remaining - (slice.to - slice.from);

        const details = { skill: skill.name, hash: skill.hash, path, startChar: slice.from, endChar: slice.to, totalChars: text.length, totalLines: lines, complete: slice.next === null, budgetLeft: left, [SKILL_CHARS_DETAIL]: slice.to - slice.from };
        if (text.length === 0) return success(`${ref} — empty file, 0 lines`, details);
        const { body, firstLine, lastLine } = renderRange(text, starts, slice.from, slice.to);
        const span = readByChars(input, slice)
            ? `chars ${slice.from}–${slice.to - 1} of ${text.length}, lines ${firstLine}–${lastLine} of ${lines}`
            : `lines ${firstLine}–${lastLine} of ${lines}`;
        const parts = [`${ref} — ${span} (ref ${skillRef(skill.name, path, firstLine, lastLine)})`, body];
        if (slice.next !== null) {
            const why = limit < (input.max_chars ?? DEFAULT_SKILL_READ_CHARS) ? 'the skill read budget' : `its size limit (${limit} chars of text)`;
            parts.push(`[Not everything you asked for: this read stopped at ${why}. To continue, call skill_read with name "${skill.name}", path "${path}" and ${continueHow(slice.next)}.]`);
        }
        parts.push(`[Skill read budget: ${left} of ${budget.perRun} characters left this run.]`);
        return success(parts.join('\n'), { ...details, firstLine, lastLine });
    },
});
