/** Bytes ↔ text for skill files: what counts as text, and base64 that works the same in workers and node. */
import { sha256HexOf } from '../contract/sha256';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/**
 * The file as text when it is valid UTF-8 without NUL bytes, else null (kept as base64). The BOM is kept,
 * so encoding the text again gives back the very same bytes and the content hash survives a round trip.
 */
export function textOf(bytes: Uint8Array): string | null {
    if (bytes.includes(0)) return null;
    try {
        return strictUtf8.decode(bytes);
    } catch {
        return null;
    }
}

export function utf8Bytes(text: string): Uint8Array {
    return encoder.encode(text);
}

const CHUNK = 0x8000;

export function toBase64(bytes: Uint8Array): string {
    let binary = '';
    for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
    return btoa(binary);
}

/** null when the text is not base64 (whitespace, as in wrapped card payloads, is allowed). */
export function fromBase64(text: string): Uint8Array | null {
    const compact = text.replace(/\s+/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return null;
    try {
        const binary = atob(compact);
        const bytes = new Uint8Array(binary.length);
        for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
        return bytes;
    } catch {
        return null;
    }
}

/** The bytes of a stored skill file (text is UTF-8, binary is base64). */
export function fileBytes(file: { encoding: 'utf8' | 'base64'; content: string }): Uint8Array {
    return file.encoding === 'utf8' ? utf8Bytes(file.content) : (fromBase64(file.content) ?? new Uint8Array(0));
}

/** Works on plain HTTP too (contract/sha256.ts falls back to plain JS where Web Crypto is missing). */
export function sha256Hex(bytes: Uint8Array): Promise<string> {
    return sha256HexOf(bytes);
}
