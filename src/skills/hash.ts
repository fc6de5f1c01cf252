import { sha256HexOf } from '../contract/sha256';
import type { SkillFile } from '../contract/skills';
import { fileBytes, utf8Bytes } from './bytes';

/** One file of a skill as raw bytes, path relative to the skill folder. */
export interface RawFile {
    path: string;
    bytes: Uint8Array;
}

const HEADER = utf8Bytes('tavern-agent-skill/1\n');

/** Code-unit order, the same in every engine: the order files are hashed and stored in. */
export function byPath(a: { path: string }, b: { path: string }): number {
    return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * SHA-256 over the sorted (path, bytes) pairs, each length-prefixed so no two different file sets can
 * serialize alike. Only paths and raw bytes count: the same files imported from a zip, a folder, a card
 * payload or our own export give the same hash.
 */
export async function skillHash(files: readonly RawFile[]): Promise<string> {
    const sorted = [...files].sort(byPath);
    const parts: Uint8Array[] = [HEADER];
    let size = HEADER.length;
    for (const file of sorted) {
        const path = utf8Bytes(file.path);
        const head = new Uint8Array(12);
        const view = new DataView(head.buffer);
        view.setUint32(0, path.length);
        // Lengths up to 2^53: high and low words of a 64-bit length.
        view.setUint32(4, Math.floor(file.bytes.length / 2 ** 32));
        view.setUint32(8, file.bytes.length >>> 0);
        parts.push(head, path, file.bytes);
        size += head.length + path.length + file.bytes.length;
    }
    const all = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
        all.set(part, at);
        at += part.length;
    }
    return sha256HexOf(all);
}

/** The hash a stored bundle should carry, recomputed from its files. */
export function bundleHash(files: readonly SkillFile[]): Promise<string> {
    return skillHash(files.map((file) => ({ path: file.path, bytes: fileBytes(file) })));
}
