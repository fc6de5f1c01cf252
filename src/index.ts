import { agentStatus, notifyAgentModeChange, onAgentModeChange, setAgentMode } from './host/settings/agent-mode';
import { registerAgentCommand } from './host/api/agent-command';
import { createGenerateInterceptor, INTERCEPTOR_NAME } from './host/run/interceptor';
import { createLazyPublicApi } from './host/api/lazy-public-api';
import { setDistBase } from './host/worker/dist-files';
import { toasts } from './host/sillytavern/toasts';
import { onPanelSettingsChange, panelSettings, updatePanelSettings } from './host/settings/panel-settings';
import { stContext } from './host/sillytavern/st-context';
import { t } from './i18n/t';
import { closePanel, mountPanel } from './ui/mount';
import { chatStatus, panelSettingsState, savingAgentMode } from './ui/state';
import type { Runtime } from './runtime';
import type { TavernAgentApi } from './host/api/public-api';

declare global {
    /** The API other extensions and scripts use, set below from the page's start. */
    // eslint-disable-next-line no-var
    var TavernAgent: TavernAgentApi | undefined;
}

/*
 * The startup shell: what must exist from the page's start (the generate interceptor, `/agent`,
 * `globalThis.TavernAgent`, the robot icon, the Send badge, Agent Mode per chat) and nothing more. The
 * runtime behind it (src/runtime.ts: runs, the engine, skills, lore, the panel's services) is a chunk of its
 * own, loaded when the page is idle after APP_READY or at its first use, so SillyTavern's page load fetches
 * and runs only this (README "Performance", figure 6).
 *
 * Here and in runtime.ts the host (src/host/) and the panel (src/ui/) meet; neither imports the other:
 *   - what the panel asks of the host is a field of `PanelServices` (src/ui/services.ts), filled in
 *     runtime.ts from host functions;
 *   - what the host reports (run start/end, chat changes, engine status) reaches the panel's signals
 *     (src/ui/state.ts) through the listeners wired here and there.
 */

// The runtime is a chunk in dist/chunks/: it learns from here where dist/ (and the worker) is.
setDistBase(import.meta.url);

let runtime: Runtime | null = null;
let loading: Promise<Runtime> | null = null;

function loadRuntime(): Promise<Runtime> {
    loading ??= import('./runtime').then(({ startRuntime }) => {
        runtime = startRuntime({ refreshChatStatus });
        refreshChatStatus();
        return runtime;
    });
    return loading;
}

// The interceptor must exist as soon as the module runs: SillyTavern looks it up by name on every Generate.
// With Agent Mode off it returns at once, without loading anything.
(globalThis as Record<string, unknown>)[INTERCEPTOR_NAME] = createGenerateInterceptor(async (...args) => (await loadRuntime()).takeOver(...args));
globalThis.TavernAgent = createLazyPublicApi(async () => (await loadRuntime()).publicApi, () => (runtime ? runtime.publicApi.status() : agentStatus(null)));

/** The host's state of the open chat (and of the run going on) is the truth; the panel's signal mirrors it. */
function refreshChatStatus(): void {
    chatStatus.value = agentStatus(runtime?.chatRun() ?? null);
}

async function switchAgentMode(enabled: boolean): Promise<void> {
    // Show the new position at once; the saved state replaces it when the chat save is done.
    chatStatus.value = { ...chatStatus.value, enabled };
    savingAgentMode.value = true;
    try {
        const result = await setAgentMode(enabled);
        if (!result.ok) toasts.warning(t`Open a chat first: Agent Mode is switched per chat.`);
    } finally {
        savingAgentMode.value = false;
        refreshChatStatus();
    }
}

/** Loads the runtime when the page has nothing else to do (at the latest after two seconds). */
function loadWhenIdle(): void {
    const load = () => void loadRuntime().catch((error: unknown) => console.error('[Tavern Agent] the runtime did not load', error));
    if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
    else setTimeout(load, 200);
}

let started = false;

function start(): void {
    if (started) return;
    started = true;
    const context = stContext();
    registerAgentCommand(async (named, argument) => (await loadRuntime()).agentCommand(named, argument));
    onAgentModeChange(refreshChatStatus);
    context.eventSource.on(context.eventTypes.CHAT_CHANGED!, notifyAgentModeChange);
    panelSettingsState.value = panelSettings();
    onPanelSettingsChange((settings) => {
        panelSettingsState.value = settings;
        refreshChatStatus(); // the default profile shows in chats that never chose one
    });
    mountPanel(
        {
            setAgentMode: (enabled) => void switchAgentMode(enabled),
            stopRun: () => void loadRuntime().then((loaded) => loaded.stopRun('Stopped from the panel.')),
            close: closePanel,
            updateSettings: (change) => void updatePanelSettings(change),
        },
        async () => (await loadRuntime()).panelServices,
        () => void loadRuntime().then((loaded) => loaded.checkEngineHealth()).catch(() => undefined), // the panel shows the failure
    );
    refreshChatStatus();
    loadWhenIdle();
}

// Extensions load before characters and chats; APP_READY fires once the page is usable (and at once for
// listeners added late).
const context = stContext();
context.eventSource.on(context.eventTypes.APP_READY!, start);
