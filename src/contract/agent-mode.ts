// No zod here: this module is on the page's startup path, and zod stays in the chunks loaded on first use
// (docs/performance.md, figure 6). The state is a few fields, read by hand below.

/** The key under `chat_metadata` that holds Tavern Agent's per-chat state. */
export const CHAT_METADATA_KEY = 'tavern_agent';

export const DEFAULT_PROFILE_ID = 'writer';

/**
 * Who works on a turn of this chat (issue 34): an agent `before` SillyTavern's reply (a director, whose brief
 * goes into the reply's prompt), who writes the reply (`agent`: the chat's profile; `sillytavern`: its own
 * generation, with the user's preset, connection and streaming), and agents `after` it (keepers, in order, in
 * the background, bound to the reply message). `before` and `after` are profile ids.
 */
export interface Pipeline {
    before: string | null;
    reply: 'agent' | 'sillytavern';
    after: string[];
}

/** Today's behaviour: the chat's agent writes the reply, nothing before or after it. */
export const DEFAULT_PIPELINE: Pipeline = { before: null, reply: 'agent', after: [] };

/** At most this many keepers after a reply: each is a whole run. */
export const MAX_AFTER_AGENTS = 8;

/** Per-chat state, stored in the chat file's metadata so it follows the chat (and its branches). */
export interface ChatAgentState {
    version: 1;
    enabled: boolean;
    profileId: string;
    pipeline: Pipeline;
}

const DEFAULT_STATE: ChatAgentState = { version: 1, enabled: false, profileId: DEFAULT_PROFILE_ID, pipeline: DEFAULT_PIPELINE };

const isProfileId = (value: unknown): value is string => typeof value === 'string' && value.length > 0 && value.length <= 64;

/** A stored pipeline, absent fields from the default; null when a field is present but wrong. */
export function parsePipeline(raw: unknown): Pipeline | null {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
    const { before = null, reply = 'agent', after = [] } = raw as Record<string, unknown>;
    if (before !== null && !isProfileId(before)) return null;
    if (reply !== 'agent' && reply !== 'sillytavern') return null;
    if (!Array.isArray(after) || after.length > MAX_AFTER_AGENTS || !after.every(isProfileId)) return null;
    return { before, reply, after: [...after] };
}

/**
 * The state a stored value describes, absent fields taken from the defaults and unknown ones dropped; null
 * when a field is present but wrong (a version from the future, a non-boolean switch, an empty profile id).
 */
export function parseChatAgentState(raw: unknown): ChatAgentState | null {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
    const { version = 1, enabled = false, profileId = DEFAULT_PROFILE_ID, pipeline: rawPipeline = DEFAULT_PIPELINE } = raw as Record<string, unknown>;
    if (version !== 1 || typeof enabled !== 'boolean' || typeof profileId !== 'string' || profileId.length === 0) return null;
    const pipeline = parsePipeline(rawPipeline);
    if (!pipeline) return null;
    return { version, enabled, profileId, pipeline };
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
    pipeline: Pipeline;
    run: { runId: string; state: string } | null;
}
