/**
 * One of SillyTavern's own page modules, imported at run time (never bundled) and kept: a dynamic import of
 * a module the page already holds still resolves in a task of its own, which waits behind whatever the page
 * is doing (1–2 ms on a busy page, once per model request before this). Module namespaces are live, so the
 * kept one always reads the current values. A failed import is not kept: the next call tries again.
 */
const imported = new Map<string, Promise<unknown>>();

export function importStModule<T>(url: string): Promise<T> {
    let module = imported.get(url);
    if (!module) {
        module = import(/* webpackIgnore: true */ url);
        imported.set(url, module);
        module.catch(() => imported.delete(url));
    }
    return module as Promise<T>;
}
