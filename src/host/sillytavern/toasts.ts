import type { ToastOptions } from './st-context';

/**
 * Every toast says its message and title as text: they carry skill names from cards, model errors and profile
 * names. SillyTavern sets toastr to escape by default, but a page setting is not ours to rely on.
 */
const AS_TEXT: ToastOptions = { escapeHtml: true };

/** SillyTavern's toasts (its page's global toastr); absent in a bare page, where nothing is shown. */
export const toasts = {
    info: (message: string, title?: string) => globalThis.toastr?.info(message, title, AS_TEXT),
    success: (message: string, title?: string) => globalThis.toastr?.success(message, title, AS_TEXT),
    warning: (message: string, title?: string) => globalThis.toastr?.warning(message, title, AS_TEXT),
    error: (message: string, title?: string) => globalThis.toastr?.error(message, title, AS_TEXT),
};

/** SillyTavern's toastr with what sticky toasts need besides the plain calls: the returned toast, and clear. */
interface Toastr {
    info(message: string, title?: string, options?: ToastOptions): unknown;
    clear(toast?: unknown): void;
}

/** Toasts that stay until they are cleared, and do something when clicked. */
export interface StickyToasts {
    show(message: string, title: string, onClick: () => void): unknown;
    clear(toast: unknown): void;
}

/** SillyTavern's toastr as sticky toasts, or null in a bare page (nothing to show them with). */
export function stickyToasts(): StickyToasts | null {
    const toastr = globalThis.toastr as unknown as Toastr | undefined;
    if (!toastr) return null;
    return {
        show: (message, title, onClick) => toastr.info(message, title, { ...AS_TEXT, timeOut: 0, extendedTimeOut: 0, onclick: onClick }),
        clear: (toast) => toastr.clear(toast),
    };
}
