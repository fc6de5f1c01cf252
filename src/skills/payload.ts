import { fail, ok, type Result } from '../contract/result';
import type { ParsedSkill } from '../contract/skills';
import { buildSkill, type SkillOrigin } from './build-bundle';
import { fromBase64, sha256Hex, utf8Bytes } from './bytes';
import { checkEntryPath } from './entry-path';
import { groupIntoSkills, type SkillGroup } from './group';
import type { RawFile } from './hash';
import { formatBytes, PAYLOAD_LIMITS } from './limits';
import { isObject, measurePayload } from '../contract/card-payload';
import { parsePlannedArchive, planSkillArchive, type ArchivePlan } from './parse-archive';

/**
 * The skills payload TauriTavern cards and presets carry (`extensions.tauritavern.skills`,
 * design/SKILLS-FORMAT.md): `{version: 1, items: [...]}`, each item the files inline or a base64 zip.
 * A bad item is refused with its index named; the others still import.
 */
export const SKILL_PAYLOAD_VERSION = 1;
export const INLINE_FILES_FORMAT = 'inline-files-v1';
export const ARCHIVE_BASE64_FORMAT = 'ttskill-archive-base64-v1';

type Item = Record<string, unknown>;

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

/** One item of a payload, read as far as sizes and directories go: nothing inflated, no front matter read. */
export type PlannedItem =
    | { kind: 'inline'; label: string; hint: string; groups: Array<SkillGroup<RawFile>>; origin: (group: SkillGroup<RawFile>) => SkillOrigin }
    | { kind: 'archive'; label: string; hint: string; bytes: Uint8Array; archiveName: string; plan: Extract<ArchivePlan, { ok: true }> }
    | { kind: 'refused'; label: string; skills: ParsedSkill[] };

export interface PayloadPlan {
    items: PlannedItem[];
}

async function planItem(raw: unknown, index: number): Promise<PlannedItem> {
    const label = `items[${index}]`;
    if (!isObject(raw)) throw new ItemError(`${label}: is not an object`);
    const format = text(raw.bundleFormat);
    const hint = text(raw.skillName);
    if (format === INLINE_FILES_FORMAT) {
        const groups = groupIntoSkills(inlineFiles(raw, label));
        if (groups.length === 0) throw new ItemError(`${label}: holds no SKILL.md`);
        const origin = (group: SkillGroup<RawFile>): SkillOrigin => {
            const prefix = group.root === '' ? '' : `${group.root}/`;
            return { fallbackName: hint || `item-${index}`, where: (path) => (path === '' ? label : `${label}: ${prefix}${path}`) };
        };
        return { kind: 'inline', label, hint, groups, origin };
    }
    if (format === ARCHIVE_BASE64_FORMAT) {
        const base64 = typeof raw.contentBase64 === 'string' ? raw.contentBase64 : '';
        if (base64.trim() === '') throw new ItemError(`${label}: contentBase64 is missing`);
        const bytes = fromBase64(base64);
        if (bytes === null) throw new ItemError(`${label}: contentBase64 is not valid base64`);
        const expected = text(raw.sha256).toLowerCase();
        if (expected !== '' && (await sha256Hex(bytes)) !== expected) throw new ItemError(`${label}: the archive does not match its sha256`);
        const archiveName = text(raw.fileName) || `${hint || `item-${index}`}.zip`;
        const plan = planSkillArchive(bytes, archiveName);
        if (!plan.ok) return { kind: 'refused', label, skills: plan.refused.map((skill) => ({ ...skill, error: `${label}: ${skill.error}` })) };
        return { kind: 'archive', label, hint, bytes, archiveName, plan };
    }
    throw new ItemError(`${label}: bundleFormat ${JSON.stringify(raw.bundleFormat ?? null)} is not supported (${INLINE_FILES_FORMAT} or ${ARCHIVE_BASE64_FORMAT} expected)`);
}

function plannedSkills(item: PlannedItem): number {
    return item.kind === 'inline' ? item.groups.length : item.kind === 'archive' ? item.plan.groups.length : item.skills.length;
}

function plannedBytes(item: PlannedItem): number {
    if (item.kind === 'archive') return item.plan.declared;
    if (item.kind === 'inline') return item.groups.reduce((sum, group) => sum + group.files.reduce((n, file) => n + file.bytes.length, 0), 0);
    return 0;
}

/**
 * The payload's items read from their sizes and directories, with the payload's totals checked (issue 39 §1):
 * its text, its skills and what it unpacks to. A bad item is refused with its index named; the others go on.
 */
export async function planSkillPayload(payload: unknown): Promise<Result<PayloadPlan>> {
    if (payload === null || payload === undefined) return ok({ items: [] });
    if (!isObject(payload)) return fail('skill.payload_invalid', 'The skills payload is not an object ({version: 1, items: [...]}).');
    if (Number(payload.version) !== SKILL_PAYLOAD_VERSION) {
        return fail('skill.payload_version', `The skills payload has version ${JSON.stringify(payload.version ?? null)}; this version of Tavern Agent reads version ${SKILL_PAYLOAD_VERSION} only.`);
    }
    if (payload.items === null || payload.items === undefined) return ok({ items: [] });
    if (!Array.isArray(payload.items)) return fail('skill.payload_invalid', 'The skills payload\'s "items" is not a list.');
    const measured = measurePayload(payload);
    if (!measured.ok) return measured;
    const items: PlannedItem[] = [];
    let skills = 0;
    let unpacked = 0;
    for (const [index, raw] of payload.items.entries()) {
        let item: PlannedItem;
        try {
            item = await planItem(raw, index);
        } catch (error) {
            if (!(error instanceof ItemError)) throw error;
            const hint = isObject(raw) ? text(raw.skillName) : '';
            item = { kind: 'refused', label: `items[${index}]`, skills: [{ name: hint || `item-${index}`, bundle: null, warnings: [], error: error.message }] };
        }
        skills += plannedSkills(item);
        unpacked += plannedBytes(item);
        if (skills > PAYLOAD_LIMITS.maxSkills) return fail('skill.too_many_skills', `The card's skills payload holds more than ${PAYLOAD_LIMITS.maxSkills} skills, the limit of a payload.`);
        if (unpacked > PAYLOAD_LIMITS.maxUnpackedBytes) {
            return fail('skill.unpacked_too_large', `The card's skills payload unpacks to more than ${formatBytes(PAYLOAD_LIMITS.maxUnpackedBytes)}, the limit of a payload.`);
        }
        items.push(item);
    }
    return ok({ items });
}

async function parsePlannedItem(item: PlannedItem): Promise<ParsedSkill[]> {
    if (item.kind === 'refused') return item.skills;
    if (item.kind === 'archive') {
        const parsed = await parsePlannedArchive(item.bytes, item.archiveName, item.plan);
        return parsed.map((skill) => (skill.error === undefined ? skill : { ...skill, error: `${item.label}: ${skill.error}` }));
    }
    const parsed: ParsedSkill[] = [];
    for (const group of item.groups) parsed.push(await buildSkill(group.files, item.origin(group)));
    return parsed;
}

function hintOf(item: PlannedItem): string {
    return item.kind === 'refused' ? '' : item.hint;
}

export async function parseSkillPayload(payload: unknown): Promise<Result<ParsedSkill[]>> {
    const plan = await planSkillPayload(payload);
    if (!plan.ok) return plan;
    const parsed: ParsedSkill[] = [];
    for (const item of plan.value.items) {
        const skills = await parsePlannedItem(item);
        const hint = hintOf(item);
        for (const skill of skills) {
            // SKILL.md's name is the authority; the item's skillName is only a hint.
            if (skill.bundle && hint !== '' && hint !== skill.bundle.name) skill.warnings.push(`the card calls it "${hint}"; its SKILL.md names it "${skill.bundle.name}"`);
        }
        parsed.push(...skills);
    }
    return ok(parsed);
}
