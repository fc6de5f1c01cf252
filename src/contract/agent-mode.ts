// No zod here: this module is on the page's startup path, and zod stays in the chunks loaded on first use
// (README "Performance", figure 6). The state is three fields, read by hand below.

/** The key under `chat_metadata` that holds Tavern Agent's per-chat state. */
export const CHAT_METADATA_KEY = 'tavern_agent';

export const DEFAULT_PROFILE_ID = 'writer';

/** Per-chat state, stored in the chat file's metadata so it follows the chat (and its branches). */
export interface ChatAgentState {
    version: 1;
    enabled: boolean;
    profileId: string;
}

const DEFAULT_STATE: ChatAgentState = { version: 1, enabled: false, profileId: DEFAULT_PROFILE_ID };

/**
 * The state a stored value describes, absent fields taken from the defaults and unknown ones dropped; null
 * when a field is present but wrong (a version from the future, a non-boolean switch, an empty profile id).
 */
export function parseChatAgentState(raw: unknown): ChatAgentState | null {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
    const { version = 1, enabled = false, profileId = DEFAULT_PROFILE_ID } = raw as Record<string, unknown>;
    if (version !== 1 || typeof enabled !== 'boolean' || typeof profileId !== 'string' || profileId.length === 0) return null;
    return { version, enabled, profileId };
}

/**
 * Reads our state from a chat's metadata. Anything unreadable (hand-edited, from a future version) counts as
 * "off": a broken record must never turn Agent Mode on by surprise.
 */
export function readChatAgentState(metadata: Record<string, unknown> | undefined): ChatAgentState {
    return parseChatAgentState(metadata?.[CHAT_METADATA_KEY] ?? {}) ?? { ...DEFAULT_STATE };
}

/** What `/agent status` returns (as JSON) and the public API reports. */
export interface AgentStatus {
    enabled: boolean;
    chatId: string | null;
    profileId: string;
    run: { runId: string; state: string } | null;
}
