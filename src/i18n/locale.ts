/**
 * The locale SillyTavern's interface is in (its language setting, else the browser's), so dates and times
 * read the way the rest of the interface does: a user with SillyTavern in Chinese gets Chinese times even
 * in an English browser. Undefined outside SillyTavern (unit tests): the runtime's default.
 */
export function uiLocale(): string | undefined {
    // SillyTavern applies a language change by reloading the page: the locale is read once per page. (The
    // timeline formats times on every render of a live run; each read built SillyTavern's whole context.)
    if (cached === null) cached = { locale: readLocale() };
    return cached.locale;
}

let cached: { locale: string | undefined } | null = null;

function readLocale(): string | undefined {
    const context = globalThis.SillyTavern?.getContext() as { getCurrentLocale?: () => string } | undefined;
    const locale = context?.getCurrentLocale?.();
    if (!locale) return undefined;
    try {
        return Intl.DateTimeFormat.supportedLocalesOf([locale]).length ? locale : undefined;
    } catch {
        return undefined; // not a tag Intl knows
    }
}
