/**
 * Content-defined chunks of a large frozen input (the chat snapshot, the prompt): runs of the same chat
 * share almost all of it, so each chunk is stored once per content hash instead of once per run.
 *
 * The text is cut at line ends chosen by the lines' own content (a line whose hash ends in five zero bits,
 * about every 32 lines) or at CHUNK_MAX_CHARS: a message appended at the end, or one edited in the middle,
 * changes only the chunks around it, and every other chunk keeps its hash. The snapshots are JSON with one
 * field per line, so a chunk is a few messages.
 */
export const CHUNK_MIN_TEXT = 16 * 1024;
const CHUNK_MAX_CHARS = 64 * 1024;
const BOUNDARY_MASK = 31;

/** 53-bit string hash (cyrb53), seeded; two seeds give the 106-bit content key. */
function cyrb53(text: string, seed: number): number {
    let h1 = 0xdeadbeef ^ seed;
    let h2 = 0x41c6ce57 ^ seed;
    for (let i = 0; i < text.length; i += 1) {
        const code = text.charCodeAt(i);
        h1 = Math.imul(h1 ^ code, 2654435761);
        h2 = Math.imul(h2 ^ code, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/**
 * The key a chunk is stored under: two seeded hashes and the length. Not a cryptographic hash: the store
 * is local and its content comes from this user's own chats (the Web Crypto digest is async and missing on
 * plain HTTP).
 */
export function chunkHash(text: string): string {
    return `${cyrb53(text, 1).toString(36)}.${cyrb53(text, 2).toString(36)}.${text.length.toString(36)}`;
}

/** Cuts `text` into chunks whose concatenation is exactly `text`. */
export function splitIntoChunks(text: string): string[] {
    const chunks: string[] = [];
    let start = 0;
    let lineStart = 0;
    while (lineStart < text.length) {
        const newline = text.indexOf('\n', lineStart);
        const lineEnd = newline === -1 ? text.length : newline + 1;
        const size = lineEnd - start;
        const boundary = (cyrb53(text.slice(lineStart, lineEnd), 7) & BOUNDARY_MASK) === 0;
        if (size >= CHUNK_MAX_CHARS) {
            // One very long line: cut it at the maximum itself.
            let from = start;
            while (lineEnd - from > CHUNK_MAX_CHARS) {
                chunks.push(text.slice(from, from + CHUNK_MAX_CHARS));
                from += CHUNK_MAX_CHARS;
            }
            chunks.push(text.slice(from, lineEnd));
            start = lineEnd;
        } else if (boundary) {
            chunks.push(text.slice(start, lineEnd));
            start = lineEnd;
        }
        lineStart = lineEnd;
    }
    if (start < text.length) chunks.push(text.slice(start));
    return chunks;
}

/** Whether a file is stored as chunks: the frozen inputs, when large. */
export function isChunkedPath(path: string, content: string): boolean {
    return path.startsWith('input/') && content.length >= CHUNK_MIN_TEXT;
}
