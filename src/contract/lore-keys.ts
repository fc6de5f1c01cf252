/**
 * Which lore keys SillyTavern treats as regular expressions (issue 39 §7). Its world-info scan
 * (public/scripts/world-info.js `matchKeys`, 1.19) runs a key as a pattern when `parseRegexFromString` accepts
 * it: the whole key is `/pattern/flags` with flags from `gimsuy`, every `/` inside the pattern escaped, and
 * the pattern compiles. Any other key is matched as plain text. The same rule here, so the panel marks
 * exactly the keys SillyTavern will run. Compiling a pattern never runs it, so this is safe on any key.
 */
export function isRegexKey(key: string): boolean {
    // SillyTavern trims a key (after its macros) before matching it.
    const match = /^\/([\w\W]+?)\/([gimsuy]*)$/.exec(key.trim());
    if (!match) return false;
    let pattern = match[1]!;
    const flags = match[2]!;
    // An unescaped slash inside: SillyTavern reads the key as text.
    if (/(^|[^\\])\//.test(pattern)) return false;
    // As SillyTavern does: only the first escaped slash is unescaped (String.replace with a string).
    pattern = pattern.replace('\\/', '/');
    try {
        new RegExp(pattern, flags);
        return true;
    } catch {
        return false;
    }
}

/** The keys of a list SillyTavern would run as regular expressions, in order. */
export function regexKeys(keys: readonly string[]): string[] {
    return keys.filter(isRegexKey);
}
