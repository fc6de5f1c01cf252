/** SillyTavern's drawn chat: one `#chat .mes[mesid]` block per message shown, with its button row. */

const MESSAGE_BLOCKS = '#chat .mes[mesid]';

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

/** A button of ours in the button row of some messages' blocks. */
export interface MessageButton {
    /** Its own class, by which it is found again (and clicks on it are told apart). */
    className: string;
    /** Font Awesome classes. */
    icon: string;
    title: string;
    /** Whether the message with this id (the block's `mesid`, not checked) has the button. */
    shows(messageId: number): boolean;
}

function syncButton(block: Element, button: MessageButton): void {
    const existing = block.querySelector(`.${button.className}`);
    if (!button.shows(Number(block.getAttribute('mesid')))) {
        existing?.remove();
        return;
    }
    if (existing) return;
    const row = block.querySelector('.extraMesButtons');
    if (!row) return;
    const element = document.createElement('div');
    element.className = `mes_button ${button.className} ${button.icon}`;
    element.title = button.title;
    element.setAttribute('role', 'button');
    element.tabIndex = 0;
    row.prepend(element);
}

/** Gives every drawn message block the button when it `shows`, and takes it away otherwise (cheap: a chat shows a bounded number). */
export function syncMessageButtons(button: MessageButton): void {
    for (const block of document.querySelectorAll(MESSAGE_BLOCKS)) syncButton(block, button);
}

/** One delegated click handler for the button on every block: `onClick` gets the block's message id. */
export function onMessageButtonClick(className: string, onClick: (messageId: number) => void): void {
    document.addEventListener('click', (event) => {
        const button = (event.target as Element | null)?.closest?.(`.${className}`);
        if (!button) return;
        event.stopPropagation();
        onClick(Number(button.closest('.mes')?.getAttribute('mesid')));
    });
}
