import type { AgentInvocation } from '../agents/agent';
import type { AgentTrack } from '../projection/agent-track';
import { estimateRequestTokens } from './request-size';
import { requestTail } from './request-tail';

/**
 * Compaction (issue 38 §3): when the agent's next request would pass its profile's threshold of the
 * connection's context size, every tool result older than its last `keepRecentRounds` rounds is replaced by
 * a one-line stub naming a visible copy it can read again. All of them at once, so the conversation drops
 * well below the threshold and stays the same for many requests: the part before the first stub never
 * changes, and what follows changes only when compaction runs again (provider prompt caches keep hitting).
 * Journaled with the copies, so a resume rebuilds the same conversation (apply-event.ts).
 */
/** Where the copies of compacted results go: the first of these roots the agent can see. */
const COPY_ROOTS = ['scratch', 'summaries', 'plan', 'output'] as const;

export async function compactConversation(agent: AgentInvocation): Promise<void> {
    const contextSize = agent.input.contextSize;
    if (!contextSize) return;
    const { track, profile } = agent;
    const limit = Math.floor(contextSize * profile.compaction.threshold);
    const tools = agent.dispatcher.wireTools(track.loop.wrapUp !== null);
    const tokens = estimateRequestTokens(track.conversation.concat(requestTail(track)), tools);
    if (tokens <= limit) return;
    const indexes = compactable(track, profile.compaction.keepRecentRounds);
    if (indexes.length === 0) return;
    // Never persist/: the copies would become the chat's memory when the run finishes.
    const root = COPY_ROOTS.find((candidate) => agent.workspace.policy.visible.includes(candidate));
    if (!root) return;
    const stubs = indexes.map((index) => {
        const { callId, name } = track.results.get(index)!;
        return { index, callId, name, path: `${root}/compacted/${callId}.txt` };
    });
    const files = stubs.map((stub) => agent.workspace.keep(stub.path, track.conversation[stub.index]!.content ?? ''));
    // Stored with the model request that follows, in its transaction: a request has no side effects, so one
    // cut off before this lands is sent again on resume as it was before, uncompacted, and nothing is lost.
    void agent.journal.append('conversation-compact', { stubs, tokens, limit }, { files }, { defer: true });
}

/**
 * The tool results that may give way, oldest first: those before the agent's last `keep` rounds (a round is
 * a model turn with its calls) and never one the model has not answered yet (after its last turn).
 */
export function compactable(track: Pick<AgentTrack, 'conversation' | 'results'>, keep: number): number[] {
    const turns: number[] = [];
    track.conversation.forEach((message, index) => {
        if (message.role === 'assistant') turns.push(index);
    });
    const cutoff = keep === 0 ? (turns.at(-1) ?? 0) : (turns[turns.length - keep] ?? 0);
    return [...track.results.keys()].filter((index) => index < cutoff).sort((a, b) => a - b);
}
