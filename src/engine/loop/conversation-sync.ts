import type { ModelReply, ModelRequest, WireMessage, WireTool } from '../../contract/model';

/** What the host was last sent of one conversation (the message objects themselves, its tools) and whether it keeps it. */
interface Sent {
    messages: WireMessage[];
    tools: WireTool[] | null;
    hostKeeps: boolean;
}

const sent = new WeakMap<WireMessage[], Sent>();

/**
 * The messages and tools of a model request: only the messages added since the last request when the host
 * keeps the conversation, else all of them; and no tools when they are the ones it was last sent (the
 * dispatcher hands out one array per tool set, so identity says "unchanged"). A conversation only grows by
 * push (the loop never edits a message it has sent), so what the host holds is the longest run of the
 * same message objects at the start.
 */
export function conversationMessages(conversation: WireMessage[], key: string, tools: WireTool[], tail: readonly WireMessage[] = []): Pick<ModelRequest, 'messages' | 'conversation' | 'tools'> {
    const last = sent.get(conversation);
    // A tail (the plan's note) follows the conversation in this request only: the next request's messages
    // take its place, so the host is sent from there on (the note is never part of what it keeps for long).
    const whole = tail.length === 0 ? conversation : conversation.concat(tail);
    let base = 0;
    if (last?.hostKeeps) {
        const limit = Math.min(last.messages.length, whole.length);
        while (base < limit && last.messages[base] === whole[base]) base += 1;
    }
    // The host keeps tools with the conversation: when it gets the conversation whole, it gets them whole.
    const toolsKept = base > 0 && last?.tools === tools;
    sent.set(conversation, { messages: whole.slice(), tools, hostKeeps: last?.hostKeeps ?? false });
    return {
        messages: base === 0 ? whole.slice() : whole.slice(base),
        conversation: { key, base, ...(toolsKept ? { toolsKept: true } : {}) },
        tools: toolsKept ? [] : tools,
    };
}

/** Learns from a reply whether the host keeps the conversation (a host that lost it gets it whole next time). */
export function noteConversationReply(conversation: WireMessage[], reply: ModelReply): void {
    const last = sent.get(conversation);
    if (!last) return;
    if (reply.ok) last.hostKeeps = reply.keepsConversation === true;
    else if (reply.conversationMissing) last.hostKeeps = false;
}
