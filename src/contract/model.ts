import * as z from 'zod';

/** One tool call as the engine sees it, whatever provider produced it. */
export const ToolCallSchema = z.object({
    id: z.string(),
    name: z.string(),
    /** The raw argument text; parsed (and possibly rejected) by the dispatcher, not the decoder. */
    argumentsText: z.string(),
    /** Provider data that must be sent back with this call (a Gemini thought signature). */
    signature: z.string().optional(),
    /**
     * A call the text protocol could not read (SPEC §9): the dispatcher answers it with
     * `tool.invalid_arguments` and this message and hint, without running anything.
     */
    invalid: z.object({ message: z.string(), hint: z.string() }).optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const TokenUsageSchema = z.object({ input: z.number(), output: z.number() });
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** The one internal shape of a model turn: the decoders turn every provider's response into this. */
export const ModelTurnSchema = z.object({
    text: z.string(),
    reasoning: z.string(),
    toolCalls: z.array(ToolCallSchema),
    usage: TokenUsageSchema.nullable(),
    finishReason: z.string().nullable(),
    /** Provider data that rides along and is sent back (thinking signatures). */
    native: z.object({ signature: z.string().optional() }),
    /** What the text protocol's reader repaired in this turn's calls ("call 1: code_fence"), for the journal. */
    repairs: z.array(z.string()).optional(),
});
export type ModelTurn = z.infer<typeof ModelTurnSchema>;

/** OpenAI chat format: what the engine sends; SillyTavern's backend converts it for other providers. */
export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

export interface WireToolCall {
    id: string;
    type: 'function';
    function: { name: string; arguments: string };
    signature?: string;
}

export interface WireMessage {
    role: ChatRole;
    content: string | null;
    name?: string;
    tool_calls?: WireToolCall[];
    tool_call_id?: string;
    signature?: string;
}

export interface WireTool {
    type: 'function';
    function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ModelRequest {
    runId: string;
    /** Unique in the run: lets the engine abort one request (a cancelled sub-agent's) and not the others. */
    requestId: string;
    round: number;
    /**
     * The model of the agent making the call (a sub-agent may use another Connection Manager profile than
     * the root agent); absent means the run's own profile.
     */
    model?: { mode: 'current' } | { mode: 'connection-profile'; profileId: string; profileName: string };
    /** The agent making the call, to name it in errors ("the researcher's connection profile is missing"). */
    agentName?: string;
    messages: WireMessage[];
    /**
     * Which conversation `messages` belong to (`key`: the root agent's, or a sub-agent task's) and how many
     * of its messages come before them (`base`). A host that keeps conversations (its reply says
     * `keepsConversation`) gets only the new messages of each round and puts them after its first `base`;
     * base 0 sends the conversation whole. Absent: `messages` is the whole conversation.
     *
     * `toolsKept`: `tools` is empty because the tools are those of this conversation's last request (about
     * 20 KB of schemas that would otherwise cross every round). Only sent to a host that keeps
     * conversations, which keeps their tools too; one that lost them answers `conversationMissing`.
     */
    conversation?: { key: string; base: number; toolsKept?: boolean };
    tools: WireTool[];
    /**
     * Text Completion connections only: whether the request may constrain decoding to the text tool
     * protocol with a grammar (the profile's switch). Absent means yes.
     */
    grammar?: boolean;
}

/** What the host returns for a model request: the backend's JSON untouched, or an error as data. */
export type ModelReply =
    | {
          ok: true;
          raw: unknown;
          durationMs: number;
          /** The chat completion source the response comes from, when it is not the run's (a sub-agent's model). */
          source?: string;
          /** The host keeps the request's conversation: the next request of it may carry only its new messages. */
          keepsConversation?: boolean;
      }
    | {
          ok: false;
          /** The HTTP status, or null for a network error or an error SillyTavern reported inside a 200. */
          status: number | null;
          message: string;
          aborted: boolean;
          /** The server's Retry-After, in milliseconds, when it sent one. */
          retryAfterMs?: number;
          /** The host does not hold the messages the request builds on (`conversation.base`): send them whole. */
          conversationMissing?: boolean;
      };
