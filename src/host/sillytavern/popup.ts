import { stContext, type StContext } from './st-context';

interface PopupApi {
    callGenericPopup?(content: HTMLElement | string, type: number, inputValue?: string, options?: Record<string, unknown>): Promise<unknown>;
    POPUP_TYPE?: { CONFIRM: number; INPUT: number };
    POPUP_RESULT?: { AFFIRMATIVE: number };
}

/**
 * Asks through SillyTavern's own popup, so it looks native. The question goes in as a text node: it may
 * hold a profile's name, and SillyTavern renders string content as HTML.
 */
export async function confirmAction(question: string): Promise<boolean> {
    const popup = stContext() as unknown as PopupApi;
    if (!popup.callGenericPopup || !popup.POPUP_TYPE) return globalThis.confirm(question);
    const content = document.createElement('p');
    content.textContent = question;
    const result = await popup.callGenericPopup(content, popup.POPUP_TYPE.CONFIRM);
    return result === (popup.POPUP_RESULT?.AFFIRMATIVE ?? 1);
}

/**
 * Asks for a text in SillyTavern's input popup: the answer, or null when the popup is missing, cancelled or
 * left blank. The question goes in as a text node, as confirmAction's does.
 */
export async function askText(question: string, options: { rows: number; okButton: string }): Promise<string | null> {
    const popup = stContext() as unknown as PopupApi;
    if (!popup.callGenericPopup || !popup.POPUP_TYPE) return null;
    const content = document.createElement('p');
    content.textContent = question;
    const answer = await popup.callGenericPopup(content, popup.POPUP_TYPE.INPUT, '', options);
    return typeof answer === 'string' && answer.trim() ? answer : null;
}

/** An element of a popup's content; its text is set as text, never parsed as HTML (it may come from cards). */
export function popupElement<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
    const node = document.createElement(tag);
    node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
}

type PopupClassContext = StContext & {
    Popup: new (content: HTMLElement, type: number, inputValue?: string, options?: Record<string, unknown>) => { show(): Promise<number | null> };
    POPUP_TYPE: { CONFIRM: number };
    POPUP_RESULT: { AFFIRMATIVE: number };
};

/** A confirm popup of SillyTavern's with content of ours and its own buttons (okButton, cancelButton, wider…). True on OK. */
export async function confirmContent(content: HTMLElement, options: Record<string, unknown>): Promise<boolean> {
    const context = stContext() as PopupClassContext;
    const popup = new context.Popup(content, context.POPUP_TYPE.CONFIRM, '', options);
    return (await popup.show()) === context.POPUP_RESULT.AFFIRMATIVE;
}
