/**
 * Translation through SillyTavern's own i18n: keys are the English strings, the zh-cn table ships in
 * i18n/zh-cn.json (named in the manifest). Outside SillyTavern (unit tests) the English text is used.
 * It lives apart from host/ and ui/ so both may use it without importing each other.
 */
type Translate = (strings: TemplateStringsArray, ...values: unknown[]) => string;

/**
 * SillyTavern's translate function, taken from its context once per SillyTavern object: getContext() builds
 * an object of some two hundred fields on every call, and the timeline translates several strings for each
 * row it draws (a CPU profile of scrolling a 5,000-event run spent more in getContext than in the rows' text).
 * The function itself is the i18n module's export, the same for the page's life.
 */
let translateFor: unknown = null;
let translate: Translate | null = null;

export function t(strings: TemplateStringsArray, ...values: unknown[]): string {
    const st = globalThis.SillyTavern;
    if (st) {
        if (translateFor !== st || !translate) {
            // A context without `t` (a test's stand-in for SillyTavern) says the English text.
            translate = (st.getContext() as unknown as { t?: Translate }).t ?? null;
            translateFor = st;
        }
        if (translate) return translate(strings, ...values);
    }
    return strings.reduce((text, part, i) => text + part + (i < values.length ? String(values[i]) : ''), '');
}
