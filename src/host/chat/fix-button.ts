import { t } from '../../i18n/t';
import { askAndFix } from './fix-reply';
import { resolveFixTarget } from './fix-target';
import { stContext } from '../sillytavern/st-context';

const BUTTON_CLASS = 'tavern-agent-fix-button';

/** Gives the message block its wand button when its message is an agent reply, and takes it away otherwise. */
function syncButton(block: Element): void {
    const chat = stContext().chat;
    const id = Number(block.getAttribute('mesid'));
    const isReply = Number.isInteger(id) && id >= 0 && id < chat.length && resolveFixTarget(chat, id).ok;
    const existing = block.querySelector(`.${BUTTON_CLASS}`);
    if (!isReply) {
        existing?.remove();
        return;
    }
    if (existing) return;
    const host = block.querySelector('.extraMesButtons');
    if (!host) return;
    const button = document.createElement('div');
    button.className = `mes_button ${BUTTON_CLASS} fa-solid fa-wand-magic-sparkles`;
    button.title = t`Fix this reply with the agent`;
    button.setAttribute('role', 'button');
    button.tabIndex = 0;
    host.prepend(button);
}

/** Every drawn message, after SillyTavern drew or changed some (cheap: a chat shows a bounded number). */
export function refreshFixButtons(): void {
    for (const block of document.querySelectorAll('#chat .mes[mesid]')) syncButton(block);
}

/**
 * The wand button on agent replies (issue 13 §1). One delegated click handler; the buttons follow the
 * events after which a message may have gained or lost our marker. The message is taken by identity at the
 * click, so the popup in between cannot make it fix another one.
 */
export function installFixButtons(): void {
    const context = stContext();
    const { eventSource, eventTypes } = context;
    const refresh = () => queueMicrotask(refreshFixButtons);
    for (const name of ['CHARACTER_MESSAGE_RENDERED', 'USER_MESSAGE_RENDERED', 'MESSAGE_UPDATED', 'MESSAGE_SWIPED', 'MESSAGE_DELETED', 'CHAT_CHANGED', 'MORE_MESSAGES_LOADED', 'MESSAGE_EDITED']) {
        const type = eventTypes[name];
        if (type) eventSource.on(type, refresh);
    }
    document.addEventListener('click', (event) => {
        const button = (event.target as Element | null)?.closest?.(`.${BUTTON_CLASS}`);
        if (!button) return;
        event.stopPropagation();
        const id = Number(button.closest('.mes')?.getAttribute('mesid'));
        const message = stContext().chat[id];
        if (message) void askAndFix(message);
    });
    refreshFixButtons();
}
