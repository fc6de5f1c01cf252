import type { Profile } from '../../contract/profile';
import type { RunRequest } from '../../contract/run-input';
import type { ResolvedSkills, SkillRunContext } from '../../contract/skills-resolve';
import { t } from '../../i18n/t';
import { toasts } from '../sillytavern/toasts';
import { hostSkills } from './host-skills';
import { openCharacterAvatar, selectedPresetName } from './embedded-owners';

/** The scopes that apply in the open chat: its chat-completion preset, the profile, the speaking character. */
export function currentSkillContext(profileId: string): SkillRunContext {
    return { presetName: selectedPresetName(), profileId, characterAvatar: openCharacterAvatar() };
}

/**
 * The skills a run of this profile may read, frozen at its start; every one's bundle is in the worker's
 * cache by then. A skill whose bundle cannot be fetched from the server is left out, and the user told.
 */
export async function runSkills(profile: Pick<Profile, 'id' | 'skills'>): Promise<ResolvedSkills> {
    const { resolved, unavailable } = await hostSkills.resolveForRun(currentSkillContext(profile.id), profile.skills);
    if (unavailable.length) {
        toasts.warning(`${t`These skills could not be fetched from the SillyTavern server and are left out of this run:`} ${unavailable.join(', ')}`);
    }
    return resolved;
}

/**
 * A run's whole skill set, frozen at its start: its own profile's skills, and the pool its sub-agents resolve
 * their own profiles' skills from (agent-input.ts in the worker). Every bundle of both is in the cache.
 */
export async function runSkillSet(profile: Pick<Profile, 'id' | 'skills'>): Promise<ResolvedSkills & { skillPool: NonNullable<RunRequest['skillPool']> }> {
    const resolved = await runSkills(profile);
    const { presetName, characterAvatar } = currentSkillContext(profile.id);
    const skills = await hostSkills.skillPoolForRun({ presetName, characterAvatar });
    return { ...resolved, skillPool: { presetName, characterAvatar, skills } };
}

/** `/agent skills`: one line per visible skill, `name — description`. */
export function formatVisibleSkills(resolved: ResolvedSkills): string {
    if (!resolved.skills.length) return t`No skills are visible in this chat.`;
    return resolved.skills.map((skill) => `${skill.name} — ${skill.description.replace(/\s+/g, ' ').trim()}`).join('\n');
}
