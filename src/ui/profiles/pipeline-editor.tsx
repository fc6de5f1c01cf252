import { useEffect, useState } from 'preact/hooks';
import { DEFAULT_PIPELINE, MAX_AFTER_AGENTS, type Pipeline } from '../../contract/agent-mode';
import type { ProfileListing } from '../../contract/wire';
import { t } from '../../i18n/t';
import { services } from '../services';
import { chatStatus } from '../state';
import { listingProblem, profileData, refreshProfiles } from './profile-data';
import { profileDescription, profileName } from './profile-names';

/**
 * The open chat's pipeline (issue 34): an agent before the reply (a director, whose brief goes into the reply),
 * who writes the reply (the chat's agent, or SillyTavern's own generation), and agents after it (keepers, in
 * order, in the background). It shows chatStatus, so a change made elsewhere (`/agent pipeline`) shows here;
 * a change is saved by the host, which may refuse it (an unknown profile): the refusal is shown, nothing changes.
 */

const samePipeline = (a: Pipeline, b: Pipeline) => a.before === b.before && a.reply === b.reply && a.after.join('\n') === b.after.join('\n');

function nameOf(id: string, listings: readonly ProfileListing[]): string {
    const profile = listings.find((listing) => listing.id === id)?.profile;
    return profile ? profileName(profile) : id;
}

/** The pipeline in one line, for the closed section: who works, in order. */
export function pipelineShape(pipeline: Pipeline, listings: readonly ProfileListing[]): string {
    if (samePipeline(pipeline, DEFAULT_PIPELINE)) return t`The agent writes the reply`;
    const reply = pipeline.reply === 'agent' ? t`the agent's reply` : t`SillyTavern's reply`;
    const after = pipeline.after.map((id) => nameOf(id, listings)).join(', ');
    return [pipeline.before ? nameOf(pipeline.before, listings) : null, reply, after || null].filter(Boolean).join(' → ');
}

/** The profiles a pipeline may name: every listed one, those that cannot run shown but not offered; a chosen id no longer listed stays, flagged. */
function ProfileOptions({ listings, chosen, exclude = [] }: { listings: readonly ProfileListing[]; chosen: string | null; exclude?: readonly string[] }) {
    const connections = profileData.value?.connections ?? [];
    return (
        <>
            {listings
                .filter((listing) => listing.id === chosen || !exclude.includes(listing.id))
                .map((listing) => {
                    const problem = listingProblem(listing, connections);
                    const mark = problem === 'invalid' ? ` ⚠ ${t`invalid`}` : problem === 'connection-missing' ? ` ⚠ ${t`connection missing`}` : '';
                    return (
                        <option value={listing.id} disabled={problem === 'invalid' && listing.id !== chosen} title={listing.profile ? profileDescription(listing.profile) : undefined}>
                            {`${nameOf(listing.id, listings)} (${listing.id})${mark}`}
                        </option>
                    );
                })}
            {chosen !== null && profileData.value && !listings.some((listing) => listing.id === chosen) ? <option value={chosen}>{`${chosen} ⚠ ${t`missing`}`}</option> : null}
        </>
    );
}

function AfterAgents({ after, listings, busy, change }: { after: readonly string[]; listings: readonly ProfileListing[]; busy: boolean; change(partial: Partial<Pipeline>): void }) {
    const move = (from: number, to: number) => {
        const next = [...after];
        const [id] = next.splice(from, 1);
        next.splice(to, 0, id!);
        change({ after: next });
    };
    const full = after.length >= MAX_AFTER_AGENTS;
    return (
        <div class="tavern-agent__picker" data-testid="pipeline-after">
            <label for="tavern_agent_pipeline_add">{t`After the reply`}</label>
            {after.length ? (
                <ol class="tavern-agent__pipeline-after">
                    {after.map((id, index) => (
                        <li data-profile-id={id} key={`${id}-${index}`}>
                            <span class="tavern-agent__muted">{index + 1}.</span>
                            <span class="tavern-agent__pipeline-name">
                                {nameOf(id, listings)} <small class="tavern-agent__muted tavern-agent__pipeline-id">({id})</small>
                                {profileData.value && !listings.some((listing) => listing.id === id) ? <span class="tavern-agent__badge tavern-agent__badge--warning">⚠ {t`missing`}</span> : null}
                            </span>
                            <button type="button" class="tavern-agent__icon-button fa-solid fa-arrow-up" data-action="up" title={t`Move up`} aria-label={t`Move up`} disabled={busy || index === 0} onClick={() => move(index, index - 1)} />
                            <button
                                type="button"
                                class="tavern-agent__icon-button fa-solid fa-arrow-down"
                                data-action="down"
                                title={t`Move down`}
                                aria-label={t`Move down`}
                                disabled={busy || index === after.length - 1}
                                onClick={() => move(index, index + 1)}
                            />
                            <button
                                type="button"
                                class="tavern-agent__icon-button fa-solid fa-xmark"
                                data-action="remove"
                                title={t`Remove`}
                                aria-label={t`Remove`}
                                disabled={busy}
                                onClick={() => change({ after: after.filter((_, at) => at !== index) })}
                            />
                        </li>
                    ))}
                </ol>
            ) : null}
            <select
                id="tavern_agent_pipeline_add"
                class="text_pole"
                value=""
                disabled={busy || full}
                onChange={(event) => {
                    const id = event.currentTarget.value;
                    event.currentTarget.value = '';
                    if (id) change({ after: [...after, id] });
                }}
            >
                <option value="">{full ? `${t`No more: the list is full`} (${MAX_AFTER_AGENTS})` : t`Add an agent after the reply…`}</option>
                <ProfileOptions listings={listings} chosen={null} exclude={after} />
            </select>
            <small class="tavern-agent__muted">{t`Once a reply is in the chat, each runs in turn, in the background, bound to that message. They never write the chat.`}</small>
        </div>
    );
}

export function PipelineEditor() {
    const pipeline = chatStatus.value.pipeline;
    const listings = profileData.value?.listings ?? [];
    const [busy, setBusy] = useState(false);
    const [error, setError] = useState<string | null>(null);
    const [open, setOpen] = useState(false);
    useEffect(() => {
        void refreshProfiles();
    }, []);

    const change = async (partial: Partial<Pipeline>) => {
        setBusy(true);
        setError(null);
        try {
            const result = await services().chat.setPipeline(partial);
            if (!result.ok) setError(`${result.error.message} (${result.error.code})`);
        } finally {
            setBusy(false);
        }
    };

    return (
        <details
            class="tavern-agent__pipeline"
            data-testid="pipeline"
            data-default={samePipeline(pipeline, DEFAULT_PIPELINE) ? 'true' : undefined}
            open={open || error !== null}
            onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}
        >
            <summary>
                <span class="tavern-agent__pipeline-title">{t`Pipeline`}</span> <span class="tavern-agent__muted" data-testid="pipeline-shape">{pipelineShape(pipeline, listings)}</span>
            </summary>
            <div class="tavern-agent__picker">
                <label for="tavern_agent_pipeline_before">{t`Before the reply`}</label>
                <select id="tavern_agent_pipeline_before" class="text_pole" value={pipeline.before ?? ''} disabled={busy} onChange={(event) => void change({ before: event.currentTarget.value || null })}>
                    <option value="">{t`None`}</option>
                    <ProfileOptions listings={listings} chosen={pipeline.before} />
                </select>
                <small class="tavern-agent__muted">{t`Runs first on Send, Regenerate and Swipe, and writes a brief that goes into the reply.`}</small>
            </div>
            <div class="tavern-agent__picker">
                <label for="tavern_agent_pipeline_reply">{t`The reply`}</label>
                <select
                    id="tavern_agent_pipeline_reply"
                    class="text_pole"
                    value={pipeline.reply}
                    disabled={busy}
                    onChange={(event) => void change({ reply: event.currentTarget.value === 'sillytavern' ? 'sillytavern' : 'agent' })}
                >
                    <option value="agent">{t`The agent`}</option>
                    <option value="sillytavern">{t`SillyTavern`}</option>
                </select>
                <small class="tavern-agent__muted">{t`The agent: the profile above writes it. SillyTavern: your preset, connection and streaming write it, with the brief in its prompt.`}</small>
            </div>
            <AfterAgents after={pipeline.after} listings={listings} busy={busy} change={(partial) => void change(partial)} />
            {error ? (
                <p class="tavern-agent__error" role="alert" data-testid="pipeline-error">
                    {error}
                </p>
            ) : null}
        </details>
    );
}
