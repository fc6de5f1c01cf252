import { CHAT_METADATA_KEY, parseChatAgentState, readChatAgentState, type AgentStatus, type ChatAgentState, type Pipeline } from '../../contract/agent-mode';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { panelSettings } from './panel-settings';
import { stContext } from '../sillytavern/st-context';

/** The open chat's file id, or null on SillyTavern's welcome screen (no character or group chat open). */
function currentChatId(): string | null {
    const context = stContext();
    const hasChat = context.characterId !== undefined || Boolean(context.groupId);
    return hasChat ? context.getCurrentChatId() ?? null : null;
}

export function currentChatAgentState(): ChatAgentState {
    const metadata = currentChatId() ? stContext().chatMetadata : undefined;
    const state = readChatAgentState(metadata);
    // A chat that never stored a choice runs with the user's default profile for new chats (Extensions
    // drawer); the first change of its state stores that profile with it, so a later default leaves it be.
    return metadata?.[CHAT_METADATA_KEY] === undefined ? { ...state, profileId: panelSettings().defaultProfileId } : state;
}

export function agentStatus(run: AgentStatus['run'] = null): AgentStatus {
    const state = currentChatAgentState();
    return { enabled: state.enabled, chatId: currentChatId(), profileId: state.profileId, pipeline: state.pipeline, run };
}

type Listener = () => void;
const listeners = new Set<Listener>();

/** Called when this chat's state changes here, or SillyTavern switches chats. */
export function onAgentModeChange(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
}

export function notifyAgentModeChange(): void {
    for (const listener of listeners) listener();
}

/**
 * Turns Agent Mode on or off for the open chat. The state lives in the chat's own metadata, so it
 * survives reloads, follows the chat file and never leaks into another chat.
 */
export function setAgentMode(enabled: boolean): Promise<Result<ChatAgentState>> {
    return updateChatAgentState({ enabled });
}

/** Sets the agent profile this chat's runs use (validated by the caller against the profile list). */
export function setChatProfile(profileId: string): Promise<Result<ChatAgentState>> {
    return updateChatAgentState({ profileId });
}

/** The open chat's pipeline (issue 34): who works before, on and after its replies. The default on the welcome screen. */
export function chatPipeline(): Pipeline {
    return currentChatAgentState().pipeline;
}

/**
 * Stores the open chat's pipeline with its Agent Mode state. The caller has checked every profile it names
 * (pipeline/pipeline-settings.ts); use setChatPipeline there.
 */
export function storeChatPipeline(pipeline: Pipeline): Promise<Result<ChatAgentState>> {
    return updateChatAgentState({ pipeline });
}

async function updateChatAgentState(change: Partial<ChatAgentState>): Promise<Result<ChatAgentState>> {
    const chatId = currentChatId();
    if (!chatId) return fail('host.no_chat', t`Open a chat first: Agent Mode is switched per chat.`);
    const context = stContext();
    const next = parseChatAgentState({ ...currentChatAgentState(), ...change });
    // Callers pass a boolean or a profile id checked against the list: anything else is a bug, not input.
    if (!next) throw new Error(`Tavern Agent: not a chat state: ${JSON.stringify(change)}`);
    context.chatMetadata[CHAT_METADATA_KEY] = next;
    await context.saveMetadata();
    notifyAgentModeChange();
    return ok(next);
}
