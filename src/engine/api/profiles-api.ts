import { exportProfiles, importProfiles, parseProfile } from '../../contract/profile-migrations';
import type { ProfilesApi } from '../../contract/wire';
import { ALL_TOOLS } from '../../tools/registry';
import { listProfiles, resolveProfile } from '../agents/profiles';

/** The profiles facet: built-ins merged with the user's profiles, validated here; the tools they name. */
export function createProfilesApi(): ProfilesApi {
    return {
        listProfiles: async (stored) => listProfiles(stored),
        resolveProfile: async (id, stored) => resolveProfile(id, stored),
        validateProfile: async (raw) => parseProfile(raw),
        importProfiles: async (text) => importProfiles(text),
        async exportProfiles(raw) {
            const profiles = raw.map((item) => parseProfile(item)).flatMap((parsed) => (parsed.ok ? [parsed.profile] : []));
            return exportProfiles(profiles);
        },
        listTools: async () => ALL_TOOLS.map((tool) => ({ name: tool.name, alias: tool.alias, description: tool.description, readOnly: tool.readOnly })),
    };
}
