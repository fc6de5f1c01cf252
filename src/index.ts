import './contract/zod-setup';
import { agentStatus, notifyAgentModeChange, onAgentModeChange, setAgentMode, setChatProfile } from './host/agent-mode';
import { commitDraft } from './host/commit-draft';
import { connectionProfiles, currentConnectionProtocol } from './host/connection-profiles';
import { acceptLoreProposal, discardLoreProposal } from './host/lore-write';
import { replaceReplyWithCheckpoint } from './host/replace-reply';
import { replyPlace } from './host/reply-place';
import { checkEngineHealth, onEngineStatus } from './host/engine-status';
import { createGenerateInterceptor, INTERCEPTOR_NAME } from './host/interceptor';
import { agentReplies, lastMessage, openChat, regenerateLastTurn, revealMessage, sillyTavernGenerating } from './host/open-chat';
import { confirmAction, toasts } from './host/popup';
import { deleteStoredProfile, saveStoredProfiles, storedProfiles } from './host/profile-store';
import { onPanelSettingsChange, panelSettings, updatePanelSettings } from './host/panel-settings';
import { createPublicApi } from './host/public-api';
import { registerSlashCommands } from './host/slash-commands';
import { installFixButtons } from './host/fix-button';
import { createRunApi } from './host/run-api';
import { decideExtToolCall, onExtToolApprovals, registeredExtTools } from './host/ext-tools';
import { extToolApprovals } from './ui/ext-tools/ext-tool-approvals';
import { hostSkills } from './host/skills/host-skills';
import { watchSkillOffers } from './host/skills/offer-watch';
import { skillOwners } from './host/skill-owners';
import { stContext } from './host/st-context';
import { getEngine } from './host/worker-client';
import { requestPersistentStorage, retentionSettings, saveRetentionSettings } from './host/storage-settings';
import { t } from './i18n/t';
import { activeRun, cancelActiveRun, createRunTakeover, guideActiveRun, resumeRun } from './host/run-controller';
import { remoteRun, watchOtherTabs } from './host/live-view';
import { onEngineCrash } from './host/worker-client';
import { createLiveFeed } from './ui/live-feed';
import { closePanel, mountPanel } from './ui/mount';
import { openPanel } from './ui/mount';
import { panelOpen } from './ui/state';
import { approvalToasts } from './host/ext-tool-toast';
import type { PanelServices } from './ui/services';
import { chatStatus, engineState, panelSettingsState, savingAgentMode } from './ui/state';

/*
 * The one place where the host (SillyTavern's side: src/host/) and the panel (src/ui/) meet; neither imports
 * the other. The pattern, for every feature:
 *   - what the panel asks of the host is a field of `PanelServices` (src/ui/services.ts), filled below
 *     from host functions (`panelServices`);
 *   - what the host reports (run start/end, chat changes, engine status) reaches the panel's signals
 *     (src/ui/state.ts) through the listeners wired in this file.
 * A new part (say a skills manager in src/ui/skills/ over src/host/skills/) adds its field to PanelServices
 * and one entry to `panelServices`, and never imports across.
 */

const liveFeed = createLiveFeed(() => refreshChatStatus());

// The interceptor must exist as soon as the module runs: SillyTavern looks it up by name on every Generate.
(globalThis as Record<string, unknown>)[INTERCEPTOR_NAME] = createGenerateInterceptor(createRunTakeover(liveFeed));
globalThis.TavernAgent = createPublicApi(hostSkills, liveFeed);

/** The host's state of the open chat (and of the run going on) is the truth; the panel's signal mirrors it. */
function refreshChatStatus(): void {
    chatStatus.value = agentStatus(activeRun() ?? remoteRun());
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

const panelServices: PanelServices = {
    engine: getEngine,
    chat: {
        open: openChat,
        lastMessage,
        agentReplies,
        generating: sillyTavernGenerating,
        regenerate: regenerateLastTurn,
        revealMessage,
        commitDraft,
        replyPlace,
        replaceReply: replaceReplyWithCheckpoint,
        resume: (runId) => resumeRun(runId),
        async setProfile(profileId) {
            await setChatProfile(profileId);
            notifyAgentModeChange(); // also when the save failed: the panel shows the stored choice again
        },
    },
    profiles: { stored: storedProfiles, save: saveStoredProfiles, remove: deleteStoredProfile, connections: connectionProfiles, currentProtocol: currentConnectionProtocol },
    confirm: confirmAction,
    toast: toasts,
    skills: hostSkills,
    skillOwners,
    guide: guideActiveRun,
    lore: { accept: acceptLoreProposal, discard: discardLoreProposal },
    extTools: { registered: registeredExtTools, decide: decideExtToolCall },
    storage: { retention: retentionSettings, saveRetention: saveRetentionSettings, persist: requestPersistentStorage },
    settings: { update: (change) => void updatePanelSettings(change) },
};

let started = false;

function start(): void {
    if (started) return;
    started = true;
    const context = stContext();
    registerSlashCommands(createRunApi(liveFeed));
    installFixButtons();
    onAgentModeChange(refreshChatStatus);
    onEngineStatus((status) => (engineState.value = status));
    context.eventSource.on(context.eventTypes.CHAT_CHANGED!, notifyAgentModeChange);
    watchSkillOffers(hostSkills);
    // Other tabs' runs of the open chat, live and read-only; a dead worker's run shows as interrupted.
    void watchOtherTabs(liveFeed, (runId) => activeRun()?.runId === runId, refreshChatStatus).catch(() => undefined);
    onEngineCrash(() => refreshChatStatus());
    onExtToolApprovals((pending) => (extToolApprovals.value = pending));
    onExtToolApprovals(approvalToasts(() => panelOpen.value, openPanel));
    panelSettingsState.value = panelSettings();
    onPanelSettingsChange((settings) => {
        panelSettingsState.value = settings;
        refreshChatStatus(); // the default profile shows in chats that never chose one
    });
    mountPanel(
        {
            setAgentMode: (enabled) => void switchAgentMode(enabled),
            stopRun: () => void cancelActiveRun('Stopped from the panel.'),
            close: closePanel,
            updateSettings: (change) => void updatePanelSettings(change),
        },
        panelServices,
        () => void checkEngineHealth().catch(() => undefined), // the panel shows the failure
    );
    refreshChatStatus();
}

// Extensions load before characters and chats; APP_READY fires once the page is usable (and at once for
// listeners added late).
const context = stContext();
context.eventSource.on(context.eventTypes.APP_READY!, start);
