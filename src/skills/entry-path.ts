import { SKILL_LIMITS } from './limits';

/**
 * The path of one file inside a skill package, as an archive or a picked folder names it. Unsafe names
 * refuse the package (nothing of it is installed); a few names that operating systems leave behind are
 * skipped silently.
 */
export type EntryPath = { kind: 'file'; path: string } | { kind: 'ignored' } | { kind: 'refused'; reason: string };

const DRIVE_PREFIX = /^[A-Za-z]:/;

export function checkEntryPath(name: string): EntryPath {
    if (name.length > SKILL_LIMITS.maxPathChars) return { kind: 'refused', reason: `is longer than ${SKILL_LIMITS.maxPathChars} characters` };
    if (name.includes('\u0000')) return { kind: 'refused', reason: 'holds a NUL character' };
    if (name.includes('\\')) return { kind: 'refused', reason: 'holds a backslash (paths must use "/")' };
    if (name.startsWith('/')) return { kind: 'refused', reason: 'is an absolute path' };
    if (DRIVE_PREFIX.test(name)) return { kind: 'refused', reason: 'starts with a drive prefix' };
    const segments = name.split('/').filter((segment) => segment !== '' && segment !== '.');
    if (segments.includes('..')) return { kind: 'refused', reason: 'climbs out of its folder with ".."' };
    if (segments.length === 0) return { kind: 'ignored' };
    const last = segments[segments.length - 1]!;
    // Finder's resource forks and folder settings, never part of a skill.
    if (segments.includes('__MACOSX') || last === '.DS_Store' || last.startsWith('._')) return { kind: 'ignored' };
    return { kind: 'file', path: segments.join('/') };
}

/** "lore.zip" → "lore"; "skills/lore-keeper.md" → "lore-keeper". */
export function stemOf(name: string): string {
    const base = name.slice(name.lastIndexOf('/') + 1);
    const dot = base.lastIndexOf('.');
    return dot > 0 ? base.slice(0, dot) : base;
}
