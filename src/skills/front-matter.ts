import { parseDocument } from 'yaml';
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

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^---[ \t]*\r?$/m;

export function hasFrontMatter(text: string): boolean {
    return OPENING.test(text);
}

/** The front matter of `text` (a SKILL.md); `where` prefixes every message ("lore-keeper/SKILL.md"). */
export function parseFrontMatter(text: string, where: string): FrontMatterResult {
    const opening = OPENING.exec(text);
    if (!opening) return { ok: false, error: `${where}: front matter is missing (the file must start with a "---" line)` };
    const rest = text.slice(opening[0].length);
    const closing = CLOSING.exec(rest);
    if (!closing) return { ok: false, error: `${where}: front matter is not closed (no "---" line after it)` };
    const block = rest.slice(0, closing.index);
    // Measured before YAML sees it: the parser's work grows with the block (issue 39 §1).
    const blockBytes = new TextEncoder().encode(block).length;
    if (blockBytes > PAYLOAD_LIMITS.maxFrontMatterBytes) {
        return { ok: false, code: 'skill.front_matter_too_large', error: `${where}: front matter is ${blockBytes.toLocaleString('en-US')} bytes, over the ${PAYLOAD_LIMITS.maxFrontMatterBytes / 1024} KiB limit of front matter` };
    }
    const document = parseDocument(block, { prettyErrors: false });
    if (document.errors.length > 0) return { ok: false, error: `${where}: front matter is not valid YAML: ${document.errors[0]!.message.split('\n')[0]}` };
    let value: unknown;
    try {
        value = document.toJS({ maxAliasCount: PAYLOAD_LIMITS.maxYamlAliases });
    } catch (error) {
        // yaml throws a ReferenceError ("Excessive alias count…") once expansion passes maxAliasCount.
        if (error instanceof ReferenceError && /excessive alias/i.test(error.message)) {
            return { ok: false, code: 'skill.yaml_aliases', error: `${where}: front matter expands its YAML aliases past the limit of ${PAYLOAD_LIMITS.maxYamlAliases}` };
        }
        return { ok: false, error: `${where}: front matter is not valid YAML: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: `${where}: front matter must be a YAML mapping (name: …, description: …)` };
    // Through JSON: the bundle is stored on the server and crosses the worker wall as plain data.
    const fields = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
    const keys = Object.keys(fields).length;
    if (keys > PAYLOAD_LIMITS.maxFrontMatterKeys) {
        return { ok: false, code: 'skill.front_matter_keys', error: `${where}: front matter has ${keys} fields, over the limit of ${PAYLOAD_LIMITS.maxFrontMatterKeys}` };
    }

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
