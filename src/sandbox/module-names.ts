import { RUNTIME_MODULE } from '../contract/scripts';

/** The module name the runner evaluates first: it imports the runtime module, then the entry. */
export const ENTRY_WRAPPER = 'scripts/__tavern_agent_entry__.js';

/**
 * A module specifier as the loader knows it: a relative one resolved against the importing module's path in
 * the skill (`scripts/lib/../util.js` → `scripts/util.js`), a bare one as it is. A relative one that climbs
 * out of the skill is returned as it is, and the loader refuses it.
 */
export function resolveModuleName(importer: string, specifier: string): string {
    if (!specifier.startsWith('./') && !specifier.startsWith('../')) return specifier;
    const parts = importer.split('/').slice(0, -1);
    for (const segment of specifier.split('/')) {
        if (segment === '' || segment === '.') continue;
        if (segment === '..') {
            if (parts.length === 0) return specifier;
            parts.pop();
        } else parts.push(segment);
    }
    return parts.join('/');
}

/** Why a module cannot be loaded, or null when the snapshot (or the runtime module) holds it. */
export function moduleRefusal(name: string, modules: Readonly<Record<string, string>>): string | null {
    if (name === RUNTIME_MODULE || name === ENTRY_WRAPPER || Object.hasOwn(modules, name)) return null;
    return `Cannot find module "${name}": a skill script may import only its own scripts/**/*.js files (by relative path) and "${RUNTIME_MODULE}".`;
}
