import { storedProfiles } from '../settings/profile-store';
import { getEngine } from '../worker/worker-client';
import { serverBundles } from './bundle-files';
import { cardReader } from './card-reader';
import { payloadHash } from '../../contract/card-payload';
import type { SkillEngine } from './skill-engine';
import { settingsSkillIndex } from './skill-index';
import { stEmbeddedOwners } from './embedded-owners';
import { createSkillsService } from './skills-service';

/**
 * The one skill service of this page: index in the user's extension settings, bundles in the user's files
 * on the SillyTavern server, cached by the worker. src/runtime.ts hands it to the public API and the panel.
 */
export const hostSkills = createSkillsService({
    engine: async (): Promise<SkillEngine> => getEngine(),
    bundles: serverBundles,
    index: settingsSkillIndex,
    owners: stEmbeddedOwners,
    async profiles() {
        const engine = await getEngine();
        const listings = await engine.listProfiles(storedProfiles());
        return listings.flatMap((listing) => (listing.profile ? [{ id: listing.id, visible: listing.profile.skills.visible, deny: listing.profile.skills.deny, scripts: listing.profile.scripts }] : []));
    },
    hashPayload: payloadHash,
    reader: cardReader,
    now: () => Date.now(),
});
