import type { ModelReply, ModelRequest, WireMessage } from '../contract/model';

/** What the host was last sent of one conversation (the message objects themselves) and whether it keeps it. */
interface Sent {
    messages: WireMessage[];
    hostKeeps: boolean;
}

const sent = new WeakMap<WireMessage[], Sent>();

/**
 * The messages of a model request: only those added since the last request when the host keeps the
 * conversation, else all of them. A conversation only grows by push (the loop never edits a message it
 * has sent), so what the host holds is the longest run of the same message objects at the start.
 */
export function conversationMessages(conversation: WireMessage[], key: string): Pick<ModelRequest, 'messages' | 'conversation'> {
    const last = sent.get(conversation);
    let base = 0;
    if (last?.hostKeeps) {
        const limit = Math.min(last.messages.length, conversation.length);
        while (base < limit && last.messages[base] === conversation[base]) base += 1;
    }
    sent.set(conversation, { messages: conversation.slice(), hostKeeps: last?.hostKeeps ?? false });
    return { messages: base === 0 ? conversation.slice() : conversation.slice(base), conversation: { key, base } };
}

/** Learns from a reply whether the host keeps the conversation (a host that lost it gets it whole next time). */
export function noteConversationReply(conversation: WireMessage[], reply: ModelReply): void {
    const last = sent.get(conversation);
    if (!last) return;
    if (reply.ok) last.hostKeeps = reply.keepsConversation === true;
    else if (reply.conversationMissing) last.hostKeeps = false;
}
