import type { ParsedSkill, SkillBundle, SkillConflict, SkillIndexEntry, SkillPreview, SkillScope } from '../../contract/skills';
import { SCOPE_ORDER, scopeKey, scopeKind, scriptFilesOf } from '../../contract/skills';
import type { ScannedSkill } from '../../contract/card-payload';
import { t } from '../../i18n/t';

/** A parsed skill judged against the installed skill of its name in the target scope. */
export interface JudgedSkill {
    preview: SkillPreview;
    /** Null when refused (then `preview.error` says why). */
    bundle: SkillBundle | null;
}

export function installedIn(index: readonly SkillIndexEntry[], scope: SkillScope, name: string): SkillIndexEntry | undefined {
    const key = scopeKey(scope);
    return index.find((entry) => entry.name === name && scopeKey(entry.scope) === key);
}

/** The wider scopes holding a skill of this name, which this one replaces where its own scope applies. */
function replacedIn(index: readonly SkillIndexEntry[], scope: SkillScope, name: string): SkillPreview['replaces'] {
    const rank = SCOPE_ORDER.indexOf(scopeKind(scope));
    const kinds = [...new Set(index.filter((entry) => entry.name === name && SCOPE_ORDER.indexOf(scopeKind(entry.scope)) < rank).map((entry) => scopeKind(entry.scope)))];
    return kinds.length ? kinds : undefined;
}

function conflictOf(index: readonly SkillIndexEntry[], scope: SkillScope, bundle: SkillBundle): SkillConflict {
    const installed = installedIn(index, scope, bundle.name);
    if (!installed) return 'new';
    return installed.hash === bundle.hash ? 'same' : 'different';
}

/**
 * A readable skill's preview placed in its target scope: the wider scopes it replaces there, and refused when
 * an earlier skill of the input has its name (`seen` holds the names so far; nothing is renamed).
 */
function placeInScope(preview: SkillPreview, index: readonly SkillIndexEntry[], scope: SkillScope, seen: Set<string>): SkillPreview {
    const replaces = replacedIn(index, scope, preview.name);
    const placed = replaces ? { ...preview, replaces } : preview;
    if (seen.has(preview.name)) return { ...placed, error: `${t`Another skill in this import is also named`} "${preview.name}". ${t`Skills are never renamed, so only the first is used.`}` };
    seen.add(preview.name);
    return placed;
}

/**
 * Previews per skill (SKILLS-FORMAT.md: conflict by content hash against the installed skill of that name
 * in the target scope). Two skills of one name in one input refuse the later one: nothing is renamed.
 */
export function judgeSkills(parsed: readonly ParsedSkill[], index: readonly SkillIndexEntry[], scope: SkillScope): JudgedSkill[] {
    const seen = new Set<string>();
    return parsed.map((skill) => {
        const bundle = skill.bundle;
        if (!bundle || skill.error) {
            return {
                bundle: null,
                preview: { name: skill.name, description: bundle?.description ?? '', files: bundle?.files.length ?? 0, bytes: bytesOf(bundle), conflict: 'new', warnings: [...skill.warnings], error: skill.error ?? t`The skill could not be read.` },
            };
        }
        const preview: SkillPreview = {
            name: bundle.name,
            description: bundle.description,
            files: bundle.files.length,
            bytes: bytesOf(bundle),
            conflict: conflictOf(index, scope, bundle),
            warnings: [...skill.warnings],
            scripts: scriptFilesOf(bundle.files),
            paths: bundle.files.map((file) => ({ path: file.path, bytes: file.bytes })),
        };
        const placed = placeInScope(preview, index, scope, seen);
        return { bundle: placed.error ? null : bundle, preview: placed };
    });
}

/**
 * Previews of a card's skills from its scan (issue 39 §1: names and sizes, no content hash before Install).
 * A skill of the same name installed from this very payload is the same; any other of that name in the
 * scope differs (Install then compares contents and keeps an identical one as it is).
 */
export function judgeScanned(scanned: readonly ScannedSkill[], index: readonly SkillIndexEntry[], scope: SkillScope, payloadHash: string): SkillPreview[] {
    const seen = new Set<string>();
    return scanned.map((skill): SkillPreview => {
        if (skill.error) return { ...skill, conflict: 'new' };
        const installed = installedIn(index, scope, skill.name);
        const conflict: SkillConflict = !installed ? 'new' : installed.source?.payloadHash === payloadHash ? 'same' : 'different';
        return placeInScope({ ...skill, conflict }, index, scope, seen);
    });
}

function bytesOf(bundle: SkillBundle | null | undefined): number {
    return bundle ? bundle.files.reduce((sum, file) => sum + file.bytes, 0) : 0;
}
