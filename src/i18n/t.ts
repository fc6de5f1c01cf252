/**
 * Translation through SillyTavern's own i18n: keys are the English strings, the zh-cn table ships in
 * i18n/zh-cn.json (named in the manifest). Outside SillyTavern (unit tests) the English text is used.
 * It lives apart from host/ and ui/ so both may use it without importing each other.
 */
export function t(strings: TemplateStringsArray, ...values: unknown[]): string {
    const st = globalThis.SillyTavern;
    if (st) return st.getContext().t(strings, ...values);
    return strings.reduce((text, part, i) => text + part + (i < values.length ? String(values[i]) : ''), '');
}
