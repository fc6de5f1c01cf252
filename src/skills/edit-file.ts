import { fail, ok, type Result } from '../contract/result';
import type { SkillBundle } from '../contract/skills';
import { buildSkill } from './build-bundle';
import { fileBytes, utf8Bytes } from './bytes';
import { archiveOrigin } from './parse-archive';

/**
 * A stored skill with one text file's content replaced (the manager's edit, SPEC §6), rebuilt by the very
 * function an import builds with: the same size caps, the same front matter rules, a new content hash.
 * The skill keeps its name: SKILL.md naming another one is refused, since a rename would orphan its slot.
 */
export async function editSkillFile(bundle: SkillBundle, path: string, content: string): Promise<Result<SkillBundle>> {
    const target = bundle.files.find((file) => file.path === path);
    if (!target) return fail('skill.file_not_found', `Skill "${bundle.name}" has no file "${path}".`);
    if (target.encoding !== 'utf8') return fail('skill.binary_file', `${bundle.name}/${path} is a binary file; only text files can be edited.`);
    const files = bundle.files.map((file) => ({ path: file.path, bytes: file.path === path ? utf8Bytes(content) : fileBytes(file) }));
    const built = await buildSkill(files, archiveOrigin(bundle.name, bundle.name));
    if (!built.bundle) return fail('skill.edit_refused', `Not saved: ${built.error ?? 'the skill could not be read.'}`, built.code);
    if (built.bundle.name !== bundle.name) {
        return fail('skill.name_changed', `Not saved: SKILL.md now names the skill "${built.bundle.name}", but an edit keeps the name "${bundle.name}". Import it as a new skill to rename it.`);
    }
    return ok(built.bundle);
}
