import { effect } from '@preact/signals';
import { render } from 'preact';
import { t } from '../i18n/t';
import { closeSillyTavernDrawers, watchIconFlips } from './drawer-sync';
import type { PanelActions } from './panel';
import { LazyPanel } from './lazy-panel';
import { SendIndicator } from './send-indicator';
import { provideServices, type PanelServices } from './services';
import { chatStatus, panelOpen, panelSettingsState } from './state';

const PANEL_ROOT_ID = 'tavern_agent_panel_root';
const TOP_BAR_BUTTON_ID = 'tavern_agent_button';
const WAND_ITEM_ID = 'tavern_agent_wand_item';
const SEND_BADGE_ID = 'tavern_agent_send_badge';
const SETTINGS_ID = 'tavern_agent_settings';

let openPanelNow: (() => void) | null = null;

/**
 * Mounts the panel in a container of its own (SillyTavern's top-bar drawers bind their handlers only at
 * init) and adds its ways in and its signs outside: a top-bar icon (showing Agent Mode and a run), an
 * item in the extensions (wand) menu, the badge by the Send button and a block in the Extensions drawer.
 * `actions` are the panel's own controls, `services` what its parts ask of the host (see services.ts).
 */
export function mountPanel(actions: PanelActions, loadServices: () => Promise<PanelServices>, onOpen: () => void): void {
    // The services are the host's side of the panel, loaded with the rest of the runtime (src/runtime.ts):
    // the views and the settings block show once they are there.
    let ready: Promise<void> | null = null;
    // A failed load is not kept either: the next open of the panel tries again (see lazy-panel.tsx).
    const servicesReady = () =>
        (ready ??= loadServices().then(provideServices, (error: unknown) => {
            ready = null;
            throw error;
        }));
    const root = document.createElement('div');
    root.id = PANEL_ROOT_ID;
    document.body.append(root);
    render(<LazyPanel actions={actions} ready={servicesReady} />, root);

    const button = document.createElement('div');
    button.id = TOP_BAR_BUTTON_ID;
    button.className = 'drawer';
    const icon = document.createElement('div');
    icon.className = 'drawer-icon fa-solid fa-robot fa-fw closedIcon interactable';
    icon.setAttribute('role', 'button');
    icon.setAttribute('tabindex', '0');
    const toggle = () => {
        const opening = !panelOpen.value;
        // As SillyTavern's own drawers do: opening one closes the others (pinned ones stay).
        if (opening) closeSillyTavernDrawers(icon);
        panelOpen.value = opening;
        if (opening) onOpen();
    };
    openPanelNow = () => {
        if (!panelOpen.value) toggle();
    };
    // `interactable`: SillyTavern's keyboard.js turns Enter on a focused interactable into a click.
    icon.addEventListener('click', toggle);
    const toggleWrap = document.createElement('div');
    toggleWrap.className = 'drawer-toggle';
    toggleWrap.append(icon);
    button.append(toggleWrap);
    (document.getElementById('top-settings-holder') ?? document.body).append(button);
    watchIconFlips(icon, () => panelOpen.value, () => (panelOpen.value = false));

    // The icon says whether the panel is open (as SillyTavern's do), whether Agent Mode is on and a run works.
    effect(() => {
        const open = panelOpen.value;
        const status = chatStatus.value;
        icon.classList.toggle('openIcon', open);
        icon.classList.toggle('closedIcon', !open);
        icon.classList.toggle('tavern-agent-icon--on', status.enabled);
        icon.classList.toggle('tavern-agent-icon--running', status.run !== null);
        const label = status.run ? t`Tavern Agent: a run is working` : status.enabled ? t`Tavern Agent: Agent Mode is on` : t`Tavern Agent: Agent Mode is off`;
        icon.title = label;
        icon.setAttribute('aria-label', label);
        icon.setAttribute('aria-expanded', String(open));
    });

    const wandMenu = document.getElementById('extensionsMenu');
    if (wandMenu) {
        const item = document.createElement('div');
        item.id = WAND_ITEM_ID;
        item.className = 'list-group-item flex-container flexGap5 interactable';
        item.tabIndex = 0;
        const wandIcon = document.createElement('div');
        wandIcon.className = 'fa-solid fa-robot extensionsMenuExtensionButton';
        const label = document.createElement('span');
        label.textContent = t`Tavern Agent`;
        item.append(wandIcon, label);
        item.addEventListener('click', openPanel);
        wandMenu.append(item);
    }

    mountSendBadge(actions);
    mountSettingsBlock(servicesReady);
    trackSendForm(root);
}

export function closePanel(): void {
    panelOpen.value = false;
}

/** Opens the panel as the top-bar icon does (closing SillyTavern's drawers). */
export function openPanel(): void {
    openPanelNow?.();
}

/** The Agent Mode badge, first in #rightSendForm (left of Send); hidden on the welcome screen or when turned off. */
function mountSendBadge(actions: PanelActions): void {
    const form = document.getElementById('rightSendForm');
    if (!form) return;
    const badge = document.createElement('div');
    badge.id = SEND_BADGE_ID;
    form.prepend(badge);
    render(<SendIndicator setAgentMode={actions.setAgentMode} />, badge);
    effect(() => {
        const status = chatStatus.value;
        badge.hidden = !panelSettingsState.value.sendIndicator || status.chatId === null;
        badge.dataset.agentMode = status.enabled ? 'on' : 'off';
        badge.dataset.running = String(status.run !== null);
    });
}

/** The block in SillyTavern's Extensions drawer, in its second column as most UI extensions do. */
function mountSettingsBlock(servicesReady: () => Promise<void>): void {
    const column = document.getElementById('extensions_settings2') ?? document.getElementById('extensions_settings');
    if (!column) return;
    const container = document.createElement('div');
    container.id = SETTINGS_ID;
    column.append(container);
    // Its profile list and retention fields read the host's stores: it comes with the runtime, not before.
    void Promise.all([import('./settings-block'), servicesReady()]).then(([{ SettingsBlock }]) => render(<SettingsBlock openPanel={openPanel} />, container));
}

/**
 * On a phone the panel is a sheet over the chat that ends above the send form (which grows with its text):
 * the form's top is kept in a CSS variable the narrow layout uses.
 */
function trackSendForm(root: HTMLElement): void {
    const form = document.getElementById('send_form');
    if (!form || typeof ResizeObserver === 'undefined') return;
    const update = () => {
        const space = Math.max(0, window.innerHeight - form.getBoundingClientRect().top);
        root.style.setProperty('--tavern-agent-send-form-space', `${Math.round(space)}px`);
    };
    new ResizeObserver(update).observe(form);
    window.addEventListener('resize', update);
    update();
}
