import * as z from 'zod/mini';

// zod compiles fast parsers with `new Function` unless told not to. A user's reverse proxy may add a CSP
// that forbids eval, so both bundles import this module first and parse the slow, safe way.
z.config({ jitless: true });

export function isZodJitless(): boolean {
    return z.config().jitless === true;
}
