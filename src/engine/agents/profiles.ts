import { BUILT_IN_PROFILES, builtInProfile, type Profile } from '../../contract/profile';
import { parseProfile } from '../../contract/profile-migrations';
import { fail, ok, type Result } from '../../contract/result';
import type { ProfileListing } from '../../contract/wire';

/**
 * The profiles a user has: the built-ins (or the user's changed copy of one) plus their own, from the raw
 * JSON the host stores in SillyTavern's extension settings. Invalid stored profiles stay listed with
 * their errors, so nothing a user made disappears silently.
 */
export function listProfiles(stored: Record<string, unknown>): ProfileListing[] {
    const listings: ProfileListing[] = BUILT_IN_PROFILES.map((builtIn) => {
        const override = stored[builtIn.id];
        if (override === undefined) return { id: builtIn.id, builtIn: true, overridden: false, profile: builtIn, errors: [] };
        const parsed = parseProfile(override);
        return parsed.ok
            ? { id: builtIn.id, builtIn: true, overridden: true, profile: parsed.profile, errors: [] }
            : { id: builtIn.id, builtIn: true, overridden: true, profile: null, errors: parsed.errors };
    });
    for (const [id, raw] of Object.entries(stored).sort(([a], [b]) => a.localeCompare(b))) {
        if (builtInProfile(id)) continue;
        const parsed = parseProfile(raw);
        listings.push(
            parsed.ok
                ? { id, builtIn: false, overridden: false, profile: parsed.profile, errors: [] }
                : { id, builtIn: false, overridden: false, profile: null, errors: parsed.errors },
        );
    }
    return listings;
}

export function resolveProfile(id: string, stored: Record<string, unknown>): Result<Profile> {
    const listing = listProfiles(stored).find((entry) => entry.id === id);
    if (!listing) return fail('profile.not_found', `The agent profile "${id}" does not exist. Pick another profile in the Tavern Agent panel or with /agent profile.`);
    if (!listing.profile) {
        const first = listing.errors[0];
        return fail('profile.invalid', `The agent profile "${id}" is invalid${first ? ` (${first.path || 'profile'}: ${first.message})` : ''}. Fix it in the profile editor.`);
    }
    return ok(listing.profile);
}
