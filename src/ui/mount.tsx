import { render } from 'preact';
import { t } from '../i18n/t';
import { Panel, type PanelActions } from './panel';
import { provideServices, type PanelServices } from './services';
import { panelOpen } from './state';

const PANEL_ROOT_ID = 'tavern_agent_panel_root';
const TOP_BAR_BUTTON_ID = 'tavern_agent_button';
const WAND_ITEM_ID = 'tavern_agent_wand_item';

/**
 * Mounts the panel in a container of its own (SillyTavern's top-bar drawers bind their handlers only at
 * init) and adds the two ways to open it: a top-bar icon and an item in the extensions (wand) menu.
 * `actions` are the panel's own controls, `services` what its parts ask of the host (see services.ts).
 */
export function mountPanel(actions: PanelActions, panelServices: PanelServices, onOpen: () => void): void {
    provideServices(panelServices);
    const root = document.createElement('div');
    root.id = PANEL_ROOT_ID;
    document.body.append(root);
    render(<Panel actions={actions} />, root);

    const toggle = () => {
        panelOpen.value = !panelOpen.value;
        if (panelOpen.value) onOpen();
        syncButton();
    };

    const button = document.createElement('div');
    button.id = TOP_BAR_BUTTON_ID;
    button.className = 'drawer';
    const icon = document.createElement('div');
    icon.className = 'drawer-icon fa-solid fa-robot fa-fw closedIcon interactable';
    icon.title = t`Tavern Agent`;
    icon.setAttribute('role', 'button');
    icon.setAttribute('tabindex', '0');
    icon.setAttribute('aria-label', t`Tavern Agent`);
    // `interactable`: SillyTavern's keyboard.js turns Enter on a focused interactable into a click.
    icon.addEventListener('click', toggle);
    const toggleWrap = document.createElement('div');
    toggleWrap.className = 'drawer-toggle';
    toggleWrap.append(icon);
    button.append(toggleWrap);
    (document.getElementById('top-settings-holder') ?? document.body).append(button);

    const syncButton = () => {
        icon.classList.toggle('openIcon', panelOpen.value);
        icon.classList.toggle('closedIcon', !panelOpen.value);
    };
    panelOpen.subscribe(syncButton);

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
        item.addEventListener('click', () => {
            if (!panelOpen.value) toggle();
        });
        wandMenu.append(item);
    }
}

export function closePanel(): void {
    panelOpen.value = false;
}
