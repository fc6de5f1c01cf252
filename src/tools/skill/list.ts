import * as z from 'zod';
import type { RunSkill } from '../../contract/skills';
import { aliasOf, defineTool, success } from '../tool';
import { skillRef } from './access';

/** Files listed per skill; a larger skill says how many more there are. */
const MAX_FILES_LISTED = 60;
const MAX_DESCRIPTION = 1_024;
const MAX_OUTPUT_CHARS = 40_000;

function size(bytes: number): string {
    return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

function describe(skill: RunSkill): string {
    const description = skill.description.length > MAX_DESCRIPTION ? `${skill.description.slice(0, MAX_DESCRIPTION)}…` : skill.description;
    const files = skill.files.slice(0, MAX_FILES_LISTED).map((file) => `  ${file.path} (${size(file.bytes)})`);
    if (skill.files.length > MAX_FILES_LISTED) files.push(`  … and ${skill.files.length - MAX_FILES_LISTED} more files (skill_search with path narrows to a folder)`);
    return [`${skill.name}: ${description.replace(/\s+/g, ' ')}`, `  ref ${skillRef(skill.name, 'SKILL.md')}, ${skill.files.length} file${skill.files.length === 1 ? '' : 's'}:`, ...files].join('\n');
}

export const skillListTool = defineTool({
    name: 'skill.list',
    alias: aliasOf('skill.list'),
    description: [
        'Lists the skills this agent may read: name, description, and each skill\'s files with sizes.',
        'A skill is a folder of read-only instructions (SKILL.md) and references written for tasks like yours.',
        'Read one with skill_read (name, path; SKILL.md by default) or search it with skill_search.',
    ].join(' '),
    args: z.object({}),
    readOnly: true,
    async execute(_, { input }) {
        const skills = input.skills;
        if (skills.length === 0) return success('No skills are visible to this agent.', { skills: [] });
        const blocks: string[] = [];
        let length = 0;
        for (const skill of skills) {
            const block = describe(skill);
            if (length + block.length > MAX_OUTPUT_CHARS) {
                blocks.push(`[${skills.length - blocks.length} more skills not shown: this list is cut at ${MAX_OUTPUT_CHARS} characters.]`);
                break;
            }
            blocks.push(block);
            length += block.length + 2;
        }
        const header = `${skills.length} skill${skills.length === 1 ? '' : 's'} visible (read-only):`;
        return success([header, ...blocks].join('\n\n'), { skills: skills.map((skill) => ({ name: skill.name, files: skill.files.length })) });
    },
});
