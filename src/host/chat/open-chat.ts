import { openChatIdentity } from '../sillytavern/chat-identity';
import { markedMemory, markedRunId } from '../sillytavern/message-marker';
import { stContext } from '../sillytavern/st-context';

/** What the panel may know of SillyTavern's open chat, read fresh on every call (never cached). */

/** The open chat's id and run key (`chat_metadata.integrity`), or null when no chat is open. */
export function openChat(): { chatId: string; chatKey: string } | null {
    const identity = openChatIdentity();
    return identity ? { chatId: identity.chatId, chatKey: identity.integrity } : null;
}

/** The chat's last message: its index, whether the user wrote it, and the run that committed it, if any. */
export function lastMessage(): { index: number; isUser: boolean; runId: string | null } | null {
    const chat = stContext().chat;
    const message = chat.at(-1);
    if (!message) return null;
    return { index: chat.length - 1, isUser: Boolean(message.is_user), runId: markedRunId(message) };
}

/** The open chat's agent replies (current swipes): where they are, their run, and the memory files they carry. */
export function agentReplies(): Array<{ index: number; runId: string; memoryFiles: string[] }> {
    return stContext().chat.flatMap((message, index) => {
        const runId = markedRunId(message);
        if (!runId) return [];
        const memory = markedMemory(message);
        const memoryFiles = !memory ? [] : 'files' in memory ? Object.keys(memory.files) : Object.keys(memory.changed);
        return [{ index, runId, memoryFiles: memoryFiles.sort() }];
    });
}

/** A new reply for the latest turn, the way SillyTavern's own button does it (groups included). */
export async function regenerateLastTurn(): Promise<void> {
    await stContext().executeSlashCommandsWithOptions('/regenerate');
}
