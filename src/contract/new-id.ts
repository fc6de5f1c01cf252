/**
 * A random id (UUID v4 form). `crypto.randomUUID` exists only in secure contexts, and SillyTavern is often
 * reached over plain HTTP on a LAN: there we build the same shape from `getRandomValues` (available
 * everywhere), and only a context without Web Crypto at all falls back to Math.random.
 */
export function newId(): string {
    const scope = globalThis.crypto as Crypto | undefined;
    if (scope && typeof scope.randomUUID === 'function' && globalThis.isSecureContext !== false) {
        try {
            return scope.randomUUID();
        } catch {
            // Some browsers expose the function but throw outside a secure context: fall through.
        }
    }
    const bytes = new Uint8Array(16);
    if (scope && typeof scope.getRandomValues === 'function') scope.getRandomValues(bytes);
    else for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(Math.random() * 256);
    bytes[6] = (bytes[6]! & 0x0f) | 0x40;
    bytes[8] = (bytes[8]! & 0x3f) | 0x80;
    const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
