import { t } from '../../i18n/t';
import { onMessageButtonClick, syncMessageButtons, type MessageButton } from '../sillytavern/message-blocks';
import { onChatMessagesChanged } from '../sillytavern/chat-changes';
import { stContext } from '../sillytavern/st-context';
import { askAndFix } from './fix-reply';
import { resolveFixTarget } from '../chat/fix-target';

const BUTTON_CLASS = 'tavern-agent-fix-button';

/** The wand button: on a message block when its message is an agent reply. */
function fixButton(): MessageButton {
    return {
        className: BUTTON_CLASS,
        icon: 'fa-solid fa-wand-magic-sparkles',
        title: t`Fix this reply with the agent`,
        shows(id) {
            const chat = stContext().chat;
            return Number.isInteger(id) && id >= 0 && id < chat.length && resolveFixTarget(chat, id).ok;
        },
    };
}

/** Every drawn message, after SillyTavern drew or changed some. */
export function refreshFixButtons(): void {
    syncMessageButtons(fixButton());
}

/**
 * The wand button on agent replies (issue 13 §1). One delegated click handler; the buttons follow the
 * events after which a message may have gained or lost our marker. The message is taken by identity at the
 * click, so the popup in between cannot make it fix another one.
 */
export function installFixButtons(): void {
    onChatMessagesChanged(refreshFixButtons);
    onMessageButtonClick(BUTTON_CLASS, (id) => {
        const message = stContext().chat[id];
        if (message) void askAndFix(message);
    });
    refreshFixButtons();
}
