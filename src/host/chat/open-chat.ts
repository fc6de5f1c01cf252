import { MESSAGE_MARKER_KEY } from './commit';
import { MemoryPayloadSchema } from '../../contract/memory';
import { currentIdentity } from '../run/capture-run-input';
import { stContext } from '../sillytavern/st-context';

/** What the panel may know of SillyTavern's open chat, read fresh on every call (never cached). */

/** The open chat's id and run key (`chat_metadata.integrity`), or null when no chat is open. */
export function openChat(): { chatId: string; chatKey: string } | null {
    try {
        const identity = currentIdentity();
        return { chatId: identity.chatId, chatKey: identity.integrity };
    } catch {
        return null;
    }
}

/** The chat's last message: its index, whether the user wrote it, and the run that committed it, if any. */
export function lastMessage(): { index: number; isUser: boolean; runId: string | null } | null {
    const chat = stContext().chat;
    const message = chat.at(-1);
    if (!message) return null;
    const marker = message.extra?.[MESSAGE_MARKER_KEY];
    const runId = marker && typeof marker === 'object' ? String((marker as { runId?: unknown }).runId ?? '') : null;
    return { index: chat.length - 1, isUser: Boolean(message.is_user), runId };
}

/** The open chat's agent replies (current swipes): where they are, their run, and the memory files they carry. */
export function agentReplies(): Array<{ index: number; runId: string; memoryFiles: string[] }> {
    return stContext().chat.flatMap((message, index) => {
        const marker = message.extra?.[MESSAGE_MARKER_KEY];
        if (!marker || typeof marker !== 'object') return [];
        const { runId, memory } = marker as { runId?: unknown; memory?: unknown };
        if (typeof runId !== 'string' || !runId) return [];
        const parsed = MemoryPayloadSchema.safeParse(memory);
        const memoryFiles = !parsed.success ? [] : 'files' in parsed.data ? Object.keys(parsed.data.files) : Object.keys(parsed.data.changed);
        return [{ index, runId, memoryFiles: memoryFiles.sort() }];
    });
}

/** True while SillyTavern generates (it marks the body with `data-generating`). */
export function sillyTavernGenerating(): boolean {
    return document.body.dataset.generating !== undefined;
}

/** A new reply for the latest turn, the way SillyTavern's own button does it (groups included). */
export async function regenerateLastTurn(): Promise<void> {
    await stContext().executeSlashCommandsWithOptions('/regenerate');
}

/** Scrolls SillyTavern's chat to a message and flashes it; false when the message is not in the page. */
export function revealMessage(messageId: number): boolean {
    const element = document.querySelector<HTMLElement>(`#chat .mes[mesid="${Math.trunc(messageId)}"]`);
    if (!element) return false;
    element.scrollIntoView({ block: 'center', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    element.classList.remove('tavern-agent--flash');
    void element.offsetWidth; // restarts the animation when jumping to the same message twice
    element.classList.add('tavern-agent--flash');
    setTimeout(() => element.classList.remove('tavern-agent--flash'), 2200);
    return true;
}
