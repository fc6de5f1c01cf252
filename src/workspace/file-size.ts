import { toolError, type ToolError } from '../contract/errors';

/** The largest workspace file: bigger drafts make every read, search and checkpoint slow and heavy. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** UTF-8 size without encoding the text: a UTF-16 code unit is 1–3 bytes (a surrogate pair is 4 for two). */
export function utf8Bytes(text: string): number {
    if (text.length * 3 <= MAX_FILE_BYTES) return text.length; // Cannot be over the limit: skip the count.
    let bytes = 0;
    for (let i = 0; i < text.length; i += 1) {
        const code = text.charCodeAt(i);
        bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code >= 0xd800 && code <= 0xdbff ? 2 : code >= 0xdc00 && code <= 0xdfff ? 2 : 3;
    }
    return bytes;
}

/** Refuses a file version over MAX_FILE_BYTES, recoverably: the model can split or shorten it. */
export function checkFileSize(path: string, next: string): ToolError | null {
    if (next.length <= MAX_FILE_BYTES / 3) return null;
    const bytes = utf8Bytes(next);
    if (bytes <= MAX_FILE_BYTES) return null;
    return toolError(
        'workspace.file_too_large',
        `"${path}" would be ${bytes} bytes; a workspace file holds at most ${MAX_FILE_BYTES} bytes (2 MiB). Nothing was written.`,
        'Write less, or split the text over several files (e.g. scratch/part-1.md, scratch/part-2.md).',
    );
}
