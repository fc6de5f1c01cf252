import { useEffect, useState } from 'preact/hooks';
import { scopeKey, type SkillListing } from '../../contract/skills';
import type { SkillOwners, SkillsService } from '../../contract/skills-service';
import { t } from '../../i18n/t';
import { downloadBlob } from '../profiles/download';
import { profileData, refreshProfiles } from '../profiles/profile-data';
import { chatStatus } from '../state';
import { SkillImport } from './skill-import';
import { SkillItem } from './skill-item';
import { errorText, groupByScope, scopeLabel, skillKey, targetScopes } from './skill-scope';
import { refreshSkills, skillListing, skillListingError } from './skills-data';

export interface SkillsSectionProps {
    service: SkillsService;
    /** The open character and selected preset, read when drawn (they change with the chat). */
    owners?: () => SkillOwners;
}

interface Notice {
    text: string;
    error: boolean;
}

/** One zip per scope: `export` takes one scope, and a selection may span several. */
async function exportSelected(service: SkillsService, skills: readonly SkillListing[]): Promise<void> {
    const byScope = new Map<string, SkillListing[]>();
    for (const skill of skills) byScope.set(scopeKey(skill.scope), [...(byScope.get(scopeKey(skill.scope)) ?? []), skill]);
    for (const [key, group] of byScope) {
        const blob = await service.export(
            group.map((skill) => skill.name),
            { scope: group[0]!.scope },
        );
        const name = byScope.size === 1 ? (group.length === 1 ? group[0]!.name : 'skills') : `skills-${key.replace(/[^a-z0-9_-]+/gi, '-')}`;
        downloadBlob(`${name}.zip`, blob);
    }
}

function SkillManager({ service, owners: readOwners }: SkillsSectionProps) {
    const skills = skillListing.value;
    const failure = skillListingError.value;
    // Read so that a chat change (another character, another preset) redraws the owners.
    void chatStatus.value.chatId;
    const owners = readOwners?.() ?? null;
    const profileIds = (profileData.value?.listings ?? []).map((listing) => listing.id);
    const targets = targetScopes(owners, profileIds);
    const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
    const [notice, setNotice] = useState<Notice | null>(null);

    useEffect(() => {
        void refreshSkills(service);
        void refreshProfiles();
        return service.onChange(() => void refreshSkills(service));
    }, [service]);

    const chosen = (skills ?? []).filter((skill) => selected.has(skillKey(skill)));
    const select = (key: string, on: boolean) => {
        const next = new Set(selected);
        if (on) next.add(key);
        else next.delete(key);
        setSelected(next);
    };
    const exportChosen = async () => {
        try {
            await exportSelected(service, chosen);
        } catch (error) {
            setNotice({ text: errorText(error), error: true });
        }
    };

    return (
        <div class="tavern-agent__skills-body">
            <SkillImport service={service} owners={owners} targets={targets} />
            {notice ? (
                <p class={notice.error ? 'tavern-agent__error' : 'tavern-agent__muted'} role={notice.error ? 'alert' : 'status'} data-testid="skill-notice">
                    {notice.text}
                </p>
            ) : null}
            {failure ? (
                <p class="tavern-agent__error" role="alert">
                    {failure}
                </p>
            ) : null}
            {skills === null && !failure ? <p class="tavern-agent__muted">{t`Loading skills…`}</p> : null}
            {skills?.length === 0 ? <p class="tavern-agent__muted" data-testid="skills-empty">{t`No skills installed yet.`}</p> : null}
            {skills?.length ? (
                <div class="tavern-agent__toolbar">
                    <button type="button" class="menu_button tavern-agent__button" data-testid="skill-export-selected" disabled={!chosen.length} onClick={() => void exportChosen()}>
                        <span class="fa-solid fa-file-zipper" aria-hidden="true" /> {t`Export selected`} ({chosen.length})
                    </button>
                </div>
            ) : null}
            {groupByScope(skills ?? []).map((group) => (
                <section class="tavern-agent__skill-group" data-testid="skill-group" data-scope={group.key} aria-label={scopeLabel(group.scope, owners)}>
                    <h5 class="tavern-agent__skill-group-title">{scopeLabel(group.scope, owners)}</h5>
                    <ul class="tavern-agent__skill-list">
                        {group.skills.map((skill) => (
                            <SkillItem
                                key={skillKey(skill)}
                                service={service}
                                skill={skill}
                                owners={owners}
                                targets={targets}
                                selected={selected.has(skillKey(skill))}
                                onSelect={(on) => select(skillKey(skill), on)}
                                onNotice={(text, error = false) => setNotice({ text, error })}
                            />
                        ))}
                    </ul>
                </section>
            ))}
        </div>
    );
}

/** The collapsible "Skills" section of the panel; its content is built only while it is open. */
export function SkillsSection(props: SkillsSectionProps) {
    const [open, setOpen] = useState(false);
    return (
        <details class="tavern-agent__section tavern-agent__skills" id="tavern_agent_skills" onToggle={(event) => setOpen(event.currentTarget.open)}>
            <summary>
                <h4>{t`Skills`}</h4>
            </summary>
            {open ? <SkillManager {...props} /> : null}
        </details>
    );
}
