import './contract/zod-setup';
import { agentStatus, notifyAgentModeChange, onAgentModeChange, setAgentMode } from './host/agent-mode';
import { checkEngineHealth } from './host/engine-status';
import { createGenerateInterceptor, INTERCEPTOR_NAME } from './host/interceptor';
import { createPublicApi } from './host/public-api';
import { registerSlashCommands } from './host/slash-commands';
import { hostSkills } from './host/skills/host-skills';
import { watchSkillOffers } from './host/skills/offer-watch';
import { skillOwners } from './host/skill-owners';
import { stContext } from './host/st-context';
import { t } from './i18n/t';
import { activeRun, cancelActiveRun, createRunTakeover } from './host/run-controller';
import { createLiveFeed } from './ui/live-feed';
import { closePanel, mountPanel } from './ui/mount';
import { chatStatus, savingAgentMode } from './ui/state';

const liveFeed = createLiveFeed(() => refreshChatStatus());

// The interceptor must exist as soon as the module runs: SillyTavern looks it up by name on every Generate.
(globalThis as Record<string, unknown>)[INTERCEPTOR_NAME] = createGenerateInterceptor(createRunTakeover(liveFeed));
globalThis.TavernAgent = createPublicApi(hostSkills);

function refreshChatStatus(): void {
    chatStatus.value = agentStatus(activeRun());
}

async function switchAgentMode(enabled: boolean): Promise<void> {
    // Show the new position at once; the saved state replaces it when the chat save is done.
    chatStatus.value = { ...chatStatus.value, enabled };
    savingAgentMode.value = true;
    try {
        const result = await setAgentMode(enabled);
        if (!result.ok) globalThis.toastr?.warning(t`Open a chat first: Agent Mode is switched per chat.`);
    } finally {
        savingAgentMode.value = false;
        refreshChatStatus();
    }
}

let started = false;

function start(): void {
    if (started) return;
    started = true;
    const context = stContext();
    registerSlashCommands();
    onAgentModeChange(refreshChatStatus);
    context.eventSource.on(context.eventTypes.CHAT_CHANGED!, notifyAgentModeChange);
    watchSkillOffers(hostSkills);
    mountPanel(
        {
            setAgentMode: (enabled) => void switchAgentMode(enabled),
            stopRun: () => void cancelActiveRun('Stopped from the panel.'),
            close: closePanel,
            skills: hostSkills,
            skillOwners,
        },
        () => void checkEngineHealth().catch(() => undefined), // the panel shows the failure
    );
    refreshChatStatus();
}

// Extensions load before characters and chats; APP_READY fires once the page is usable (and at once for
// listeners added late).
const context = stContext();
context.eventSource.on(context.eventTypes.APP_READY!, start);
