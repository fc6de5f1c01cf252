import { toolError, type ToolError } from '../contract/errors';
import { isHiddenPath, rootOf, type RootPolicy } from './roots';

export type PathCheck = { ok: true; path: string } | { ok: false; error: ToolError };

const ROOT_ALIASES = new Set(['', '.', './']);

function invalid(raw: string, why: string): PathCheck {
    return {
        ok: false,
        error: toolError(
            'workspace.invalid_path',
            `Invalid path ${JSON.stringify(raw)}: ${why}.`,
            'Use a relative path with "/" separators inside a workspace root, e.g. "scratch/notes.md".',
        ),
    };
}

/**
 * Normalizes a path the model gave and rejects anything that could escape the workspace. The result is
 * relative, "/"-separated, without "." segments or trailing slash; "" means the workspace root.
 */
export function normalizePath(raw: string, { allowRoot }: { allowRoot: boolean }): PathCheck {
    if (typeof raw !== 'string') return invalid(String(raw), 'not a string');
    if (raw.includes('\0')) return invalid(raw, 'it contains a NUL character');
    if (raw.includes('\\')) return invalid(raw, 'backslashes are not allowed');
    if (/^[a-zA-Z]:/.test(raw)) return invalid(raw, 'drive letters are not allowed');
    if (raw.startsWith('/')) return invalid(raw, 'absolute paths are not allowed');
    if (ROOT_ALIASES.has(raw.trim())) {
        return allowRoot ? { ok: true, path: '' } : invalid(raw, 'a file path is needed here');
    }
    const segments = raw.split('/').filter((segment) => segment !== '' && segment !== '.');
    if (segments.some((segment) => segment === '..')) return invalid(raw, '".." is not allowed');
    if (segments.some((segment) => segment.trim() !== segment || /[\x00-\x1f]/.test(segment))) {
        return invalid(raw, 'segments may not have surrounding spaces or control characters');
    }
    if (segments.length === 0) return allowRoot ? { ok: true, path: '' } : invalid(raw, 'a file path is needed here');
    return { ok: true, path: segments.join('/') };
}

function notVisible(path: string, policy: RootPolicy): PathCheck {
    return {
        ok: false,
        error: toolError(
            'workspace.path_not_visible',
            `"${path}" is outside the workspace roots this agent can see.`,
            `Visible roots: ${policy.visible.map((root) => `${root}/`).join(', ')}.`,
        ),
    };
}

/** A path the agent may look at (list, search, read). "" (the root) is allowed where `allowRoot`. */
export function checkVisible(raw: string, policy: RootPolicy, opts: { allowRoot: boolean }): PathCheck {
    const normalized = normalizePath(raw, opts);
    if (!normalized.ok || normalized.path === '') return normalized;
    if (isHiddenPath(normalized.path) || !policy.visible.includes(rootOf(normalized.path))) {
        return notVisible(normalized.path, policy);
    }
    return normalized;
}

/** A file path the agent may write: inside a writable root and not a root itself. */
export function checkWritable(raw: string, policy: RootPolicy): PathCheck {
    const normalized = normalizePath(raw, { allowRoot: false });
    if (!normalized.ok) return normalized;
    const { path } = normalized;
    if (isHiddenPath(path) || !policy.writable.includes(rootOf(path))) {
        return {
            ok: false,
            error: toolError(
                'workspace.path_not_writable',
                `"${path}" is not in a root this agent may write.`,
                `Writable roots: ${policy.writable.map((root) => `${root}/`).join(', ')}.`,
            ),
        };
    }
    if (!path.includes('/')) {
        return {
            ok: false,
            error: toolError('workspace.path_is_directory', `"${path}" is a root folder, not a file.`, `Write a file inside it, e.g. "${path}/notes.md".`),
        };
    }
    return normalized;
}
