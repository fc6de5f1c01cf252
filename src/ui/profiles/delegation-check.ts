import type { Profile } from '../../contract/profile';
import { t } from '../../i18n/t';
import { splitList } from './profile-draft';

/**
 * What the editor says about a profile's delegation fields beyond the worker's schema check: callers that
 * name no profile (a typo silently locks every caller out), and which agents this one may call under the
 * visibility rules of SPEC §3 (target callable + allowAsSubagent, caller in its allowedCallers).
 */

/** Warnings for `allowedCallers` entries ("*" aside) that name no known profile id. */
export function unknownCallerWarnings(allowedCallersText: string, knownIds: readonly string[]): string[] {
    const known = new Set(knownIds);
    return splitList(allowedCallersText)
        .filter((id) => id !== '*' && !known.has(id))
        .map((id) => `${t`No profile has this id, so this caller does not exist:`} ${id}`);
}

/** Whether `caller` may delegate to `target` (the caller's own canDelegate aside). */
export function mayCall(callerId: string, target: Pick<Profile, 'id' | 'delegation'>): boolean {
    const d = target.delegation;
    return target.id !== callerId && d.callable && d.allowAsSubagent && (d.allowedCallers.includes('*') || d.allowedCallers.includes(callerId));
}

/** The profiles `callerId` may delegate to, by display name. */
export function delegationTargets(callerId: string, profiles: readonly Profile[]): Profile[] {
    return profiles.filter((target) => mayCall(callerId, target));
}
