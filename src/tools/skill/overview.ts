import type { RunSkill } from '../../contract/skills';

const MAX_DESCRIPTION = 300;
export const OVERVIEW_MAX_CHARS = 4_000;

/**
 * The first turn's list of visible skills: names and descriptions only (progressive disclosure: bodies
 * are read on demand). Bounded; a long list is cut with a count and a pointer to skill_list.
 * Empty when there are no skills.
 */
export function skillsOverview(skills: readonly RunSkill[], maxChars = OVERVIEW_MAX_CHARS): string {
    if (skills.length === 0) return '';
    const lines = ['Skills: read-only instructions and references for tasks like yours. Read one with skill_read (its SKILL.md first), search it with skill_search.'];
    let length = lines[0]!.length;
    for (const [index, skill] of skills.entries()) {
        const flat = skill.description.replace(/\s+/g, ' ').trim();
        const line = `- ${skill.name}: ${flat.length > MAX_DESCRIPTION ? `${flat.slice(0, MAX_DESCRIPTION)}…` : flat}`;
        const rest = skills.length - index;
        // Keep room for the closing note whenever a line may be cut.
        if (length + line.length + 1 + (rest > 1 ? 80 : 0) > maxChars) {
            lines.push(`[${rest} more skill${rest === 1 ? '' : 's'} not listed here: call skill_list to see them all.]`);
            break;
        }
        lines.push(line);
        length += line.length + 1;
    }
    return lines.join('\n');
}
