import { checkBlockLimit, isMemoryMarkdown } from './memory-block';
import { hasFrontMatter } from './front-matter';
import { fail, ok, type Result } from './result';

/** A user's change to the chat's memory from the Memory view (issue 37 §1). */
export type MemoryChange =
    | { kind: 'write'; path: string; text: string }
    | { kind: 'pin'; path: string; pinned: boolean }
    | { kind: 'delete'; path: string };

const HEADER = /^(\uFEFF?---[ \t]*\r?\n)([\s\S]*?)(^---[ \t]*\r?$)/m;
const PINNED_LINE = /^pinned[ \t]*:.*$/m;

/**
 * `text` with its front matter's `pinned` set: the line replaced where there is one, added otherwise; a note
 * without front matter gets a header of that one line. Only the `pinned` line changes, so the title, limit and
 * any other field (and the user's YAML formatting) stay as they were.
 */
export function withPinned(text: string, pinned: boolean): string {
    const line = `pinned: ${pinned}`;
    if (!hasFrontMatter(text)) return `---\n${line}\n---\n${text}`;
    const header = HEADER.exec(text);
    if (!header || header.index !== 0) return `---\n${line}\n---\n${text}`;
    const [, opening, fields, closing] = header;
    const next = PINNED_LINE.test(fields!) ? fields!.replace(PINNED_LINE, line) : `${fields}${line}\n`;
    return `${opening}${next}${closing}${text.slice(header[0].length)}`;
}

/**
 * The memory after `change`, or why not: a path that is not there (`workspace.file_not_found`), a pin on a file
 * that cannot be a block (`workspace.invalid_path`), or a pinned block past its limit (`memory.block_too_long`,
 * the same rule the agent's writes meet). Nothing is changed on a refusal; the caller keeps what was typed.
 */
export function applyMemoryChange(files: Record<string, string>, change: MemoryChange): Result<Record<string, string>> {
    const previous = files[change.path];
    if (previous === undefined) return fail('workspace.file_not_found', `"${change.path}" is not in this chat's memory (any more).`);
    if (change.kind === 'delete') {
        const rest = { ...files };
        delete rest[change.path];
        return ok(rest);
    }
    if (change.kind === 'pin' && !isMemoryMarkdown(change.path)) return fail('workspace.invalid_path', `Only Markdown files under persist/ can be pinned: "${change.path}" is not one.`);
    const next = change.kind === 'pin' ? withPinned(previous, change.pinned) : change.text;
    const tooLong = checkBlockLimit(change.path, previous, next);
    if (tooLong) return fail(tooLong.code, tooLong.message);
    return ok({ ...files, [change.path]: next });
}
