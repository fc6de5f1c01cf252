import type { ParsedSkill, SkillSource } from '../contract/skills';
import { buildSkill } from './build-bundle';
import { textOf } from './bytes';
import { checkEntryPath, stemOf } from './entry-path';
import { hasFrontMatter } from './front-matter';
import { groupIntoSkills } from './group';
import type { RawFile } from './hash';
import { archiveOrigin, parseSkillArchive } from './parse-archive';
import { looksLikeZip } from './zip-read';

function isArchive(source: SkillSource, bytes: Uint8Array): boolean {
    return /\.(zip|ttskill)$/i.test(source.name) || looksLikeZip(bytes);
}

/** A lone file: SKILL.md, or any .md whose text opens with front matter. */
async function parseLooseFile(name: string, bytes: Uint8Array): Promise<ParsedSkill> {
    const base = name.slice(name.lastIndexOf('/') + 1);
    const text = /\.md$/i.test(base) ? textOf(bytes) : null;
    const fallbackName = base.toUpperCase() === 'SKILL.MD' ? 'skill' : stemOf(base);
    if (text === null || (base.toUpperCase() !== 'SKILL.MD' && !hasFrontMatter(text))) {
        return { name: fallbackName, bundle: null, warnings: [], error: `${name}: not a skill (import a .zip, a SKILL.md with front matter, or a folder holding SKILL.md)` };
    }
    return buildSkill([{ path: 'SKILL.md', bytes }], { fallbackName, where: (path) => (path === '' || path === 'SKILL.md' ? name : `${name}: ${path}`) });
}

/** Files of a picked folder (relative paths): every folder holding SKILL.md is a skill. */
async function parseFolderFiles(files: readonly RawFile[]): Promise<ParsedSkill[]> {
    const top = files[0]!.path.split('/')[0]!;
    const groups = groupIntoSkills(files);
    if (groups.length === 0) return [{ name: top, bundle: null, warnings: [], error: `${top}: holds no SKILL.md (a skill is a folder with SKILL.md at its root)` }];
    const parsed: ParsedSkill[] = [];
    for (const group of groups) parsed.push(await buildSkill(group.files, archiveOrigin(top, group.root)));
    return parsed;
}

/**
 * What the user picked → skills: each zip on its own (one or many skills), each lone SKILL.md (or .md with
 * front matter) as one skill, and files with relative paths (a picked folder) grouped by their SKILL.md.
 * Nothing is stored here; a refused skill carries an error naming the entry or field.
 */
export async function parseSkillSources(sources: readonly SkillSource[]): Promise<ParsedSkill[]> {
    const parsed: ParsedSkill[] = [];
    const folder: RawFile[] = [];
    let folderRefused: string | null = null;
    for (const source of sources) {
        const bytes = new Uint8Array(source.bytes);
        if (isArchive(source, bytes)) {
            parsed.push(...(await parseSkillArchive(bytes, source.name)));
            continue;
        }
        const checked = checkEntryPath(source.name);
        if (checked.kind === 'ignored') continue;
        if (checked.kind === 'refused') {
            const error = `${JSON.stringify(source.name)} ${checked.reason}`;
            // A bad file of a picked folder refuses the folder's skills: never install them without it.
            if (/[/\\]/.test(source.name)) folderRefused ??= error;
            else parsed.push({ name: stemOf(source.name), bundle: null, warnings: [], error });
            continue;
        }
        if (checked.path.includes('/')) folder.push({ path: checked.path, bytes });
        else parsed.push(await parseLooseFile(checked.path, bytes));
    }
    if (folderRefused !== null) parsed.push({ name: folder[0]?.path.split('/')[0] ?? 'folder', bundle: null, warnings: [], error: folderRefused });
    else if (folder.length > 0) parsed.push(...(await parseFolderFiles(folder)));
    return parsed;
}
