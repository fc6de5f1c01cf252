import { stContext } from '../sillytavern/st-context';
import { importScriptModule } from '../sillytavern/st-internals';

/**
 * Saves SillyTavern's settings now (not debounced) and tells whether the server took them. ST's own
 * saveSettings swallows a failed request (it shows a toast), and announces success with SETTINGS_UPDATED,
 * so success is that event firing while the save runs.
 */
export async function saveSettingsNow(): Promise<boolean> {
    const context = stContext();
    const script = await importScriptModule();
    let saved = false;
    const onSaved = () => {
        saved = true;
    };
    context.eventSource.on(context.eventTypes.SETTINGS_UPDATED!, onSaved);
    try {
        await script.saveSettings();
    } finally {
        context.eventSource.removeListener(context.eventTypes.SETTINGS_UPDATED!, onSaved);
    }
    return saved;
}

/**
 * One key of `extension_settings` as the server holds it now: another browser of the same user may have
 * changed it since this page loaded. Null when the server cannot be asked (then the page's copy is used).
 */
export async function serverExtensionSetting(key: string): Promise<unknown | null> {
    try {
        const response = await fetch('/api/settings/get', { method: 'POST', headers: stContext().getRequestHeaders(), body: '{}' });
        if (!response.ok) return null;
        const body = (await response.json()) as { settings?: string };
        const settings = JSON.parse(body.settings ?? '{}') as { extension_settings?: Record<string, unknown> };
        return settings.extension_settings?.[key] ?? null;
    } catch {
        return null;
    }
}
