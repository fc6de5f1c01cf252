import { useEffect } from 'preact/hooks';
import { t } from '../../i18n/t';
import { services } from '../services';
import { chatStatus } from '../state';
import { listingProblem, profileData, refreshProfiles, type ListingProblem } from './profile-data';
import { profileDescription, profileName } from './profile-names';

export function ProblemBadge({ problem }: { problem: ListingProblem }) {
    if (!problem) return null;
    return (
        <span class="tavern-agent__badge tavern-agent__badge--warning" data-testid="profile-problem" data-problem={problem}>
            {problem === 'invalid' ? `⚠ ${t`invalid`}` : `⚠ ${t`connection missing`}`}
        </span>
    );
}

function problemText(problem: ListingProblem | 'missing'): string | null {
    switch (problem) {
        case 'invalid':
            return t`This profile is invalid and cannot run: fix it under Profiles below, or pick another one.`;
        case 'connection-missing':
            return t`This profile's Connection Manager profile no longer exists: choose another model for it under Profiles below.`;
        case 'missing':
            return t`This chat's profile no longer exists: pick another one.`;
        default:
            return null;
    }
}

/** The chat's agent profile: a select of every listed profile, the ones that cannot run flagged. */
export function ProfilePicker() {
    const status = chatStatus.value;
    const data = profileData.value;
    useEffect(() => {
        void refreshProfiles();
    }, []);

    const listings = data?.listings ?? [];
    const current = listings.find((listing) => listing.id === status.profileId);
    const problem: ListingProblem | 'missing' = current ? listingProblem(current, data!.connections) : data ? 'missing' : null;
    const warning = problemText(problem);

    const choose = async (id: string) => {
        // Shown at once; the saved chat state replaces it when the chat save is done.
        chatStatus.value = { ...chatStatus.value, profileId: id };
        await services().chat.setProfile(id);
    };

    return (
        <div class="tavern-agent__picker">
            <label for="tavern_agent_profile_select">{t`Profile`}</label>
            <select
                id="tavern_agent_profile_select"
                class="text_pole"
                title={current?.profile ? profileDescription(current.profile) : undefined}
                value={status.profileId}
                data-problem={problem ?? undefined}
                onChange={(event) => void choose(event.currentTarget.value)}
            >
                {listings.map((listing) => {
                    const flag = listingProblem(listing, data!.connections);
                    const mark = flag === 'invalid' ? ` ⚠ ${t`invalid`}` : flag === 'connection-missing' ? ` ⚠ ${t`connection missing`}` : '';
                    return (
                        // An invalid profile cannot run, so it cannot be picked (unless it is already the chat's).
                        <option
                            value={listing.id}
                            data-problem={flag ?? undefined}
                            title={listing.profile ? profileDescription(listing.profile) : undefined}
                            disabled={flag === 'invalid' && listing.id !== status.profileId}
                        >
                            {`${listing.profile ? profileName(listing.profile) : listing.id} (${listing.id})${mark}`}
                        </option>
                    );
                })}
                {current ? null : (
                    <option value={status.profileId} data-problem={data ? 'missing' : undefined}>
                        {data ? `${status.profileId} ⚠ ${t`missing`}` : status.profileId}
                    </option>
                )}
            </select>
            {warning ? (
                <p class="tavern-agent__error" data-testid="profile-picker-warning">
                    {warning}
                </p>
            ) : null}
        </div>
    );
}
