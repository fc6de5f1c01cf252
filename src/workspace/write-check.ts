import type { ToolError } from '../contract/errors';
import { checkFileSize } from './file-size';
import { checkBlockLimit } from './memory-block';

/**
 * Whether a new version of a file may be written: the one check every writing tool makes before it writes
 * (write_file, apply_patch, a skill script's writes). The workspace enforces the memory rule again on write,
 * so a caller that skips this is a bug that fails loudly, never a block past its limit.
 */
export function checkWrite(path: string, previous: string | undefined, next: string): ToolError | null {
    return checkFileSize(path, next) ?? checkBlockLimit(path, previous, next);
}
