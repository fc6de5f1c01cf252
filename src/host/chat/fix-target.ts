import type { MemoryPayload } from '../../contract/memory';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { markedMemory, markedRunId } from '../sillytavern/message-marker';

/** The little of a chat message a fix needs to check. */
export interface FixableMessage {
    mes?: string;
    is_user?: boolean;
    is_system?: boolean;
    extra?: Record<string, unknown>;
}

export interface FixTarget<M extends FixableMessage = FixableMessage> {
    index: number;
    message: M;
    /** The run whose marker the message carries now: the fix run's first commit takes its place. */
    previousRunId: string;
    /** The memory the message carries (well-formed only), carried along by the fix run's first commit. */
    memory?: MemoryPayload;
}

/**
 * The agent reply a fix revises: the message at `messageId`, or the chat's last agent reply when no id is
 * given. Refused (as data) when there is no such message or it is not an agent reply (the user's own, a
 * hidden one, or one without Tavern Agent's marker).
 */
export function resolveFixTarget<M extends FixableMessage>(chat: readonly M[], messageId: number | null): Result<FixTarget<M>> {
    if (messageId === null) {
        for (let index = chat.length - 1; index >= 0; index -= 1) {
            const found = targetAt(chat, index);
            if (found) return ok(found);
        }
        return fail('run.fix_not_agent_reply', t`This chat has no agent reply to fix.`);
    }
    if (!Number.isInteger(messageId) || messageId < 0 || messageId >= chat.length) {
        return fail('run.fix_message_not_found', t`There is no message with that id in the open chat.`);
    }
    const found = targetAt(chat, messageId);
    return found ? ok(found) : fail('run.fix_not_agent_reply', t`That message is not an agent reply: only a reply Tavern Agent wrote can be fixed.`);
}

function targetAt<M extends FixableMessage>(chat: readonly M[], index: number): FixTarget<M> | null {
    const message = chat[index]!;
    if (message.is_user || message.is_system) return null;
    const runId = markedRunId(message);
    if (!runId) return null;
    const memory = markedMemory(message);
    return { index, message, previousRunId: runId, ...(memory ? { memory } : {}) };
}

/**
 * `/agent fix` arguments: `[id=<messageId>] <request>` (the id may also come as the command's named `id`).
 * Returns the id (null: the last agent reply) and the request, or null when the id is not a number.
 */
export function parseFixArguments(text: string, namedId?: unknown): { messageId: number | null; request: string } | null {
    let rest = text.trim();
    let raw: string | null = namedId === undefined || namedId === null || namedId === '' ? null : String(namedId);
    const match = /^id=(\S*)\s*/i.exec(rest);
    if (match) {
        raw = match[1]!;
        rest = rest.slice(match[0].length);
    }
    if (raw === null) return { messageId: null, request: rest };
    if (!/^\d+$/.test(raw)) return null;
    return { messageId: Number(raw), request: rest };
}
