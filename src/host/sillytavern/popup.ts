import { stContext } from './st-context';

interface PopupApi {
    callGenericPopup?(content: HTMLElement, type: number): Promise<unknown>;
    POPUP_TYPE?: { CONFIRM: number };
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

/** SillyTavern's toasts (toastr); absent in a bare page, where nothing is shown. */
export const toasts = {
    info: (message: string, title?: string) => globalThis.toastr?.info(message, title),
    success: (message: string, title?: string) => globalThis.toastr?.success(message, title),
    warning: (message: string, title?: string) => globalThis.toastr?.warning(message, title),
};
