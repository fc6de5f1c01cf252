import type { SkillPreview, SkillScriptFile } from '../../contract/skills';
import type { EmbeddedSkillOffer } from '../../contract/skills-service';
import { t } from '../../i18n/t';
import { confirmContent, popupElement } from '../sillytavern/popup';
import { stContext, type StContext } from '../sillytavern/st-context';

type OwnerContext = StContext & { characters: Array<{ avatar: string; name?: string }> };

function size(bytes: number): string {
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function conflictLabel(skill: SkillPreview): string {
    if (skill.conflict === 'same') return t`already installed`;
    if (skill.conflict === 'different') return t`differs from the installed skill of this name (Install replaces it)`;
    return t`new`;
}

function scopeName(kind: NonNullable<SkillPreview['replaces']>[number]): string {
    switch (kind) {
        case 'global':
            return t`global`;
        case 'preset':
            return t`preset`;
        case 'profile':
            return t`profile`;
        case 'character':
            return t`character`;
    }
}

/** Never silently (issue 39 §9): a skill that will be read instead of one of the user's own says so. */
function replacesNote(skill: SkillPreview, kind: EmbeddedSkillOffer['kind']): HTMLElement | null {
    if (!skill.replaces?.length) return null;
    const where = kind === 'card' ? t`in this character's chats` : t`where this preset is used`;
    const note = popupElement('div', 'tavern-agent-skill-offer__replaces', `⚠ ${t`Replaces your skill of the same name`} (${skill.replaces.map(scopeName).join(', ')}) ${where}. ${t`Yours stays installed and is used everywhere else.`}`);
    note.dataset.replaces = skill.replaces.join(',');
    return note;
}

/** The skill's scripts by path and size: what the user agrees to let run where a profile allows scripts. */
function scriptList(scripts: readonly SkillScriptFile[]): HTMLElement {
    const box = popupElement('div', 'tavern-agent-skill-offer__scripts');
    box.append(popupElement('span', 'tavern-agent-skill-offer__scripts-label', t`Scripts:`));
    const list = popupElement('ul', 'tavern-agent-skill-offer__script-list');
    for (const script of scripts) {
        const item = popupElement('li', 'tavern-agent-skill-offer__script', `${script.path} · ${size(script.bytes)}`);
        item.dataset.path = script.path;
        list.append(item);
    }
    box.append(list);
    return box;
}

function skillItem(skill: SkillPreview, kind: EmbeddedSkillOffer['kind']): HTMLLIElement {
    const item = popupElement('li', 'tavern-agent-skill-offer__skill');
    item.dataset.skill = skill.name;
    const head = popupElement('div', 'tavern-agent-skill-offer__head');
    head.append(popupElement('strong', 'tavern-agent-skill-offer__name', skill.name));
    if (!skill.error) head.append(popupElement('span', 'tavern-agent-skill-offer__conflict', ` · ${conflictLabel(skill)}`));
    item.append(head);
    if (skill.description) item.append(popupElement('div', 'tavern-agent-skill-offer__description', skill.description));
    item.append(popupElement('div', 'tavern-agent-skill-offer__meta', `${skill.files} ${t`files`} · ${size(skill.bytes)}`));
    if (skill.scripts?.length) item.append(scriptList(skill.scripts));
    const replaces = skill.error ? null : replacesNote(skill, kind);
    if (replaces) item.append(replaces);
    for (const warning of skill.warnings) item.append(popupElement('div', 'tavern-agent-skill-offer__warning', `⚠ ${warning}`));
    if (skill.error) item.append(popupElement('div', 'tavern-agent-skill-offer__error', `${t`Refused:`} ${skill.error}`));
    return item;
}

/** SillyTavern's own popup, listing an offer's skills with Install / Not now. True when the user installs. */
export async function askToInstall(offer: EmbeddedSkillOffer): Promise<boolean> {
    const context = stContext() as OwnerContext;
    const root = popupElement('div', 'tavern-agent-skill-offer');
    root.dataset.owner = offer.owner;
    const ownerName = offer.kind === 'card' ? (context.characters.find((c) => c.avatar === offer.owner)?.name ?? offer.owner) : offer.owner;
    root.append(popupElement('h3', 'tavern-agent-skill-offer__title', offer.kind === 'card' ? t`This character's card carries agent skills` : t`This preset carries agent skills`));
    root.append(popupElement('div', 'tavern-agent-skill-offer__owner', ownerName));
    const list = popupElement('ul', 'tavern-agent-skill-offer__list');
    list.append(...offer.skills.map((skill) => skillItem(skill, offer.kind)));
    root.append(list);
    root.append(popupElement('small', 'tavern-agent-skill-offer__note', t`Skills are text the agent may read. Their scripts run in a sandbox (no network, 30 s at most) when the agent's profile allows scripts; switch them off per profile with its Scripts setting.`));
    // Skill names and descriptions come from cards: every element above holds them as text, never HTML.
    return confirmContent(root, { okButton: t`Install`, cancelButton: t`Not now`, wider: true, leftAlign: true, allowVerticalScrolling: true });
}
