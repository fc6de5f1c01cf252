import type { ParsedSkill } from '../contract/skills';
import { buildSkill, type SkillOrigin } from './build-bundle';
import { checkEntryPath, stemOf } from './entry-path';
import { groupIntoSkills } from './group';
import type { RawFile } from './hash';
import { exactBytes, formatBytes, SKILL_LIMITS } from './limits';
import { inflateEntry, InflateMeter, readZipDirectory, type ZipEntry } from './zip-read';

/** How messages name files of the skill rooted at `root` inside an archive. */
export function archiveOrigin(archiveName: string, root: string): SkillOrigin {
    if (root === '') return { fallbackName: stemOf(archiveName), where: (path) => (path === '' ? archiveName : `${archiveName}: ${path}`) };
    return { fallbackName: root.slice(root.lastIndexOf('/') + 1), where: (path) => (path === '' ? root : `${root}/${path}`) };
}

function refuseArchive(archiveName: string, reason: string): ParsedSkill[] {
    return [{ name: stemOf(archiveName), bundle: null, warnings: [], error: `${archiveName}: ${reason}` }];
}

/** An entry that refuses the whole archive: it cannot be trusted to belong to one skill only. */
function hostile(entry: ZipEntry): string | null {
    const checked = checkEntryPath(entry.name);
    if (checked.kind === 'refused') return `entry ${JSON.stringify(entry.name)} ${checked.reason}`;
    if (entry.symlink) return `entry ${JSON.stringify(entry.name)} is a symbolic link`;
    if (entry.encrypted) return `entry ${JSON.stringify(entry.name)} is encrypted`;
    if (entry.directory) return null;
    if (entry.size > SKILL_LIMITS.maxFileBytes) return `entry ${JSON.stringify(entry.name)} is ${exactBytes(entry.size)}, over the ${formatBytes(SKILL_LIMITS.maxFileBytes)} limit of one file`;
    // Deflate never grows data by more than a few bytes a block: more compressed bytes than that means the
    // declared size lies (a bomb dressed as a small file).
    if (entry.compressedSize > entry.size + Math.ceil(entry.size / 8) + 1024) return `entry ${JSON.stringify(entry.name)} holds more compressed data than its declared size allows`;
    if (entry.size >= SKILL_LIMITS.ratioCheckFromBytes && entry.size > entry.compressedSize * SKILL_LIMITS.maxCompressionRatio) {
        const ratio = entry.compressedSize === 0 ? '∞' : `${Math.round(entry.size / entry.compressedSize)}×`;
        return `entry ${JSON.stringify(entry.name)} is compressed ${ratio} (at most ${SKILL_LIMITS.maxCompressionRatio}×: a zip bomb?)`;
    }
    return null;
}

/**
 * A zip of one skill (SKILL.md at its root) or many (a folder per skill) → one ParsedSkill per skill.
 * Everything is checked from the central directory before anything is inflated; an unsafe entry refuses
 * the whole archive, a skill over its limits refuses that skill; either way nothing of it is kept.
 */
export async function parseSkillArchive(bytes: Uint8Array, archiveName: string): Promise<ParsedSkill[]> {
    const directory = readZipDirectory(bytes);
    if (!directory.ok) return refuseArchive(archiveName, directory.reason);
    const { entries } = directory;
    if (entries.length > SKILL_LIMITS.maxArchiveEntries) return refuseArchive(archiveName, `holds ${entries.length} entries (at most ${SKILL_LIMITS.maxArchiveEntries})`);
    let declared = 0;
    const files: Array<{ path: string; entry: ZipEntry }> = [];
    for (const entry of entries) {
        const problem = hostile(entry);
        if (problem) return refuseArchive(archiveName, problem);
        const checked = checkEntryPath(entry.name);
        if (entry.directory || checked.kind !== 'file') continue;
        declared += entry.size;
        files.push({ path: checked.path, entry });
    }
    if (declared > SKILL_LIMITS.maxArchiveBytes) return refuseArchive(archiveName, `unpacks to ${exactBytes(declared)} (at most ${formatBytes(SKILL_LIMITS.maxArchiveBytes)})`);

    // Honest entries inflate to exactly what they declare; the slack only lets a liar be caught, not run on.
    const meter = new InflateMeter(declared + SKILL_LIMITS.maxFileBytes);
    const groups = groupIntoSkills(files);
    if (groups.length === 0) return refuseArchive(archiveName, 'holds no SKILL.md (a skill needs SKILL.md at the archive root, or one folder per skill)');
    const parsed: ParsedSkill[] = [];
    for (const group of groups) {
        const origin = archiveOrigin(archiveName, group.root);
        const refuse = (error: string) => parsed.push({ name: origin.fallbackName, bundle: null, warnings: [], error });
        if (group.files.length > SKILL_LIMITS.maxFiles) {
            refuse(`${origin.where('')}: holds ${group.files.length} files (at most ${SKILL_LIMITS.maxFiles} a skill)`);
            continue;
        }
        const total = group.files.reduce((sum, file) => sum + file.entry.size, 0);
        if (total > SKILL_LIMITS.maxSkillBytes) {
            refuse(`${origin.where('')}: unpacks to ${exactBytes(total)} (at most ${formatBytes(SKILL_LIMITS.maxSkillBytes)} a skill)`);
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
        if (failed) refuse(failed);
        else parsed.push(await buildSkill(raw, origin));
    }
    return parsed;
}
