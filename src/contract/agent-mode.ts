// zod/mini: the functional build tree-shakes to a few KB, and this schema ships in the startup bundle.
import * as z from 'zod/mini';

/** The key under `chat_metadata` that holds Tavern Agent's per-chat state. */
export const CHAT_METADATA_KEY = 'tavern_agent';

export const DEFAULT_PROFILE_ID = 'writer';

/** Per-chat state, stored in the chat file's metadata so it follows the chat (and its branches). */
export const ChatAgentStateSchema = z.object({
    version: z._default(z.literal(1), 1),
    enabled: z._default(z.boolean(), false),
    profileId: z._default(z.string().check(z.minLength(1)), DEFAULT_PROFILE_ID),
});

export type ChatAgentState = z.infer<typeof ChatAgentStateSchema>;

/**
 * Reads our state from a chat's metadata. Anything unreadable (hand-edited, from a future version) counts as
 * "off": a broken record must never turn Agent Mode on by surprise.
 */
export function readChatAgentState(metadata: Record<string, unknown> | undefined): ChatAgentState {
    const parsed = ChatAgentStateSchema.safeParse(metadata?.[CHAT_METADATA_KEY] ?? {});
    return parsed.success ? parsed.data : ChatAgentStateSchema.parse({});
}

/** What `/agent status` returns (as JSON) and the public API reports. */
export const AgentStatusSchema = z.object({
    enabled: z.boolean(),
    chatId: z.nullable(z.string()),
    profileId: z.string(),
    run: z.nullable(z.object({ runId: z.string(), state: z.string() })),
});

export type AgentStatus = z.infer<typeof AgentStatusSchema>;
