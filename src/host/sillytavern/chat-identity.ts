import type { ChatIdentity } from '../../contract/run-input';
import { t } from '../../i18n/t';
import { HostError } from '../host-error';
import { stContext, type ChatMessage } from './st-context';

/** The chat identity a run is bound to, checked again before every commit. Throws (`host.no_chat`) when no chat is open. */
export function currentIdentity(): ChatIdentity {
    const context = stContext();
    const chatId = context.getCurrentChatId();
    const integrity = context.chatMetadata.integrity;
    if (!chatId) throw new HostError('host.no_chat', t`Open a chat first.`);
    return {
        chatId,
        integrity: typeof integrity === 'string' && integrity ? integrity : `chat:${chatId}`,
        characterId: context.characterId === undefined ? null : String(context.characterId),
        groupId: context.groupId ? String(context.groupId) : null,
        characterName: context.name2,
        userName: context.name1,
    };
}

/** The open chat's identity, or null when none can be read (SillyTavern's welcome screen). */
export function openChatIdentity(): ChatIdentity | null {
    try {
        return currentIdentity();
    } catch {
        return null;
    }
}

/** Whether the chat open now is this one: checked again after every await before anything is written into it. */
export function isOpenChat(identity: ChatIdentity): boolean {
    const open = openChatIdentity();
    return open !== null && sameChat(open, identity);
}

/**
 * After an await that ran other code (an event's listeners, a save, a state write): the message is still at
 * `index` of the chat open now. Not when another chat was opened meanwhile (its message at that index is
 * another object), nor when the message moved: then nothing more is drawn, written or saved.
 */
export function stillAt(message: ChatMessage, index: number): boolean {
    return stContext().chat[index] === message;
}

export function sameChat(a: ChatIdentity, b: ChatIdentity): boolean {
    // characterId is an index that a group chat moves between members; the group id and chat file decide.
    return a.chatId === b.chatId && a.integrity === b.integrity && a.groupId === b.groupId && (a.groupId !== null || a.characterId === b.characterId);
}
