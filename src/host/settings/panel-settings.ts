import { PANEL_SETTINGS_KEY, readPanelSettings, type PanelSettings } from '../../contract/panel-settings';
import { stContext } from '../sillytavern/st-context';

/**
 * The panel's settings in SillyTavern's extension settings (saved with the user's settings, so they follow
 * the user across browsers). Written whole, validated: a stray value never reaches the page's layout.
 */
export function panelSettings(): PanelSettings {
    return readPanelSettings(stContext().extensionSettings[PANEL_SETTINGS_KEY]);
}

type Listener = (settings: PanelSettings) => void;
const listeners = new Set<Listener>();

export function onPanelSettingsChange(listener: Listener): void {
    listeners.add(listener);
}

export function updatePanelSettings(change: Partial<PanelSettings>): PanelSettings {
    const next = readPanelSettings({ ...panelSettings(), ...change });
    const context = stContext();
    context.extensionSettings[PANEL_SETTINGS_KEY] = next;
    context.saveSettingsDebounced();
    for (const listener of listeners) listener(next);
    return next;
}
