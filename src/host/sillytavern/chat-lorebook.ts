import { stContext } from './st-context';
import type { WorldInfoModule } from './world-info-module';

/** The chat's own lorebook, when it is bound and still exists (as SillyTavern's chat-lore button checks). */
export function chatBookName(wi: WorldInfoModule): string | null {
    const name = stContext().chatMetadata[wi.METADATA_KEY];
    return typeof name === 'string' && name !== '' && wi.world_names.includes(name) ? name : null;
}

/** The name SillyTavern's /getchatbook gives a new chat lorebook, so users recognise it. */
function chatBookNameFor(chatId: string): string {
    return `Chat Book ${chatId}`.replace(/[^a-z0-9 -]/gi, '_').replace(/_{2,}/g, '_').substring(0, 64);
}

/** The chat's own lorebook, created and bound to the chat when it has none (as the chat-lore button does). */
export async function ensureChatBook(wi: WorldInfoModule): Promise<{ name: string; created: boolean }> {
    const existing = chatBookName(wi);
    if (existing) return { name: existing, created: false };
    const context = stContext();
    const chatId = context.getCurrentChatId();
    if (!chatId) throw new Error('No chat is open.');
    const name = chatBookNameFor(chatId);
    let created = false;
    if (!wi.world_names.includes(name)) {
        if (!(await wi.createNewWorldInfo(name, { interactive: false }))) throw new Error(`SillyTavern did not create the lorebook "${name}".`);
        created = true;
    }
    context.chatMetadata[wi.METADATA_KEY] = name;
    await context.saveMetadata();
    document.querySelectorAll('.chat_lorebook_button').forEach((button) => button.classList.add('world_set'));
    return { name, created };
}
