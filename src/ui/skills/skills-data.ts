import { signal } from '@preact/signals';
import type { SkillListing } from '../../contract/skills';
import type { SkillsService } from '../../contract/skills-service';
import { errorText } from './skill-scope';

/** The manager's listing of installed skills, reloaded on the service's change notices. */
export const skillListing = signal<SkillListing[] | null>(null);
export const skillListingError = signal<string | null>(null);

let current: Promise<void> = Promise.resolve();
let queued: Promise<void> | null = null;

/**
 * Reloads the listing. A call while a reload runs queues one more after it (a change may have landed
 * after the running one read the list); calls while one is queued share it.
 */
export function refreshSkills(service: SkillsService): Promise<void> {
    queued ??= current.then(() => {
        queued = null;
        return load(service);
    });
    current = queued;
    return queued;
}

async function load(service: SkillsService): Promise<void> {
    try {
        skillListing.value = await service.list();
        skillListingError.value = null;
    } catch (error) {
        skillListingError.value = errorText(error);
    }
}
