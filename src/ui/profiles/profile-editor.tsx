import { useEffect, useState } from 'preact/hooks';
import type { FieldError } from '../../contract/profile-migrations';
import type { ProfileListing } from '../../contract/wire';
import { t } from '../../i18n/t';
import { services } from '../services';
import { chatStatus } from '../state';
import { listingProblem, profileData, profileDataError, refreshProfiles, type ProfileData } from './profile-data';
import { draftOf, fillFromRaw, rawOf, sameProfile, uniqueCopyId, type Draft } from './profile-draft';
import { ProfileForm } from './profile-form';
import { ProfileTransfer } from './profile-transfer';
import { ProblemBadge } from './profile-picker';
import { profileDescription, profileName } from './profile-names';

function listingName(listing: ProfileListing): string {
    return listing.profile ? profileName(listing.profile) : listing.id;
}

/** The form's starting point for a listed profile; a stored profile that no longer validates keeps its errors. */
function openListing(listing: ProfileListing, data: ProfileData): { draft: Draft; errors: FieldError[] } {
    if (listing.profile) return { draft: draftOf(listing.profile), errors: [] };
    const template = data.pristine.find((profile) => profile.id === listing.id) ?? data.pristine[0]!;
    return { draft: draftOf(fillFromRaw(services().profiles.stored()[listing.id], template, listing.id)), errors: listing.errors };
}

function ProfileList({ data, selectedId, onSelect }: { data: ProfileData; selectedId: string | null; onSelect(id: string): void }) {
    return (
        <ul class="tavern-agent__profile-list" data-testid="profile-list">
            {data.listings.map((listing) => (
                <li>
                    <button
                        type="button"
                        class="tavern-agent__profile-item"
                        data-profile-id={listing.id}
                        title={listing.profile ? profileDescription(listing.profile) : undefined}
                        aria-pressed={listing.id === selectedId}
                        onClick={() => onSelect(listing.id)}
                    >
                        <span class="tavern-agent__profile-name">{listingName(listing)}</span>
                        <code class="tavern-agent__muted">{listing.id}</code>
                        {listing.builtIn ? <span class="tavern-agent__badge">{t`built-in`}</span> : null}
                        {listing.overridden ? (
                            <span class="tavern-agent__badge" data-testid="profile-changed">
                                {t`changed`}
                            </span>
                        ) : null}
                        <ProblemBadge problem={listingProblem(listing, data.connections)} />
                    </button>
                </li>
            ))}
        </ul>
    );
}

/**
 * The "Profiles" section: the list, one profile's form, and what can be done with it. Nothing is stored
 * until the worker's check passes; the store only ever receives a profile the worker returned.
 */
function ProfileEditor() {
    const data = profileData.value;
    const [selectedId, setSelectedId] = useState<string | null>(null);
    const [draft, setDraft] = useState<Draft | null>(null);
    const [errors, setErrors] = useState<FieldError[]>([]);
    const [notice, setNotice] = useState<string | null>(null);
    // Said at the Save button (the notice above is some 1,500 px away in a long form), until the next edit.
    const [saved, setSaved] = useState(false);
    const [saving, setSaving] = useState(false);

    const select = (id: string, from: ProfileData | null = profileData.value) => {
        const listing = from?.listings.find((item) => item.id === id) ?? from?.listings[0];
        if (!from || !listing) return;
        const opened = openListing(listing, from);
        setSelectedId(listing.id);
        setDraft(opened.draft);
        setErrors(opened.errors);
    };

    useEffect(() => {
        void refreshProfiles();
    }, []);
    useEffect(() => {
        if (data && selectedId === null) select(chatStatus.value.profileId, data);
    }, [data]);

    if (!data) {
        const failure = profileDataError.value;
        return failure ? <p class="tavern-agent__error" role="alert">{failure}</p> : <p class="tavern-agent__muted">{t`Loading profiles…`}</p>;
    }
    const listing = data.listings.find((item) => item.id === selectedId) ?? null;
    const afterChange = async (id: string, message: string) => {
        await refreshProfiles();
        select(id);
        setNotice(message);
    };

    const save = async () => {
        if (!draft) return;
        setSaving(true);
        setNotice(null);
        setSaved(false);
        try {
            const raw = rawOf(draft);
            if (draft.isNew && data.listings.some((item) => item.id === raw.id)) {
                setErrors([{ path: 'id', message: t`A profile with this id already exists.` }]);
                return;
            }
            const parsed = await (await services().engine()).validateProfile(raw);
            if (!parsed.ok) {
                setErrors(parsed.errors);
                return;
            }
            setErrors([]);
            // A built-in saved back to exactly what ships is no longer "changed".
            const shipped = data.pristine.find((profile) => profile.id === parsed.profile.id);
            if (shipped && sameProfile(shipped, parsed.profile)) services().profiles.remove(parsed.profile.id);
            else services().profiles.save([parsed.profile]);
            await refreshProfiles();
            select(parsed.profile.id);
            setNotice(null);
            setSaved(true);
        } finally {
            setSaving(false);
        }
    };

    const duplicate = () => {
        const source = draft && !draft.isNew && listing?.profile ? listing.profile : null;
        if (!source) return;
        const id = uniqueCopyId(source.id, new Set(data.listings.map((item) => item.id)));
        setDraft(draftOf({ ...source, id, displayName: `${source.displayName} ${t`(copy)`}`.slice(0, 80) }, true));
        setErrors([]);
        setNotice(t`Duplicated: change what you need, then Save.`);
    };

    const remove = async () => {
        if (!listing || listing.builtIn) return;
        if (!(await services().confirm(`${t`Delete this agent profile?`} ${listingName(listing)} (${listing.id})`))) return;
        services().profiles.remove(listing.id);
        await afterChange(data.listings[0]!.id, t`Deleted.`);
    };

    const reset = async () => {
        if (!listing?.builtIn || !listing.overridden) return;
        if (!(await services().confirm(`${t`Reset this built-in profile to what ships with Tavern Agent? Your changes to it are lost.`} ${listingName(listing)} (${listing.id})`))) return;
        services().profiles.remove(listing.id);
        await afterChange(listing.id, t`Reset to the built-in.`);
    };

    return (
        <div class="tavern-agent__profiles-body">
            <ProfileTransfer onImported={(ids) => select(ids[0]!)} onNotice={setNotice} />
            {notice ? (
                <p class="tavern-agent__muted" role="status" data-testid="profile-notice">
                    {notice}
                </p>
            ) : null}
            <ProfileList data={data} selectedId={draft?.isNew ? null : selectedId} onSelect={(id) => select(id)} />
            {draft ? (
                <section class="tavern-agent__profile-detail" aria-label={t`Profile`}>
                    <div class="tavern-agent__toolbar">
                        <h5 class="tavern-agent__form-title">{draft.isNew ? t`New profile (not saved yet)` : listing ? listingName(listing) : draft.profile.id}</h5>
                        {draft.isNew ? (
                            <button type="button" class="menu_button tavern-agent__button" data-testid="profile-cancel" onClick={() => selectedId && select(selectedId)}>
                                {t`Cancel`}
                            </button>
                        ) : (
                            <>
                                <button type="button" class="menu_button tavern-agent__button" data-testid="profile-duplicate" disabled={!listing?.profile} onClick={duplicate}>
                                    <span class="fa-solid fa-copy" aria-hidden="true" /> {t`Duplicate`}
                                </button>
                                {listing && !listing.builtIn ? (
                                    <button type="button" class="menu_button tavern-agent__button" data-testid="profile-delete" onClick={() => void remove()}>
                                        <span class="fa-solid fa-trash-can" aria-hidden="true" /> {t`Delete`}
                                    </button>
                                ) : null}
                                {listing?.builtIn && listing.overridden ? (
                                    <button type="button" class="menu_button tavern-agent__button" data-testid="profile-reset" onClick={() => void reset()}>
                                        <span class="fa-solid fa-rotate-left" aria-hidden="true" /> {t`Reset`}
                                    </button>
                                ) : null}
                            </>
                        )}
                    </div>
                    <ProfileForm
                        draft={draft}
                        errors={errors}
                        tools={data.tools}
                        connections={data.connections}
                        profileIds={data.listings.map((item) => item.id)}
                        profiles={data.listings.flatMap((item) => (item.profile ? [item.profile] : []))}
                        saving={saving}
                        saved={saved}
                        onDraft={(next) => {
                            setSaved(false);
                            setDraft(next);
                        }}
                        onSave={() => void save()}
                    />
                </section>
            ) : null}
        </div>
    );
}

/**
 * The collapsible "Profiles" section of the panel; opening it reloads (Connection Manager may have changed).
 * The editor (some 450 elements) is built the first time the section opens, not with the panel, and then
 * kept, so a draft survives closing the section.
 */
export function ProfilesSection() {
    const [opened, setOpened] = useState(false);
    return (
        <details
            class="tavern-agent__section tavern-agent__profiles"
            id="tavern_agent_profiles"
            onToggle={(event) => {
                if (!event.currentTarget.open) return;
                if (opened) void refreshProfiles();
                else setOpened(true); // the editor loads the profiles as it mounts
            }}
        >
            <summary>
                <h4>{t`Profiles`}</h4>
            </summary>
            {opened ? <ProfileEditor /> : null}
        </details>
    );
}
