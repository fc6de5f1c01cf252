/**
 * Which files form which skill: every folder holding a SKILL.md is a skill root, unless a folder above it
 * already is (a SKILL.md inside a skill's references is just a file of that skill). One root may be the
 * top itself (path ""). Files under no root belong to no skill and are left out.
 */
export interface SkillGroup<T extends { path: string }> {
    /** The root folder ("" for the top), without a trailing "/". */
    root: string;
    /** The files below the root, paths made relative to it. */
    files: T[];
}

export function groupIntoSkills<T extends { path: string }>(files: readonly T[]): SkillGroup<T>[] {
    const markers = files
        .filter((file) => file.path === 'SKILL.md' || file.path.endsWith('/SKILL.md'))
        .map((file) => file.path.slice(0, Math.max(0, file.path.length - '/SKILL.md'.length)))
        .sort((a, b) => a.length - b.length);
    const roots: string[] = [];
    for (const candidate of markers) {
        if (!roots.some((root) => root === '' || candidate === root || candidate.startsWith(`${root}/`))) roots.push(candidate);
    }
    // In the order the archive or folder lists them, not the order the roots were found in.
    const first = (root: string) => files.findIndex((file) => file.path === (root === '' ? 'SKILL.md' : `${root}/SKILL.md`));
    const groups = roots.sort((a, b) => first(a) - first(b)).map((root): SkillGroup<T> => ({ root, files: [] }));
    for (const file of files) {
        const group = groups.find(({ root }) => root === '' || file.path.startsWith(`${root}/`));
        if (group) group.files.push({ ...file, path: group.root === '' ? file.path : file.path.slice(group.root.length + 1) });
    }
    return groups;
}
