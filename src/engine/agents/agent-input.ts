import type { Profile } from '../../contract/profile';
import type { RunInput } from '../../contract/run-input';
import { resolveSkills, skillVisible, type ResolvedSkills } from '../../contract/skills-resolve';

/**
 * The run's frozen input as one agent's tools see it (SPEC §3, issue 33 §5): the same chat, prompt and lore,
 * with the agent's own profile, so its read budgets, hidden-message, lore and extension-tool settings are
 * its own, and its own skills: resolved from the run's skill pool for its profile (its `profile` scope
 * included, then its visible/deny). The root agent's skills are the ones the page resolved.
 */
export function agentInput(run: RunInput, profile: Profile, isRoot: boolean): RunInput {
    if (isRoot) return profile === run.profile ? run : { ...run, profile };
    return { ...run, profile, ...agentSkills(run, profile) };
}

function agentSkills(run: RunInput, profile: Profile): ResolvedSkills {
    const pool = run.skillPool;
    if (pool) return resolveSkills(pool.skills, { presetName: pool.presetName, characterAvatar: pool.characterAvatar, profileId: profile.id }, profile.skills);
    // A run stored before the pool existed: the root's skills, narrowed by this profile's visible/deny.
    const visible = run.skills.filter((skill) => skillVisible(skill.name, profile.skills));
    const hidden = run.skills.filter((skill) => !skillVisible(skill.name, profile.skills)).map((skill) => skill.name);
    return { skills: visible, hiddenSkills: [...new Set([...run.hiddenSkills, ...hidden])].sort() };
}
