import type { RunSkill, SkillScope } from './skills';
import { scopeKind, SCOPE_ORDER } from './skills';

/** Where a run happens: which preset, profile and character scopes apply to it. */
export interface SkillRunContext {
    /** The selected chat-completion preset's name, or null when none applies. */
    presetName: string | null;
    profileId: string;
    /** The open character's avatar file name; null in a group chat with no speaker, or with no character. */
    characterAvatar: string | null;
}

/** The profile's say over skills (SPEC §5): `visible` (`["*"]` = all, else names) and `deny` (deny wins). */
export interface SkillVisibilityRules {
    visible: readonly string[];
    deny: readonly string[];
}

export interface ResolvedSkills {
    skills: RunSkill[];
    /** Installed skills in scope for this run that the profile may not see. */
    hiddenSkills: string[];
}

/** Does this scope apply to a run in this context? */
export function scopeApplies(scope: SkillScope, context: SkillRunContext): boolean {
    if (scope === 'global') return true;
    if ('preset' in scope) return context.presetName !== null && scope.preset === context.presetName;
    if ('profile' in scope) return scope.profile === context.profileId;
    return context.characterAvatar !== null && scope.character === context.characterAvatar;
}

export function skillVisible(name: string, rules: SkillVisibilityRules): boolean {
    if (rules.deny.includes(name) || rules.deny.includes('*')) return false;
    return rules.visible.includes('*') || rules.visible.includes(name);
}

/**
 * The skills a run may read (SPEC §6, SKILLS-FORMAT.md): global → preset → profile → character, a later
 * scope's skill of the same name wins; then the profile's visible/deny, deny winning. Names the profile may
 * not see are returned apart, so the tools can answer `skill.not_visible` rather than `skill.not_found`.
 */
export function resolveSkills<T extends RunSkill>(index: readonly T[], context: SkillRunContext, rules: SkillVisibilityRules): ResolvedSkills {
    const byName = new Map<string, T>();
    for (const kind of SCOPE_ORDER) {
        for (const entry of index) {
            if (scopeKind(entry.scope) === kind && scopeApplies(entry.scope, context)) byName.set(entry.name, entry);
        }
    }
    const skills: RunSkill[] = [];
    const hiddenSkills: string[] = [];
    for (const entry of [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (!skillVisible(entry.name, rules)) {
            hiddenSkills.push(entry.name);
            continue;
        }
        skills.push({ name: entry.name, description: entry.description, scope: entry.scope, hash: entry.hash, files: entry.files.map((f) => ({ ...f })) });
    }
    return { skills, hiddenSkills };
}

/** The chat's side of a skill context: what applies to a run of any profile in it. */
export type SkillChatContext = Omit<SkillRunContext, 'profileId'>;

/**
 * Every skill that a run of SOME profile may see in this chat: the global, preset and character scopes that
 * apply here, and every profile scope. A run freezes this pool, so each sub-agent resolves its own profile's
 * skills from it (its `profile` scope, then its visible/deny) exactly as the root's were resolved.
 */
export function skillPool<T extends RunSkill>(index: readonly T[], context: SkillChatContext): RunSkill[] {
    return index
        .filter((entry) => (entry.scope !== 'global' && 'profile' in entry.scope) || scopeApplies(entry.scope, { ...context, profileId: '' }))
        .map((entry) => ({ name: entry.name, description: entry.description, scope: entry.scope, hash: entry.hash, files: entry.files.map((f) => ({ ...f })) }));
}
