import { STATE_LIMITS } from '../contract/state';
import { stateError, stateOk, type StateOutcome } from './outcome';

/**
 * JSON Pointers (RFC 6901) into a scope's state: `/hp`, `/stat_data/inventory/0`. A missing leading `/` is
 * taken as if it were there, as MVU does. Keys that would reach an object's machinery are refused: state
 * comes from cards and models, and `__proto__` would change what every later lookup sees.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export type Pointer = readonly string[];

export function parsePointer(path: string): StateOutcome<Pointer> {
    if (path === '' || path === '/') return stateOk([]);
    const body = path.startsWith('/') ? path.slice(1) : path;
    const tokens = body.split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (tokens.length > STATE_LIMITS.pathDepth) {
        return stateError('state.invalid_path', `The path ${JSON.stringify(path)} is deeper than ${STATE_LIMITS.pathDepth} levels.`, 'Use a shorter path.');
    }
    const bad = tokens.find((token) => FORBIDDEN_KEYS.has(token));
    if (bad !== undefined) return stateError('state.invalid_path', `The path ${JSON.stringify(path)} names "${bad}", which no state may hold.`, 'Use another key.');
    return stateOk(tokens);
}

export function formatPointer(tokens: Pointer): string {
    return tokens.map((token) => `/${token.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
    return value !== null && typeof value === 'object';
}

/** An array index token: digits only, no leading zero (RFC 6901). */
export function arrayIndex(token: string): number | null {
    return /^(0|[1-9]\d{0,8})$/.test(token) ? Number(token) : null;
}

/** The value at `tokens`, or `{ found: false }` with the first token that is not there. */
export function valueAt(root: unknown, tokens: Pointer): { found: true; value: unknown } | { found: false; missing: Pointer } {
    let node = root;
    for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i]!;
        if (Array.isArray(node)) {
            const index = arrayIndex(token);
            if (index === null || index >= node.length) return { found: false, missing: tokens.slice(0, i + 1) };
            node = node[index];
        } else if (isContainer(node) && Object.hasOwn(node, token)) {
            node = (node as Record<string, unknown>)[token];
        } else {
            return { found: false, missing: tokens.slice(0, i + 1) };
        }
    }
    return { found: true, value: node };
}
