import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { parseQuery } from '../chat/search-index';
import { lineText, numberedLine } from '../text-range';
import { aliasOf, defineTool, failure, success } from '../tool';
import { clip } from '../workspace/search-files';
import { fileNotFound, findSkill, isToolError, readSkillText, runBudgetExhausted, SKILL_CHARS_DETAIL, skillBudget, skillPath, skillRef } from './access';
import { prepareText, searchLines, TopHits, type PreparedText } from './search-lines';
import { searchDeadline, timeCutNote } from '../search-deadline';

export const MAX_SKILL_SEARCH_HITS = 50;

const args = z.object({
    name: z.string().min(1).describe('The skill to search (its name, from skill_list).'),
    query: z
        .string()
        .min(1)
        .describe('Words to find, case-insensitive (words of 1–2 letters match whole words only); Chinese/Japanese work without spaces. A line matches when it holds any of the words; more of them rank higher, the exact phrase highest.'),
    path: z.string().default('').describe('Only this file or folder of the skill, e.g. "references" or "references/places.md". Default: every text file.'),
    limit: z.number().int().min(1).max(MAX_SKILL_SEARCH_HITS).default(20).describe(`Most hits to return (1–${MAX_SKILL_SEARCH_HITS}, default 20).`),
    context_lines: z.number().int().min(0).max(5).default(2).describe('Lines shown before and after each hit (0–5, default 2).'),
});

interface FileHit {
    path: string;
    prepared: PreparedText;
    line: number;
    column: number;
    score: number;
}

export const skillSearchTool = defineTool({
    name: 'skill.search',
    alias: aliasOf('skill.search'),
    description: [
        'Searches the text files of one skill by words (case-insensitive; Chinese and Japanese work without spaces), line by line.',
        'Each hit shows "path:line score <0–1>", a ref such as skills/<name>/references/a.md#L10-L14, and the numbered lines around it; hits are ranked by score, then by file and line.',
        'The snippet characters count against the skill read budget of this run. Zero hits is a normal answer, not an error. Read more with skill_read.',
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, context) {
        const skill = findSkill(context, input.name);
        if (isToolError(skill)) return failure(skill);
        const query = parseQuery(input.query);
        const shownQuery = JSON.stringify(input.query);
        if (query.tokens.length === 0) {
            return failure(toolError('tool.invalid_arguments', `The query ${shownQuery} holds no text to search for.`, 'Send a query with at least one word or character.'));
        }
        const path = skillPath(skill, input.path);
        const files = skill.files.filter((file) => path === '' || file.path === path || file.path.startsWith(`${path}/`));
        if (files.length === 0) return failure(fileNotFound(skill, path));
        const budget = skillBudget(context);
        if (budget.remaining === 0) return failure(runBudgetExhausted(context));

        const top = new TopHits<FileHit>(input.limit);
        let searched = 0;
        let reached = 0;
        const deadline = searchDeadline();
        for (const entry of files) {
            if (deadline.passed()) break;
            reached += 1;
            const read = await readSkillText(context, skill, entry.path);
            if (isToolError(read)) {
                // Binary files are not searched; a path naming one binary file says so (issue 39 §10).
                if (read.code === 'skill.binary_file' && !(files.length === 1 && entry.path === path)) continue;
                return failure(read);
            }
            searched += 1;
            const prepared = prepareText(read.file);
            searchLines(prepared, query, (hit) => top.offer(hit.score, () => ({ path: entry.path, prepared, ...hit })));
        }
        const scope = path === '' ? `skill "${skill.name}"` : `"${skillRef(skill.name, path)}"`;
        const where = `${scope} (${searched} text file${searched === 1 ? '' : 's'} searched)`;
        const cut = reached < files.length;
        const cutNote = cut ? timeCutNote(`${reached} of its ${files.length} files, in path order`, 'Search under a path of the later files.') : '';
        const details = { skill: skill.name, query: input.query, path, files: searched, hits: top.total, ...(cut ? { stopped: 'time' } : {}) };
        if (top.total === 0) return success(`No hits for ${shownQuery} in ${where}.${cutNote || ' Try other or fewer words, or another path.'}`, { ...details, shown: 0, chars: 0 });

        // Snippets are skill text handed to the model: bounded by this call's and this run's budget, as it is
        // now (another agent of the run may have read meanwhile: the budget is the run's).
        const now = skillBudget(context);
        if (now.remaining === 0) return failure(runBudgetExhausted(context));
        const cap = Math.min(now.perCall, now.remaining);
        const blocks: string[] = [];
        let chars = 0;
        for (const hit of top.items) {
            const { text, starts } = hit.prepared;
            const first = Math.max(1, hit.line - input.context_lines);
            const last = Math.min(starts.length, hit.line + input.context_lines);
            const width = String(last).length;
            const lines: string[] = [];
            let snippet = 0;
            for (let line = first; line <= last; line += 1) {
                const shown = clip(lineText(text, starts, line), line === hit.line ? hit.column : 0);
                snippet += shown.length;
                lines.push(numberedLine(line, width, shown));
            }
            if (chars + snippet > cap) break;
            chars += snippet;
            blocks.push(`${hit.path}:${hit.line} score ${hit.score.toFixed(2)} ref ${skillRef(skill.name, hit.path, first, last)}\n${lines.join('\n')}`);
        }
        if (blocks.length === 0) {
            const limitedBy = cap < now.perCall ? `the ${cap} characters left of this run's skill read budget` : `the ${cap} characters of skill text one call may return`;
            return failure(
                toolError(
                    'skill.read_budget_exhausted',
                    `Even the first hit's snippet is over ${limitedBy}.`,
                    `Use context_lines 0 or a narrower path, or read the lines with skill_read (${now.remaining} characters remain this run).`,
                ),
            );
        }
        context.skills.charsRead += chars;
        const shown = blocks.length;
        const header =
            shown < top.total
                ? `${top.total} hits for ${shownQuery} in ${where}; showing the best ${shown}${shown < Math.min(input.limit, top.total) ? ' (cut by the skill read budget)' : ''}. Narrow the query or path to see others.`
                : `${top.total} hit${top.total === 1 ? '' : 's'} for ${shownQuery} in ${where}.`;
        const footer = `[Skill read budget: ${now.remaining - chars} of ${now.perRun} characters left this run.]`;
        return success([header + cutNote, ...blocks, footer].join('\n\n'), { ...details, shown, chars, [SKILL_CHARS_DETAIL]: chars });
    },
});
