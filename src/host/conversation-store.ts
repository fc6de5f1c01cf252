import type { ModelRequest, WireMessage } from '../contract/model';

/**
 * The conversations of one run's agents, kept on the page so each round the worker sends only its new
 * messages (a 100-message conversation no longer crosses whole every round). `resolve` gives a request's
 * whole message list, or null when the messages it builds on are not here (the worker then resends all).
 */
export function createConversationStore() {
    const conversations = new Map<string, WireMessage[]>();
    return {
        resolve(request: Pick<ModelRequest, 'messages' | 'conversation'>): WireMessage[] | null {
            const { conversation } = request;
            if (!conversation) return request.messages;
            const kept = conversations.get(conversation.key) ?? [];
            if (kept.length < conversation.base) return null;
            // A retry sends the same base again: rebuild from the base, never append twice.
            const whole = conversation.base === 0 ? request.messages : kept.slice(0, conversation.base).concat(request.messages);
            conversations.set(conversation.key, whole);
            return whole;
        },
    };
}
