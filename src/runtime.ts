import './contract/zod-setup';
import { notifyAgentModeChange, setChatProfile } from './host/settings/agent-mode';
import { setChatPipeline } from './host/pipeline/pipeline-settings';
import type { AgentCommandHandler } from './host/api/agent-command';
import { commitDraft } from './host/reply-actions/commit-draft';
import { connectionProfiles, currentConnectionProtocol } from './host/model/connection-profiles';
import { acceptLoreProposal, discardLoreProposal } from './host/lore/lore-write';
import { replaceReplyWithCheckpoint } from './host/reply-actions/replace-reply';
import { replyPlace } from './host/chat/reply-place';
import { checkEngineHealth, onEngineStatus } from './host/worker/engine-status';
import type { GenerateInterceptor } from './host/run/interceptor';
import { agentReplies, lastMessage, openChat, regenerateLastTurn } from './host/chat/open-chat';
import { sillyTavernGenerating } from './host/sillytavern/generating-state';
import { onChatMessagesChanged } from './host/sillytavern/chat-changes';
import { revealMessage } from './host/sillytavern/message-blocks';
import { confirmAction } from './host/sillytavern/popup';
import { toasts } from './host/sillytavern/toasts';
import { deleteStoredProfile, saveStoredProfiles, storedProfiles } from './host/settings/profile-store';
import { updatePanelSettings } from './host/settings/panel-settings';
import { createPublicApi, type TavernAgentApi } from './host/api/public-api';
import { createAgentCommand } from './host/api/agent-subcommands';
import { installFixButtons } from './host/reply-actions/fix-button';
import { createRunApi } from './host/api/run-api';
import { decideExtToolCall, onExtToolApprovals, registeredExtTools } from './host/ext-tools/ext-tools';
import { hostSkills } from './host/skills/host-skills';
import { watchSkillOffers } from './host/skills/offer-watch';
import { skillOwners } from './host/skills/skill-owners';
import { getEngine, onEngineCrash } from './host/worker/worker-client';
import { requestPersistentStorage, retentionSettings, saveRetentionSettings } from './host/settings/storage-settings';
import { activeRun, cancelActiveRun, guideActiveRun } from './host/run/active-run';
import { continueRun, resumeRun } from './host/run/resume-run';
import { countTokens } from './host/model/count-tokens';
import { createTurnTakeover } from './host/pipeline/turn-takeover';
import { watchReplies } from './host/pipeline/after-phase';
import { watchState } from './host/state/state-watch';
import { remoteRun, watchOtherTabs } from './host/run/live-view';
import { backgroundRuns, observeBackgroundRuns, stopBackgroundRun } from './host/run/background-runs';
import { memoryBuildStatus, onMemoryBuildChange, resumeMemoryBuild, startMemoryBuild, stopMemoryBuild } from './host/memory/memory-build';
import { turnReply } from './host/pipeline/turn';
import { approvalToasts } from './host/ext-tools/ext-tool-toast';
import { extToolApprovals } from './ui/ext-tools/ext-tool-approvals';
import { createLiveFeed } from './ui/live-feed';
import { openPanel } from './ui/mount';
import type { PanelServices } from './ui/services';
import { openChatMemory } from './host/memory/open-chat-memory';
import { editOpenChatMemory } from './host/memory/memory-edit';
import { chatsWithMemory, seedFromChat } from './host/memory/seed-from-chat';
import { chatRevision, engineState, panelOpen } from './ui/state';

/*
 * The runtime: everything behind the startup shell of src/index.ts (runs, the engine, skills, lore, the
 * panel's services), loaded as a chunk of its own when the page is idle after APP_READY or at its first use,
 * whichever comes first. Like index.ts it is a place where the host (src/host/) and the panel (src/ui/) meet.
 */

/** What the startup shell hands over to the runtime. */
export interface Shell {
    /** Recomputes the open chat's status (Agent Mode, the run going on) for the icon, badge and panel. */
    refreshChatStatus(): void;
}

/** What the shell's stand-ins (interceptor, `/agent`, `globalThis.TavernAgent`, the panel) call once it is loaded. */
export interface Runtime {
    takeOver: GenerateInterceptor;
    agentCommand: AgentCommandHandler;
    publicApi: TavernAgentApi;
    panelServices: PanelServices;
    /** The run of the open chat going on: this tab's, or another tab's shown read-only. */
    chatRun(): { runId: string; state: string } | null;
    stopRun(reason: string): Promise<boolean>;
    checkEngineHealth(): Promise<unknown>;
}

export function startRuntime(shell: Shell): Runtime {
    const liveFeed = createLiveFeed(() => shell.refreshChatStatus());
    // Keepers after a reply feed the same timeline: each run's events go to its own run, and one never takes the view from a run going on.
    observeBackgroundRuns(liveFeed);
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
            continueRun: (runId, rounds) => continueRun(runId, rounds),
            countTokens,
            async setProfile(profileId) {
                await setChatProfile(profileId);
                notifyAgentModeChange(); // also when the save failed: the panel shows the stored choice again
            },
            setPipeline: setChatPipeline,
            turnReply,
            stopBackground: (runId) => stopBackgroundRun(runId, 'Stopped from the panel.'),
        },
        memoryBuild: { status: memoryBuildStatus, start: startMemoryBuild, stop: stopMemoryBuild, resume: resumeMemoryBuild, onChange: onMemoryBuildChange },
        profiles: { stored: storedProfiles, save: saveStoredProfiles, remove: deleteStoredProfile, connections: connectionProfiles, currentProtocol: currentConnectionProtocol },
        confirm: confirmAction,
        toast: toasts,
        skills: hostSkills,
        skillOwners,
        guide: guideActiveRun,
        lore: { accept: acceptLoreProposal, discard: discardLoreProposal },
        memory: { read: openChatMemory, change: editOpenChatMemory, chatsWithMemory, seedFrom: seedFromChat },
        extTools: { registered: registeredExtTools, decide: decideExtToolCall },
        storage: { retention: retentionSettings, saveRetention: saveRetentionSettings, persist: requestPersistentStorage },
        settings: { update: (change) => void updatePanelSettings(change) },
    };

    installFixButtons();
    onChatMessagesChanged(() => (chatRevision.value += 1));
    onEngineStatus((status) => (engineState.value = status));
    watchSkillOffers(hostSkills);
    watchState();
    // Other tabs' runs of the open chat, live and read-only; a dead worker's run shows as interrupted.
    // This tab's own runs (the active one, and keepers in the background) come back on the channel too.
    const isLocal = (runId: string) => activeRun()?.runId === runId || backgroundRuns().some((run) => run.runId === runId);
    void watchOtherTabs(liveFeed, isLocal, shell.refreshChatStatus).catch(() => undefined);
    onEngineCrash(() => shell.refreshChatStatus());
    onExtToolApprovals((pending) => (extToolApprovals.value = pending));
    onExtToolApprovals(approvalToasts(() => panelOpen.value, openPanel));

    return {
        takeOver: createTurnTakeover(liveFeed, watchReplies()),
        agentCommand: createAgentCommand(createRunApi(liveFeed)),
        publicApi: createPublicApi(hostSkills, liveFeed),
        panelServices,
        chatRun: () => activeRun() ?? remoteRun(),
        stopRun: cancelActiveRun,
        checkEngineHealth,
    };
}
