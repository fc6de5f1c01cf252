import type { SkillPreview } from '../../contract/skills';
import type { EmbeddedSkillOffer } from '../../contract/skills-service';
import { t } from '../../i18n/t';
import { stContext, type StContext } from '../sillytavern/st-context';

type PopupContext = StContext & {
    characters: Array<{ avatar: string; name?: string }>;
    Popup: new (content: HTMLElement, type: number, inputValue?: string, options?: Record<string, unknown>) => { show(): Promise<number | null> };
    POPUP_TYPE: { CONFIRM: number };
    POPUP_RESULT: { AFFIRMATIVE: number };
};

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    node.className = className;
    // Skill names and descriptions come from cards: always text, never HTML.
    if (text !== undefined) node.textContent = text;
    return node;
}

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

function skillItem(skill: SkillPreview): HTMLLIElement {
    const item = element('li', 'tavern-agent-skill-offer__skill');
    item.dataset.skill = skill.name;
    const head = element('div', 'tavern-agent-skill-offer__head');
    head.append(element('strong', 'tavern-agent-skill-offer__name', skill.name));
    if (!skill.error) head.append(element('span', 'tavern-agent-skill-offer__conflict', ` · ${conflictLabel(skill)}`));
    item.append(head);
    if (skill.description) item.append(element('div', 'tavern-agent-skill-offer__description', skill.description));
    item.append(element('div', 'tavern-agent-skill-offer__meta', `${skill.files} ${t`files`} · ${size(skill.bytes)}`));
    for (const warning of skill.warnings) item.append(element('div', 'tavern-agent-skill-offer__warning', `⚠ ${warning}`));
    if (skill.error) item.append(element('div', 'tavern-agent-skill-offer__error', `${t`Refused:`} ${skill.error}`));
    return item;
}

/** SillyTavern's own popup, listing an offer's skills with Install / Not now. True when the user installs. */
export async function askToInstall(offer: EmbeddedSkillOffer): Promise<boolean> {
    const context = stContext() as PopupContext;
    const root = element('div', 'tavern-agent-skill-offer');
    root.dataset.owner = offer.owner;
    const ownerName = offer.kind === 'card' ? (context.characters.find((c) => c.avatar === offer.owner)?.name ?? offer.owner) : offer.owner;
    root.append(element('h3', 'tavern-agent-skill-offer__title', offer.kind === 'card' ? t`This character's card carries agent skills` : t`This preset carries agent skills`));
    root.append(element('div', 'tavern-agent-skill-offer__owner', ownerName));
    const list = element('ul', 'tavern-agent-skill-offer__list');
    list.append(...offer.skills.map(skillItem));
    root.append(list);
    root.append(element('small', 'tavern-agent-skill-offer__note', t`Skills are text the agent may read. Scripts in them are stored, never run.`));
    const popup = new context.Popup(root, context.POPUP_TYPE.CONFIRM, '', { okButton: t`Install`, cancelButton: t`Not now`, wider: true, leftAlign: true, allowVerticalScrolling: true });
    return (await popup.show()) === context.POPUP_RESULT.AFFIRMATIVE;
}
