import type { ModelRequest, WireMessage, WireTool } from '../../contract/model';

/**
 * The conversations of one run's agents, kept on the page so each round the worker sends only its new
 * messages (a 100-message conversation no longer crosses whole every round), and their tools, sent once.
 * `resolve` gives a request's whole message list, `resolveRequest` the whole request; each null when what
 * it builds on is not here (the worker then resends all).
 */
export function createConversationStore() {
    const conversations = new Map<string, WireMessage[]>();
    /** Each conversation's tools as last sent (a request with `toolsKept` reuses them). */
    const toolSets = new Map<string, WireTool[]>();
    const store = {
        resolve(request: Pick<ModelRequest, 'messages' | 'conversation'> & { tools?: WireTool[] }): WireMessage[] | null {
            const { conversation } = request;
            if (!conversation) return request.messages;
            if (!conversation.toolsKept && request.tools) toolSets.set(conversation.key, request.tools);
            const kept = conversations.get(conversation.key) ?? [];
            if (kept.length < conversation.base) return null;
            // A retry sends the same base again: rebuild from the base, never append twice.
            const whole = conversation.base === 0 ? request.messages : kept.slice(0, conversation.base).concat(request.messages);
            conversations.set(conversation.key, whole);
            return whole;
        },
        /** A request as the model gets it: the whole conversation and its tools, or null when the page lost them. */
        resolveRequest(request: ModelRequest): ModelRequest | null {
            const messages = store.resolve(request);
            const tools = request.conversation?.toolsKept ? toolSets.get(request.conversation.key) : request.tools;
            if (messages === null || !tools) return null;
            const { conversation: _sent, ...rest } = request;
            return { ...rest, messages, tools };
        },
    };
    return store;
}
