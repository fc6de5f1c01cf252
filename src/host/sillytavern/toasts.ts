/** SillyTavern's toasts (its page's global toastr); absent in a bare page, where nothing is shown. */
export const toasts = {
    info: (message: string, title?: string) => globalThis.toastr?.info(message, title),
    success: (message: string, title?: string) => globalThis.toastr?.success(message, title),
    warning: (message: string, title?: string) => globalThis.toastr?.warning(message, title),
    error: (message: string, title?: string) => globalThis.toastr?.error(message, title),
};

/** SillyTavern's toastr, with the options sticky toasts use (st-context.ts types only the plain calls). */
interface Toastr {
    info(message: string, title?: string, options?: { timeOut?: number; extendedTimeOut?: number; onclick?: () => void }): unknown;
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
        show: (message, title, onClick) => toastr.info(message, title, { timeOut: 0, extendedTimeOut: 0, onclick: onClick }),
        clear: (toast) => toastr.clear(toast),
    };
}
