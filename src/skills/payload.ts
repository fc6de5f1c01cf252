import { fail, ok, type Result } from '../contract/result';
import type { ParsedSkill } from '../contract/skills';
import { buildSkill } from './build-bundle';
import { fromBase64, sha256Hex, utf8Bytes } from './bytes';
import { checkEntryPath } from './entry-path';
import { groupIntoSkills } from './group';
import type { RawFile } from './hash';
import { parseSkillArchive } from './parse-archive';

/**
 * The skills payload TauriTavern cards and presets carry (`extensions.tauritavern.skills`,
 * design/SKILLS-FORMAT.md): `{version: 1, items: [...]}`, each item the files inline or a base64 zip.
 * A bad item is refused with its index named; the others still import.
 */
export const SKILL_PAYLOAD_VERSION = 1;
export const INLINE_FILES_FORMAT = 'inline-files-v1';
export const ARCHIVE_BASE64_FORMAT = 'ttskill-archive-base64-v1';

type Item = Record<string, unknown>;

function isObject(value: unknown): value is Item {
    return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function text(value: unknown): string {
    return typeof value === 'string' ? value.trim() : '';
}

class ItemError extends Error {}

function inlineFiles(item: Item, label: string): RawFile[] {
    if (!Array.isArray(item.files) || item.files.length === 0) throw new ItemError(`${label}: has no files`);
    const files: RawFile[] = [];
    item.files.forEach((raw: unknown, index) => {
        if (!isObject(raw)) throw new ItemError(`${label}: files[${index}] is not an object`);
        const path = text(raw.path);
        if (path === '') throw new ItemError(`${label}: files[${index}] has no path`);
        const checked = checkEntryPath(path);
        if (checked.kind === 'refused') throw new ItemError(`${label}: file ${JSON.stringify(path)} ${checked.reason}`);
        if (typeof raw.content !== 'string') throw new ItemError(`${label}: file ${JSON.stringify(path)} has no text content`);
        // TauriTavern reads a missing encoding as utf8.
        const encoding = (text(raw.encoding) || 'utf8').toLowerCase();
        let bytes: Uint8Array | null;
        if (encoding === 'utf8' || encoding === 'utf-8') bytes = utf8Bytes(raw.content);
        else if (encoding === 'base64') bytes = fromBase64(raw.content);
        else throw new ItemError(`${label}: file ${JSON.stringify(path)} has encoding ${JSON.stringify(raw.encoding)} (utf8 or base64 expected)`);
        if (bytes === null) throw new ItemError(`${label}: file ${JSON.stringify(path)} is not valid base64`);
        if (checked.kind === 'file') files.push({ path: checked.path, bytes });
    });
    return files;
}

async function parseItem(raw: unknown, index: number): Promise<ParsedSkill[]> {
    const label = `items[${index}]`;
    if (!isObject(raw)) throw new ItemError(`${label}: is not an object`);
    const format = text(raw.bundleFormat);
    const hint = text(raw.skillName);
    if (format === INLINE_FILES_FORMAT) {
        const groups = groupIntoSkills(inlineFiles(raw, label));
        if (groups.length === 0) throw new ItemError(`${label}: holds no SKILL.md`);
        const parsed: ParsedSkill[] = [];
        for (const group of groups) {
            const prefix = group.root === '' ? '' : `${group.root}/`;
            parsed.push(await buildSkill(group.files, { fallbackName: hint || `item-${index}`, where: (path) => (path === '' ? label : `${label}: ${prefix}${path}`) }));
        }
        return parsed;
    }
    if (format === ARCHIVE_BASE64_FORMAT) {
        const base64 = typeof raw.contentBase64 === 'string' ? raw.contentBase64 : '';
        if (base64.trim() === '') throw new ItemError(`${label}: contentBase64 is missing`);
        const bytes = fromBase64(base64);
        if (bytes === null) throw new ItemError(`${label}: contentBase64 is not valid base64`);
        const expected = text(raw.sha256).toLowerCase();
        if (expected !== '' && (await sha256Hex(bytes)) !== expected) throw new ItemError(`${label}: the archive does not match its sha256`);
        const fileName = text(raw.fileName) || `${hint || `item-${index}`}.zip`;
        const parsed = await parseSkillArchive(bytes, fileName);
        return parsed.map((skill) => (skill.error === undefined ? skill : { ...skill, error: `${label}: ${skill.error}` }));
    }
    throw new ItemError(`${label}: bundleFormat ${JSON.stringify(raw.bundleFormat ?? null)} is not supported (${INLINE_FILES_FORMAT} or ${ARCHIVE_BASE64_FORMAT} expected)`);
}

export async function parseSkillPayload(payload: unknown): Promise<Result<ParsedSkill[]>> {
    if (payload === null || payload === undefined) return ok([]);
    if (!isObject(payload)) return fail('skill.payload_invalid', 'The skills payload is not an object ({version: 1, items: [...]}).');
    if (Number(payload.version) !== SKILL_PAYLOAD_VERSION) {
        return fail('skill.payload_version', `The skills payload has version ${JSON.stringify(payload.version ?? null)}; this version of Tavern Agent reads version ${SKILL_PAYLOAD_VERSION} only.`);
    }
    if (payload.items === null || payload.items === undefined) return ok([]);
    if (!Array.isArray(payload.items)) return fail('skill.payload_invalid', 'The skills payload\'s "items" is not a list.');
    const parsed: ParsedSkill[] = [];
    for (const [index, item] of payload.items.entries()) {
        try {
            const skills = await parseItem(item, index);
            const hint = isObject(item) ? text(item.skillName) : '';
            for (const skill of skills) {
                // SKILL.md's name is the authority; the item's skillName is only a hint.
                if (skill.bundle && hint !== '' && hint !== skill.bundle.name) skill.warnings.push(`the card calls it "${hint}"; its SKILL.md names it "${skill.bundle.name}"`);
            }
            parsed.push(...skills);
        } catch (error) {
            if (!(error instanceof ItemError)) throw error;
            const hint = isObject(item) ? text(item.skillName) : '';
            parsed.push({ name: hint || `item-${index}`, bundle: null, warnings: [], error: error.message });
        }
    }
    return ok(parsed);
}
