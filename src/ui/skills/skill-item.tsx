import { useEffect, useState } from 'preact/hooks';
import { scopeKey, type SkillListing, type SkillScope } from '../../contract/skills';
import type { SkillOwners, SkillsService } from '../../contract/skills-service';
import { t } from '../../i18n/t';
import { downloadBlob } from '../profiles/download';
import { services } from '../services';
import { SkillFiles } from './skill-files';
import { SkillScripts } from './skill-scripts';
import { errorText, fileCount, formatBytes, scopeFromKey, scopeLabel, skillKey, targetLabel } from './skill-scope';

interface SkillItemProps {
    service: SkillsService;
    skill: SkillListing;
    owners: SkillOwners | null;
    /** Where a skill may be moved: every target scope but its own. */
    targets: readonly SkillScope[];
    selected: boolean;
    onSelect(selected: boolean): void;
    onNotice(text: string, error?: boolean): void;
}

/** "Seen by profiles: …", asked of the service when the skill is opened (profiles change between opens). */
function SeenBy({ service, name }: { service: SkillsService; name: string }) {
    const [ids, setIds] = useState<string[] | null>(null);
    const [failure, setFailure] = useState<string | null>(null);
    useEffect(() => {
        let live = true;
        service.visibleTo(name).then(
            (value) => live && setIds(value),
            (error: unknown) => live && setFailure(errorText(error)),
        );
        return () => {
            live = false;
        };
    }, [service, name]);
    if (failure) return <p class="tavern-agent__error">{failure}</p>;
    return (
        <p class="tavern-agent__skill-seen" data-testid="skill-seen-by">
            <span class="tavern-agent__muted">{t`Seen by profiles:`}</span>{' '}
            {ids === null ? t`Loading…` : ids.length ? ids.map((id) => <code class="tavern-agent__code">{id}</code>) : t`none`}
        </p>
    );
}

/** The owner an embedded export writes to, when the skill's scope is the open character or the selected preset. */
function ownerTarget(scope: SkillScope, owners: SkillOwners | null): 'card' | 'preset' | null {
    if (scope === 'global') return null;
    if ('character' in scope) return owners?.character?.avatar === scope.character ? 'card' : null;
    if ('preset' in scope) return owners?.preset === scope.preset ? 'preset' : null;
    return null;
}

function MoveControl({ service, skill, owners, targets, onNotice }: Omit<SkillItemProps, 'selected' | 'onSelect'>) {
    const others = targets.filter((scope) => scopeKey(scope) !== scopeKey(skill.scope));
    const [choice, setChoice] = useState('');
    const [busy, setBusy] = useState(false);
    const target = scopeFromKey(choice, others);
    const move = async () => {
        if (!target) return;
        setBusy(true);
        try {
            await service.move(skill.name, skill.scope, target);
            onNotice(`${t`Moved:`} ${skill.name} → ${scopeLabel(target, owners)}`);
        } catch (error) {
            onNotice(`${skill.name}: ${errorText(error)}`, true);
        } finally {
            setBusy(false);
        }
    };
    const id = `tavern_agent_skill_move_${skillKey(skill).replace(/[^a-z0-9_-]/gi, '_')}`;
    return (
        <div class="tavern-agent__skill-move">
            <label for={id}>{t`Move to`}</label>
            <select id={id} class="text_pole" data-testid="skill-move-target" value={choice} onChange={(event) => setChoice(event.currentTarget.value)}>
                <option value="">{t`Choose a scope…`}</option>
                {others.map((scope) => (
                    <option value={scopeKey(scope)}>{targetLabel(scope, owners)}</option>
                ))}
            </select>
            <button type="button" class="menu_button tavern-agent__button" data-testid="skill-move" disabled={!target || busy} onClick={() => void move()}>
                <span class="fa-solid fa-right-left" aria-hidden="true" /> {t`Move`}
            </button>
        </div>
    );
}

/** One installed skill: its summary line, and when opened its files, who sees it and what can be done with it. */
export function SkillItem(props: SkillItemProps) {
    const { service, skill, owners, selected, onSelect, onNotice } = props;
    const [open, setOpen] = useState(false);
    const owner = ownerTarget(skill.scope, owners);

    const exportZip = async () => {
        try {
            downloadBlob(`${skill.name}.zip`, await service.export([skill.name], { scope: skill.scope }));
        } catch (error) {
            onNotice(`${skill.name}: ${errorText(error)}`, true);
        }
    };
    const exportToOwner = async (target: 'card' | 'preset') => {
        try {
            await service.exportToOwner([skill.name], { scope: skill.scope, target });
            onNotice(`${target === 'card' ? t`Written into the character card:` : t`Written into the preset:`} ${skill.name}`);
        } catch (error) {
            onNotice(`${skill.name}: ${errorText(error)}`, true);
        }
    };
    const remove = async () => {
        if (!(await services().confirm(`${t`Delete this skill?`} ${skill.name} (${scopeLabel(skill.scope, owners)})`))) return;
        try {
            await service.delete(skill.name, { scope: skill.scope });
            onNotice(`${t`Deleted:`} ${skill.name}`);
        } catch (error) {
            onNotice(`${skill.name}: ${errorText(error)}`, true);
        }
    };

    return (
        <li class="tavern-agent__skill" data-testid="skill-item" data-skill={skill.name} data-scope={scopeKey(skill.scope)}>
            <div class="tavern-agent__skill-head">
                <input
                    type="checkbox"
                    checked={selected}
                    aria-label={`${t`Select`} ${skill.name}`}
                    data-testid="skill-select"
                    onChange={(event) => onSelect(event.currentTarget.checked)}
                />
                <button type="button" class="tavern-agent__skill-toggle" aria-expanded={open} data-testid="skill-toggle" onClick={() => setOpen(!open)}>
                    <span class={`fa-solid ${open ? 'fa-chevron-down' : 'fa-chevron-right'} fa-fw`} aria-hidden="true" />
                    <span class="tavern-agent__skill-name">{skill.name}</span>
                </button>
                <span class="tavern-agent__muted tavern-agent__skill-size" data-testid="skill-size">
                    {fileCount(skill.files.length)}
                    {skill.bytes !== undefined ? ` · ${formatBytes(skill.bytes)}` : ''}
                </span>
            </div>
            <p class="tavern-agent__skill-description">{skill.description}</p>
            {open ? (
                <div class="tavern-agent__skill-body" data-testid="skill-body">
                    <SeenBy service={service} name={skill.name} />
                    {skill.scripts?.length ? <SkillScripts service={service} name={skill.name} scripts={skill.scripts} /> : null}
                    <SkillFiles service={service} name={skill.name} scope={skill.scope} files={skill.files} />
                    <div class="tavern-agent__toolbar">
                        <button type="button" class="menu_button tavern-agent__button" data-testid="skill-export" onClick={() => void exportZip()}>
                            <span class="fa-solid fa-file-zipper" aria-hidden="true" /> {t`Export`}
                        </button>
                        {owner ? (
                            <button type="button" class="menu_button tavern-agent__button" data-testid="skill-export-owner" onClick={() => void exportToOwner(owner)}>
                                <span class={`fa-solid ${owner === 'card' ? 'fa-id-card' : 'fa-sliders'}`} aria-hidden="true" />{' '}
                                {owner === 'card' ? t`Export to card` : t`Export to preset`}
                            </button>
                        ) : null}
                        <button type="button" class="menu_button tavern-agent__button" data-testid="skill-delete" onClick={() => void remove()}>
                            <span class="fa-solid fa-trash-can" aria-hidden="true" /> {t`Delete`}
                        </button>
                    </div>
                    <MoveControl {...props} />
                </div>
            ) : null}
        </li>
    );
}
