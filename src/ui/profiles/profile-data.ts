import { signal } from '@preact/signals';
import type { Profile } from '../../contract/profile';
import type { ProfileListing, ToolInfo } from '../../contract/wire';
import type { ConnectionProfile } from '../../contract/connection-profile';
import { services } from '../services';

/**
 * What the profile picker and editor show: the worker's validated listing of the stored profiles, the
 * shipped built-ins as they are (for "changed" and as a template), the tools and the Connection Manager
 * profiles. The main thread holds no schema: every check is the worker's.
 */
export interface ProfileData {
    listings: ProfileListing[];
    /** The built-ins as shipped, whatever the user stored over them. */
    pristine: Profile[];
    tools: ToolInfo[];
    connections: ConnectionProfile[];
}

export const profileData = signal<ProfileData | null>(null);
export const profileDataError = signal<string | null>(null);

let loading: Promise<void> | null = null;
let queued: Promise<void> | null = null;

/**
 * Reloads everything, and resolves once what was stored when it was called is shown. A call while a reload is
 * under way waits for one more after it (one, however many ask): that reload read the stored profiles before
 * the caller's change (a save, an import), and sharing it would show the list without it.
 */
export function refreshProfiles(): Promise<void> {
    if (!loading) {
        loading = load().finally(() => {
            loading = null;
        });
        return loading;
    }
    queued ??= loading.then(() => {
        queued = null;
        return refreshProfiles();
    });
    return queued;
}

async function load(): Promise<void> {
    try {
        const { engine: startEngine, profiles } = services();
        const engine = await startEngine();
        const [listings, shipped, tools] = await Promise.all([engine.listProfiles(profiles.stored()), engine.listProfiles({}), engine.listTools()]);
        profileData.value = {
            listings,
            pristine: shipped.flatMap((listing) => (listing.profile ? [listing.profile] : [])),
            tools,
            connections: profiles.connections(),
        };
        profileDataError.value = null;
    } catch (error) {
        profileDataError.value = error instanceof Error ? error.message : String(error);
    }
}

export type ListingProblem = 'invalid' | 'connection-missing' | null;

/** Why a listed profile cannot run as it is, if it cannot. */
export function listingProblem(listing: ProfileListing, connections: readonly ConnectionProfile[]): ListingProblem {
    if (!listing.profile) return 'invalid';
    return connectionMissing(listing.profile, connections) ? 'connection-missing' : null;
}

function connectionMissing(profile: Pick<Profile, 'model'>, connections: readonly ConnectionProfile[]): boolean {
    const model = profile.model;
    return model.mode === 'connection-profile' && !connections.some((connection) => connection.id === model.profileId);
}
