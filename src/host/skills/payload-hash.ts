import { sha256HexOf } from '../../contract/sha256';
/** JSON with object keys sorted, so a payload read back from a card or preset hashes the same. */
export function canonicalJson(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
    if (value && typeof value === 'object') {
        const entries = Object.entries(value as Record<string, unknown>)
            .filter(([, v]) => v !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
        return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
}

/**
 * The identity of an embedded payload: "Not now" is remembered per payload hash, so an updated card asks
 * again. WebCrypto digests natively and asynchronously; the text is the card's own JSON, small beside a zip.
 */
export async function payloadHash(payload: unknown): Promise<string> {
    return sha256HexOf(new TextEncoder().encode(canonicalJson(payload)));
}
