import type { ParsedSkill, SkillBundle, SkillFile } from '../contract/skills';
import { textOf, toBase64 } from './bytes';
import { parseFrontMatter, type FrontMatter } from './front-matter';
import { byPath, skillHash, type RawFile } from './hash';
import { exactBytes, formatBytes, SKILL_LIMITS } from './limits';

export const SCRIPTS_WARNING = 'holds scripts (they run when a profile allows scripts)';
export const BINARY_WARNING = 'holds binary files';

export interface SkillOrigin {
    /** The skill's name as far as it is known before SKILL.md is read (a folder or file name). */
    fallbackName: string;
    /** How messages name a file of this skill: "lore-keeper/SKILL.md", "notes.md". */
    where(path: string): string;
}

function refused(origin: SkillOrigin, error: string, warnings: string[] = [], code?: string): ParsedSkill {
    return code ? { name: origin.fallbackName, bundle: null, warnings, error, code } : { name: origin.fallbackName, bundle: null, warnings, error };
}

/** A skill's files by path and size: what a card's archive tells before anything is inflated. */
export interface SizedFile {
    path: string;
    size: number;
}

/**
 * Every check of one skill that sizes and SKILL.md allow, without the other files' bytes: the install
 * preview of a card reads this much only (issue 39 §1), and the full parse starts with it.
 */
export function inspectSkill(files: readonly SizedFile[], skillMdBytes: Uint8Array | undefined, origin: SkillOrigin): { ok: true; front: FrontMatter } | { ok: false; refused: ParsedSkill } {
    const refuse = (error: string, code?: string) => ({ ok: false as const, refused: refused(origin, error, [], code) });
    if (files.length > SKILL_LIMITS.maxFiles) return refuse(`${origin.where('')}: holds ${files.length} files (at most ${SKILL_LIMITS.maxFiles} a skill)`, 'skill.too_many_files');
    const seen = new Set<string>();
    let total = 0;
    for (const file of files) {
        if (seen.has(file.path)) return refuse(`${origin.where(file.path)}: appears twice`);
        seen.add(file.path);
        if (file.size > SKILL_LIMITS.maxFileBytes) return refuse(`${origin.where(file.path)}: ${exactBytes(file.size)} is over the ${formatBytes(SKILL_LIMITS.maxFileBytes)} limit of one file`);
        total += file.size;
    }
    if (total > SKILL_LIMITS.maxSkillBytes) return refuse(`${origin.where('')}: ${exactBytes(total)} in all is over the ${formatBytes(SKILL_LIMITS.maxSkillBytes)} limit of one skill`);
    const skillMd = files.find((file) => file.path === 'SKILL.md');
    if (!skillMd || !skillMdBytes) return refuse(`${origin.where('SKILL.md')}: is missing (every skill needs one)`);
    if (skillMd.size > SKILL_LIMITS.maxSkillMdBytes) return refuse(`${origin.where('SKILL.md')}: ${exactBytes(skillMd.size)} is over the ${formatBytes(SKILL_LIMITS.maxSkillMdBytes)} limit of SKILL.md`);
    const skillText = textOf(skillMdBytes);
    if (skillText === null) return refuse(`${origin.where('SKILL.md')}: is not UTF-8 text`);
    const front = parseFrontMatter(skillText, origin.where('SKILL.md'));
    if (!front.ok) return refuse(front.error, front.code);
    return { ok: true, front: front.value };
}

/**
 * One skill's files → a normalized, hashed bundle, or why the whole skill is refused. Sizes are checked
 * again here: folder and payload sources reach this without an archive's declared sizes.
 */
export async function buildSkill(files: readonly RawFile[], origin: SkillOrigin): Promise<ParsedSkill> {
    const inspected = inspectSkill(
        files.map((file) => ({ path: file.path, size: file.bytes.length })),
        files.find((file) => file.path === 'SKILL.md')?.bytes,
        origin,
    );
    if (!inspected.ok) return inspected.refused;
    const front = { value: inspected.front };

    const warnings = [...front.value.warnings];
    let binary = false;
    const stored: SkillFile[] = [...files].sort(byPath).map((file) => {
        const text = textOf(file.bytes);
        if (text === null) binary = true;
        return text === null
            ? { path: file.path, encoding: 'base64', content: toBase64(file.bytes), bytes: file.bytes.length }
            : { path: file.path, encoding: 'utf8', content: text, bytes: file.bytes.length };
    });
    if (stored.some((file) => file.path.startsWith('scripts/'))) warnings.push(SCRIPTS_WARNING);
    if (binary) warnings.push(BINARY_WARNING);

    const bundle: SkillBundle = {
        v: 1,
        name: front.value.name,
        description: front.value.description,
        hash: await skillHash(files),
        frontMatter: front.value.fields,
        files: stored,
    };
    return { name: bundle.name, bundle, warnings };
}
