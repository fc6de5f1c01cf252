import type { StoredVariable } from '../contract/state';

/**
 * SillyTavern's chat and global variables as the state tools see them (design note §1): a value stored as
 * JSON text of an object or a list is shown as that object or list (SillyTavern's `index=` reads it so), any
 * other value as it is stored. Written back, a string or a number stays one; anything else is stored as its
 * JSON text, so `{{getvar}}`, `/getvar` and `index=` keep working.
 */
export function variablesView(stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const view: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(stored)) view[key] = viewOf(value);
    return view;
}

function viewOf(value: unknown): unknown {
    if (typeof value !== 'string') return value;
    const trimmed = value.trim();
    if (!(trimmed.startsWith('{') && trimmed.endsWith('}')) && !(trimmed.startsWith('[') && trimmed.endsWith(']'))) return value;
    try {
        return JSON.parse(trimmed) as unknown;
    } catch {
        return value;
    }
}

export function storedForm(value: unknown): Exclude<StoredVariable, null> {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
    return JSON.stringify(value ?? null);
}

/** The variables whose value differs between two views, with their stored form; null for a deleted one. */
export function changedVariables(before: Readonly<Record<string, unknown>>, after: Readonly<Record<string, unknown>>): Record<string, StoredVariable> {
    const changed: Record<string, StoredVariable> = {};
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (!Object.hasOwn(after, key)) {
            if (Object.hasOwn(before, key)) changed[key] = null;
        } else if (!Object.hasOwn(before, key) || JSON.stringify(before[key]) !== JSON.stringify(after[key])) {
            changed[key] = storedForm(after[key]);
        }
    }
    return changed;
}
