import { Inflate, inflateSync } from 'fflate';

/**
 * A zip's central directory, read by hand: fflate's unzip does not expose the external attributes that
 * mark symlinks, and reading the directory first lets every declared size and ratio be checked before
 * one byte is inflated. Zip64 is not read (a skill is far below 4 GiB).
 */
export interface ZipEntry {
    name: string;
    method: number;
    compressedSize: number;
    size: number;
    /** Offset of the entry's local header. */
    offset: number;
    directory: boolean;
    symlink: boolean;
    encrypted: boolean;
}

export type ZipDirectory = { ok: true; entries: ZipEntry[] } | { ok: false; reason: string };

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const UNIX = 3;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;
const DOS_DIRECTORY = 0x10;
const names = new TextDecoder('utf-8');

function u16(bytes: Uint8Array, at: number): number {
    return bytes[at]! | (bytes[at + 1]! << 8);
}

function u32(bytes: Uint8Array, at: number): number {
    return (bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16) | (bytes[at + 3]! << 24)) >>> 0;
}

export function looksLikeZip(bytes: Uint8Array): boolean {
    return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
}

export function readZipDirectory(bytes: Uint8Array): ZipDirectory {
    let end = -1;
    for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at -= 1) {
        if (u32(bytes, at) === EOCD) {
            end = at;
            break;
        }
    }
    if (end === -1) return { ok: false, reason: 'is not a zip archive (no central directory)' };
    const count = u16(bytes, end + 10);
    const directoryOffset = u32(bytes, end + 16);
    if (count === 0xffff || directoryOffset === 0xffffffff) return { ok: false, reason: 'is a zip64 archive, which is not supported' };
    const entries: ZipEntry[] = [];
    let at = directoryOffset;
    for (let i = 0; i < count; i += 1) {
        if (at + 46 > bytes.length || u32(bytes, at) !== CENTRAL) return { ok: false, reason: 'has a damaged central directory' };
        const madeBy = u16(bytes, at + 4) >> 8;
        const flags = u16(bytes, at + 8);
        const nameLength = u16(bytes, at + 28);
        const attributes = u32(bytes, at + 38);
        const name = names.decode(bytes.subarray(at + 46, at + 46 + nameLength));
        const mode = (attributes >>> 16) & S_IFMT;
        const unix = madeBy === UNIX;
        const compressedSize = u32(bytes, at + 20);
        const size = u32(bytes, at + 24);
        const offset = u32(bytes, at + 42);
        if (compressedSize === 0xffffffff || size === 0xffffffff || offset === 0xffffffff) return { ok: false, reason: 'is a zip64 archive, which is not supported' };
        entries.push({
            name,
            method: u16(bytes, at + 10),
            compressedSize,
            size,
            offset,
            directory: name.endsWith('/') || (unix && mode === S_IFDIR) || (!unix && (attributes & DOS_DIRECTORY) !== 0),
            symlink: unix && mode === S_IFLNK,
            encrypted: (flags & 1) !== 0,
        });
        at += 46 + nameLength + u16(bytes, at + 30) + u16(bytes, at + 32);
    }
    return { ok: true, entries };
}

/**
 * Counts the bytes an archive's entries inflate to, overruns included. A lying entry (declaring a few
 * bytes, holding a bomb) is stopped one chunk past its declared size, and the meter stops an archive of
 * many such entries once the work passes what all of them declared, plus a little.
 */
export class InflateMeter {
    produced = 0;

    constructor(readonly limit: number) {}
}

/** Compressed input fed per step: a lying entry overruns by at most about 1032 × this (deflate's maximum ratio) before it is caught. */
const INPUT_CHUNK = 16 * 1024;

/** The entry's bytes, never more than its declared size; a reason when it cannot be read as declared. */
export function inflateEntry(bytes: Uint8Array, entry: ZipEntry, meter: InflateMeter): { ok: true; bytes: Uint8Array } | { ok: false; reason: string } {
    const at = entry.offset;
    if (at + 30 > bytes.length || u32(bytes, at) !== LOCAL) return { ok: false, reason: 'has a damaged local header' };
    const start = at + 30 + u16(bytes, at + 26) + u16(bytes, at + 28);
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (data.length !== entry.compressedSize) return { ok: false, reason: 'is cut short' };
    if (entry.method === 0) {
        if (entry.compressedSize !== entry.size) return { ok: false, reason: 'does not match its declared size' };
        meter.produced += entry.size;
        return { ok: true, bytes: data.slice() };
    }
    if (entry.method !== 8) return { ok: false, reason: `uses compression method ${entry.method}, which is not supported` };
    if (data.length <= INPUT_CHUNK) return inflateSmall(data, entry, meter);
    const out = new Uint8Array(entry.size);
    let written = 0;
    let overrun = false;
    const inflater = new Inflate((chunk) => {
        meter.produced += chunk.length;
        if (written + chunk.length > entry.size) overrun = true;
        else out.set(chunk, written);
        written += chunk.length;
    });
    try {
        for (let offset = 0; offset < data.length && !overrun; offset += INPUT_CHUNK) {
            inflater.push(data.subarray(offset, offset + INPUT_CHUNK), offset + INPUT_CHUNK >= data.length);
            if (meter.produced > meter.limit) return { ok: false, reason: 'inflates to far more than the archive declares (a zip bomb?)' };
        }
    } catch {
        return { ok: false, reason: 'is damaged (it does not inflate)' };
    }
    if (overrun || written !== entry.size) return { ok: false, reason: 'does not match its declared size' };
    return { ok: true, bytes: out };
}

/** Deflate's largest output for one input byte: what a lying small entry may cost before it is caught. */
const DEFLATE_MAX_RATIO = 1032;

/**
 * One step's worth of input at once, into a buffer one byte longer than declared: filling that byte means
 * the entry holds more than it says. (A streaming inflater per entry is several times slower for the
 * thousand small files a skill may have.)
 */
function inflateSmall(data: Uint8Array, entry: ZipEntry, meter: InflateMeter): { ok: true; bytes: Uint8Array } | { ok: false; reason: string } {
    let out: Uint8Array;
    try {
        out = inflateSync(data, { out: new Uint8Array(entry.size + 1) });
    } catch {
        return { ok: false, reason: 'is damaged (it does not inflate)' };
    }
    if (out.length > entry.size) {
        meter.produced += data.length * DEFLATE_MAX_RATIO;
        if (meter.produced > meter.limit) return { ok: false, reason: 'inflates to far more than the archive declares (a zip bomb?)' };
        return { ok: false, reason: 'does not match its declared size' };
    }
    meter.produced += out.length;
    if (out.length !== entry.size) return { ok: false, reason: 'does not match its declared size' };
    return { ok: true, bytes: out.length === out.buffer.byteLength ? out : out.slice() };
}
