import { CHAT_METADATA_KEY, parseChatAgentState, parsePipeline, readChatAgentState, type AgentStatus, type ChatAgentState, type Pipeline } from '../../contract/agent-mode';
import { fail, ok, type Result } from '../../contract/result';
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

/**
 * Whether a profile id names a profile a run can use (a built-in or a valid profile of the user's), and why
 * not. The worker validates profiles, and worker/ is a floor above settings/: the runtime hands the check in.
 */
type ProfileCheck = (id: string) => Promise<Result<unknown>>;
let profileCheck: ProfileCheck | null = null;

export function checkPipelineProfilesWith(check: ProfileCheck): void {
    profileCheck = check;
}

/**
 * Sets any part of the open chat's pipeline (issue 34): before, reply, after. A profile id the change names
 * that is no usable profile is refused (`profile.not_found`, `profile.invalid`), and nothing changes.
 */
export async function setChatPipeline(partial: Partial<Pipeline>): Promise<Result<Pipeline>> {
    if (!currentChatId()) return fail('host.no_chat', 'Open a chat first: Agent Mode is switched per chat.');
    const now = currentChatAgentState().pipeline;
    const next = parsePipeline({ ...now, ...partial });
    if (!next) return fail('run.invalid_input', `Not a pipeline: ${JSON.stringify(partial)}.`);
    if (!profileCheck) throw new Error('Tavern Agent: setChatPipeline was called before the runtime handed in the profile check.');
    // Only the ids this change brings in: a profile deleted since it was chosen must not block every other change.
    const added = [...(partial.before && partial.before !== now.before ? [partial.before] : []), ...(partial.after ?? []).filter((id) => !now.after.includes(id))];
    for (const id of new Set(added)) {
        const usable = await profileCheck(id);
        if (!usable.ok) return usable;
    }
    const result = await updateChatAgentState({ pipeline: next });
    return result.ok ? ok(result.value.pipeline) : result;
}

async function updateChatAgentState(change: Partial<ChatAgentState>): Promise<Result<ChatAgentState>> {
    const chatId = currentChatId();
    if (!chatId) return fail('host.no_chat', 'Open a chat first: Agent Mode is switched per chat.');
    const context = stContext();
    const next = parseChatAgentState({ ...currentChatAgentState(), ...change });
    // Callers pass a boolean or a profile id checked against the list: anything else is a bug, not input.
    if (!next) throw new Error(`Tavern Agent: not a chat state: ${JSON.stringify(change)}`);
    context.chatMetadata[CHAT_METADATA_KEY] = next;
    await context.saveMetadata();
    notifyAgentModeChange();
    return ok(next);
}
