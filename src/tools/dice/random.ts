/** Fills the array with random 32-bit values, like `crypto.getRandomValues`. Injectable for tests. */
export type RandomSource = (array: Uint32Array) => unknown;

const RANGE = 2 ** 32;
/** With a real source a rejection has probability < 1/2, so this many in a row means the source is broken. */
const MAX_ATTEMPTS = 1000;

/**
 * The default source: `crypto.getRandomValues`, called bound (unbound it throws "Illegal invocation" in
 * browsers and workers) and in batches, since one call per die costs microseconds each.
 */
const pool = new Uint32Array(256);
let poolNext = pool.length;
export const cryptoSource: RandomSource = (array) => {
    for (let i = 0; i < array.length; i++) {
        if (poolNext === pool.length) {
            crypto.getRandomValues(pool);
            poolNext = 0;
        }
        array[i] = pool[poolNext++]!;
    }
    return array;
};

/**
 * A uniform integer in [0, maxExclusive), from cryptographic randomness without modulo bias: a 32-bit
 * value is used only below the largest multiple of maxExclusive that fits in 2^32 and drawn again
 * otherwise (rejection sampling). maxExclusive must be an integer from 1 to 2^32.
 */
export function randomInt(maxExclusive: number, source: RandomSource = cryptoSource): number {
    if (!Number.isInteger(maxExclusive) || maxExclusive < 1 || maxExclusive > RANGE) {
        throw new RangeError(`randomInt: maxExclusive must be an integer from 1 to 2^32, got ${maxExclusive}`);
    }
    const limit = RANGE - (RANGE % maxExclusive);
    const buffer = new Uint32Array(1);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        source(buffer);
        const value = buffer[0]!;
        if (value < limit) return value % maxExclusive;
    }
    throw new Error(`randomInt: ${MAX_ATTEMPTS} draws in a row fell in the rejection zone; the random source is broken`);
}
