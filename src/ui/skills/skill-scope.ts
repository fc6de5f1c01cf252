import { SCOPE_ORDER, scopeKey, scopeKind, type SkillListing, type SkillScope } from '../../contract/skills';
import type { SkillOwners } from '../../contract/skills-service';
import { t } from '../../i18n/t';

/** Scopes as the manager names, groups and offers them. Pure functions: the components stay thin. */

export interface ScopeGroup {
    key: string;
    scope: SkillScope;
    skills: SkillListing[];
}

/** "Global", "Preset Default", "Profile writer", "Character Seraphina" (the avatar file when it is not the open one). */
export function scopeLabel(scope: SkillScope, owners: SkillOwners | null): string {
    if (scope === 'global') return t`Global`;
    if ('preset' in scope) return `${t`Preset`} ${scope.preset}`;
    if ('profile' in scope) return `${t`Profile`} ${scope.profile}`;
    return `${t`Character`} ${characterName(scope.character, owners)}`;
}

/** The open character's name for its avatar file; any other character by its avatar file. */
function characterName(avatar: string, owners: SkillOwners | null): string {
    const open = owners?.character;
    return open && open.avatar === avatar ? open.name : avatar;
}

/** Skills grouped by scope in resolution order (global → preset → profile → character), names sorted. */
export function groupByScope(skills: readonly SkillListing[]): ScopeGroup[] {
    const groups = new Map<string, ScopeGroup>();
    for (const skill of skills) {
        const key = scopeKey(skill.scope);
        let group = groups.get(key);
        if (!group) groups.set(key, (group = { key, scope: skill.scope, skills: [] }));
        group.skills.push(skill);
    }
    const rank = (group: ScopeGroup) => SCOPE_ORDER.indexOf(scopeKind(group.scope));
    const sorted = [...groups.values()].sort((a, b) => rank(a) - rank(b) || a.key.localeCompare(b.key));
    for (const group of sorted) group.skills.sort((a, b) => a.name.localeCompare(b.name));
    return sorted;
}

/** A skill is addressed by name within its scope. */
export function skillKey(skill: Pick<SkillListing, 'name' | 'scope'>): string {
    return `${scopeKey(skill.scope)}/${skill.name}`;
}

/** The scopes a user can pick as a target: global, the open character, the selected preset, every profile. */
export function targetScopes(owners: SkillOwners | null, profileIds: readonly string[]): SkillScope[] {
    const scopes: SkillScope[] = ['global'];
    if (owners?.character) scopes.push({ character: owners.character.avatar });
    if (owners?.preset) scopes.push({ preset: owners.preset });
    for (const id of profileIds) scopes.push({ profile: id });
    return scopes;
}

/** The option label of a target scope: the open character and the current preset say so. */
export function targetLabel(scope: SkillScope, owners: SkillOwners | null): string {
    if (scope !== 'global' && 'character' in scope) return `${t`This character`} (${characterName(scope.character, owners)})`;
    if (scope !== 'global' && 'preset' in scope) return `${t`The current preset`} (${scope.preset})`;
    return scopeLabel(scope, owners);
}

export function scopeFromKey(key: string, scopes: readonly SkillScope[]): SkillScope | null {
    return scopes.find((scope) => scopeKey(scope) === key) ?? null;
}

/** "1 file", "5 files". */
export function fileCount(count: number): string {
    return `${count} ${count === 1 ? t`file` : t`files`}`;
}

export function formatBytes(bytes: number): string {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** A skill's scripts: anything under `scripts/` (SKILL-SCRIPTS.md). */
export function isScript(path: string): boolean {
    return path.startsWith('scripts/');
}

/** Of those, what the sandbox loads: JavaScript modules (`skill.run_script` runs `scripts/<name>.js`). */
export function isRunnableScript(path: string): boolean {
    return isScript(path) && path.endsWith('.js');
}

export function errorText(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
