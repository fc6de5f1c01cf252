import type { ParsedSkill } from '../contract/skills';
import { buildSkill, type SkillOrigin } from './build-bundle';
import { checkEntryPath, stemOf } from './entry-path';
import { groupIntoSkills, type SkillGroup } from './group';
import type { RawFile } from './hash';
import { exactBytes, formatBytes, SKILL_LIMITS } from './limits';
import { inflateEntry, InflateMeter, readZipDirectory, type ZipEntry } from './zip-read';

/** How messages name files of the skill rooted at `root` inside an archive. */
export function archiveOrigin(archiveName: string, root: string): SkillOrigin {
    if (root === '') return { fallbackName: stemOf(archiveName), where: (path) => (path === '' ? archiveName : `${archiveName}: ${path}`) };
    return { fallbackName: root.slice(root.lastIndexOf('/') + 1), where: (path) => (path === '' ? root : `${root}/${path}`) };
}

function refuseArchive(archiveName: string, reason: string, code?: string): ParsedSkill[] {
    const refused: ParsedSkill = { name: stemOf(archiveName), bundle: null, warnings: [], error: `${archiveName}: ${reason}` };
    return [code ? { ...refused, code } : refused];
}

/** Why an entry refuses the whole archive, with the limit's code where a limit does. */
export interface EntryProblem {
    reason: string;
    code?: string;
}

/** An entry that refuses the whole archive: it cannot be trusted to belong to one skill only. */
export function hostileEntry(entry: ZipEntry): EntryProblem | null {
    const reason = hostileReason(entry);
    if (reason !== null) return { reason };
    if (entry.size >= SKILL_LIMITS.ratioCheckFromBytes && entry.size > entry.compressedSize * SKILL_LIMITS.maxCompressionRatio) {
        const ratio = entry.compressedSize === 0 ? '∞' : `${Math.round(entry.size / entry.compressedSize)}×`;
        return { reason: `entry ${JSON.stringify(entry.name)} is compressed ${ratio} (at most ${SKILL_LIMITS.maxCompressionRatio}×: a zip bomb?)`, code: 'skill.compression_ratio' };
    }
    return null;
}

/**
 * The ratio on the archive's total (issue 39 §1): entries under `ratioCheckFromBytes` skip the per-entry
 * check, so many small entries could add up to a bomb; counted together they cannot.
 */
export function totalRatioProblem(entries: readonly ZipEntry[]): EntryProblem | null {
    let size = 0;
    let compressed = 0;
    for (const entry of entries) {
        size += entry.size;
        compressed += entry.compressedSize;
    }
    if (size < SKILL_LIMITS.ratioCheckFromBytes || size <= compressed * SKILL_LIMITS.maxCompressionRatio) return null;
    const ratio = compressed === 0 ? '∞' : `${Math.round(size / compressed)}×`;
    return { reason: `is compressed ${ratio} over all its entries (at most ${SKILL_LIMITS.maxCompressionRatio}× in all: a zip bomb?)`, code: 'skill.compression_ratio' };
}

function hostileReason(entry: ZipEntry): string | null {
    const checked = checkEntryPath(entry.name);
    if (checked.kind === 'refused') return `entry ${JSON.stringify(entry.name)} ${checked.reason}`;
    if (entry.symlink) return `entry ${JSON.stringify(entry.name)} is a symbolic link`;
    if (entry.encrypted) return `entry ${JSON.stringify(entry.name)} is encrypted`;
    if (entry.directory) return null;
    if (entry.size > SKILL_LIMITS.maxFileBytes) return `entry ${JSON.stringify(entry.name)} is ${exactBytes(entry.size)}, over the ${formatBytes(SKILL_LIMITS.maxFileBytes)} limit of one file`;
    // Deflate never grows data by more than a few bytes a block: more compressed bytes than that means the
    // declared size lies (a bomb dressed as a small file).
    if (entry.compressedSize > entry.size + Math.ceil(entry.size / 8) + 1024) return `entry ${JSON.stringify(entry.name)} holds more compressed data than its declared size allows`;
    return null;
}

/** An archive read from its central directory: its skills' files, nothing inflated yet. */
export type ArchivePlan =
    | { ok: true; groups: Array<SkillGroup<ArchiveFile>>; declared: number }
    | { ok: false; refused: ParsedSkill[] };

export interface ArchiveFile {
    path: string;
    entry: ZipEntry;
}

/**
 * Checks everything the central directory tells before one byte is inflated (issue 39 §1: this is all a
 * card's archive gets before the user says Install): entries, paths, declared sizes, per-entry and total
 * compression ratios. An unsafe entry refuses the whole archive.
 */
export function planSkillArchive(bytes: Uint8Array, archiveName: string): ArchivePlan {
    const refuse = (reason: string, code?: string): ArchivePlan => ({ ok: false, refused: refuseArchive(archiveName, reason, code) });
    const directory = readZipDirectory(bytes);
    if (!directory.ok) return refuse(directory.reason);
    const { entries } = directory;
    if (entries.length > SKILL_LIMITS.maxArchiveEntries) return refuse(`holds ${entries.length} entries (at most ${SKILL_LIMITS.maxArchiveEntries})`);
    let declared = 0;
    const files: ArchiveFile[] = [];
    for (const entry of entries) {
        const problem = hostileEntry(entry);
        if (problem) return refuse(problem.reason, problem.code);
        const checked = checkEntryPath(entry.name);
        if (entry.directory || checked.kind !== 'file') continue;
        declared += entry.size;
        files.push({ path: checked.path, entry });
    }
    // After each entry's own check, which names the entry: many small ones can still add up to a bomb.
    const total = totalRatioProblem(entries);
    if (total) return refuse(total.reason, total.code);
    if (declared > SKILL_LIMITS.maxArchiveBytes) return refuse(`unpacks to ${exactBytes(declared)} (at most ${formatBytes(SKILL_LIMITS.maxArchiveBytes)})`, 'skill.unpacked_too_large');
    const groups = groupIntoSkills(files);
    if (groups.length === 0) return refuse('holds no SKILL.md (a skill needs SKILL.md at the archive root, or one folder per skill)');
    return { ok: true, groups, declared };
}

/** Why one skill of an archive is refused from its declared sizes alone, or null. */
export function groupProblem(group: SkillGroup<ArchiveFile>, origin: SkillOrigin): ParsedSkill | null {
    if (group.files.length > SKILL_LIMITS.maxFiles) {
        return { name: origin.fallbackName, bundle: null, warnings: [], code: 'skill.too_many_files', error: `${origin.where('')}: holds ${group.files.length} files (at most ${SKILL_LIMITS.maxFiles} a skill)` };
    }
    const total = group.files.reduce((sum, file) => sum + file.entry.size, 0);
    if (total > SKILL_LIMITS.maxSkillBytes) return { name: origin.fallbackName, bundle: null, warnings: [], error: `${origin.where('')}: unpacks to ${exactBytes(total)} (at most ${formatBytes(SKILL_LIMITS.maxSkillBytes)} a skill)` };
    return null;
}

/**
 * A zip of one skill (SKILL.md at its root) or many (a folder per skill) → one ParsedSkill per skill.
 * Everything is checked from the central directory before anything is inflated; an unsafe entry refuses
 * the whole archive, a skill over its limits refuses that skill; either way nothing of it is kept.
 */
export async function parseSkillArchive(bytes: Uint8Array, archiveName: string): Promise<ParsedSkill[]> {
    const plan = planSkillArchive(bytes, archiveName);
    return plan.ok ? parsePlannedArchive(bytes, archiveName, plan) : plan.refused;
}

export async function parsePlannedArchive(bytes: Uint8Array, archiveName: string, plan: Extract<ArchivePlan, { ok: true }>): Promise<ParsedSkill[]> {
    // Honest entries inflate to exactly what they declare; the slack only lets a liar be caught, not run on.
    const meter = new InflateMeter(plan.declared + SKILL_LIMITS.maxFileBytes);
    const parsed: ParsedSkill[] = [];
    for (const group of plan.groups) {
        const origin = archiveOrigin(archiveName, group.root);
        const problem = groupProblem(group, origin);
        if (problem) {
            parsed.push(problem);
            continue;
        }
        const raw: RawFile[] = [];
        let failed: string | null = null;
        for (const file of group.files) {
            const inflated = inflateEntry(bytes, file.entry, meter);
            if (!inflated.ok) {
                failed = `${archiveName}: entry ${JSON.stringify(file.entry.name)} ${inflated.reason}`;
                break;
            }
            raw.push({ path: file.path, bytes: inflated.bytes });
        }
        if (failed) parsed.push({ name: origin.fallbackName, bundle: null, warnings: [], error: failed });
        else parsed.push(await buildSkill(raw, origin));
    }
    return parsed;
}
