import { ok, type Result } from '../../contract/result';
import type { CommitRequest } from '../../contract/wire';
import { commitToChat, type CommitTarget } from './commit';
import { openChatIdentity, sameChat } from '../sillytavern/chat-identity';
import { markedRunId } from '../sillytavern/message-marker';
import { stContext } from '../sillytavern/st-context';

/** The little of a chat message that finding a run's reply needs. */
export interface MarkedMessage {
    mes?: string;
    extra?: Record<string, unknown>;
}

/** The newest message of `chat` that carries `runId`'s marker (the run's reply), or null. */
export function findCommittedIn(chat: readonly MarkedMessage[], runId: string): number | null {
    for (let index = chat.length - 1; index >= 0; index -= 1) if (markedRunId(chat[index]) === runId) return index;
    return null;
}

/**
 * Whether a commit's text is already in the message: its save landed before the run was cut off, so
 * writing it again would duplicate it. `first` is a commit that created the message (its text is all of it).
 */
export function commitLanded(message: MarkedMessage, request: Pick<CommitRequest, 'text' | 'mode'>, first: boolean): boolean {
    const text = message.mes ?? '';
    if (first || request.mode === 'replace') return text === request.text;
    const addition = request.text.trim();
    return addition.length > 0 && text.replace(/\s+$/, '').endsWith(addition);
}

/** In the open chat: the message the run `runId` committed, found by its marker. */
export function findCommitted(runId: string): number | null {
    return findCommittedIn(stContext().chat, runId);
}

/**
 * The commit of a resumed run. The message is looked up by the run's marker before anything is written;
 * a commit cut off after its save landed (its text is already there) is answered without writing again.
 * `journaledMessageId` is the message the run's journal knows it committed to (null: no commit journaled).
 */
export function createResumedCommit(target: CommitTarget, journaledMessageId: number | null) {
    let journaled = journaledMessageId;
    return async (request: CommitRequest): Promise<Result<{ messageId: number }>> => {
        target.messageId = findCommitted(request.runId);
        const index = target.messageId;
        if (index !== null && !target.closed) {
            const identity = openChatIdentity();
            const sameOpenChat = identity !== null && sameChat(identity, target.identity);
            const message = stContext().chat[index];
            if (sameOpenChat && message && commitLanded(message, request, journaled === null)) {
                journaled = index;
                return ok({ messageId: index });
            }
        }
        const result = await commitToChat(target, request);
        if (result.ok) journaled = result.value.messageId;
        return result;
    };
}
