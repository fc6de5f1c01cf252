import { readFrontMatter, type FrontMatterProblem } from '../contract/front-matter';

export { hasFrontMatter } from '../contract/front-matter';
import { SKILL_NAME_PATTERN } from '../contract/skills';
import { CONVENTIONAL_NAME_LENGTH } from './limits';
import { PAYLOAD_LIMITS, SKILL_LIMITS, type PayloadLimitCode } from './limits';

/**
 * SKILL.md's YAML front matter: `name` and `description` are required, everything else is kept as it was
 * written and grants nothing. Fields that sound like permissions are named in a warning so the user knows
 * they have no effect here.
 */
export interface FrontMatter {
    name: string;
    description: string;
    fields: Record<string, unknown>;
    warnings: string[];
}

export type FrontMatterResult = { ok: true; value: FrontMatter } | { ok: false; error: string; code?: PayloadLimitCode };

/** Fields other agent hosts read as grants; here permissions come from the profile and the user. */
const PERMISSION_FIELDS = new Set(['allowed-tools', 'allowed_tools', 'allowedTools', 'mcpServers', 'mcp-servers', 'mcp_servers', 'autoRun', 'auto-run', 'auto_run', 'permissions']);

/** The front matter of `text` (a SKILL.md); `where` prefixes every message ("lore-keeper/SKILL.md"). */
export function parseFrontMatter(text: string, where: string): FrontMatterResult {
    const read = readFrontMatter(text, { maxBytes: PAYLOAD_LIMITS.maxFrontMatterBytes, maxKeys: PAYLOAD_LIMITS.maxFrontMatterKeys, maxAliases: PAYLOAD_LIMITS.maxYamlAliases });
    if (!read.ok) return problemOf(read, where);
    const { fields } = read;
    const name = fields.name;
    if (name === undefined || name === null) return { ok: false, error: `${where}: front matter field "name" is missing` };
    if (typeof name !== 'string' || !SKILL_NAME_PATTERN.test(name)) {
        return { ok: false, error: `${where}: front matter field "name" must be 1–128 lowercase letters, digits, "-" or "_" (got ${JSON.stringify(name)})` };
    }
    const description = fields.description;
    if (description === undefined || description === null) return { ok: false, error: `${where}: front matter field "description" is missing` };
    if (typeof description !== 'string' || description.trim() === '') return { ok: false, error: `${where}: front matter field "description" must be text that is not blank` };
    if (description.trim().length > SKILL_LIMITS.maxDescriptionChars) {
        return { ok: false, error: `${where}: front matter field "description" is ${description.trim().length} characters, over the ${SKILL_LIMITS.maxDescriptionChars} a description may have` };
    }

    const warnings: string[] = [];
    if (name.length > CONVENTIONAL_NAME_LENGTH) warnings.push(`name is longer than ${CONVENTIONAL_NAME_LENGTH} characters (works here; other agent hosts may refuse it)`);
    for (const key of Object.keys(fields)) {
        if (PERMISSION_FIELDS.has(key)) warnings.push(`field "${key}" ignored: permissions come from the profile`);
    }
    return { ok: true, value: { name, description: description.trim(), fields, warnings } };
}

/** What the shared reader could not read, in the words the skill manager has always shown. */
function problemOf(read: FrontMatterProblem, where: string): FrontMatterResult {
    switch (read.problem) {
        case 'missing':
            return { ok: false, error: `${where}: front matter is missing (the file must start with a "---" line)` };
        case 'unclosed':
            return { ok: false, error: `${where}: front matter is not closed (no "---" line after it)` };
        case 'too_large':
            return { ok: false, code: 'skill.front_matter_too_large', error: `${where}: front matter is ${read.bytes.toLocaleString('en-US')} bytes, over the ${PAYLOAD_LIMITS.maxFrontMatterBytes / 1024} KiB limit of front matter` };
        case 'syntax':
            return { ok: false, error: `${where}: front matter is not valid YAML: ${read.detail}` };
        case 'aliases':
            return { ok: false, code: 'skill.yaml_aliases', error: `${where}: front matter expands its YAML aliases past the limit of ${PAYLOAD_LIMITS.maxYamlAliases}` };
        case 'not_mapping':
            return { ok: false, error: `${where}: front matter must be a YAML mapping (name: …, description: …)` };
        case 'too_many_keys':
            return { ok: false, code: 'skill.front_matter_keys', error: `${where}: front matter has ${read.keys} fields, over the limit of ${PAYLOAD_LIMITS.maxFrontMatterKeys}` };
    }
}
