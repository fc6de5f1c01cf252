/**
 * Another extension's JSON schema, made safe to check arguments against (issue 39 §2). The schema comes from
 * code we did not write, and the arguments from a model:
 * - a `pattern` is a regular expression the engine would run on the model's text. One that can backtrack
 *   without bound (a quantified group holding a quantifier or an alternation, a back-reference) is never run:
 *   a call that would need it is refused with `tool.invalid_arguments`. A safe one runs on at most
 *   PATTERN_MAX_INPUT characters.
 * - a local `$ref` (`#/definitions/…`, `#/$defs/…`) is resolved; any other, or one that loops, makes every
 *   call of the tool refused with the reason: never silently ignored.
 */
export const PATTERN_MAX_INPUT = 2_000;
const MAX_NODES = 2_000;
const MAX_REF_DEPTH = 16;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/**
 * Whether a pattern may backtrack without bound: a group with a quantifier or an alternation inside, itself
 * quantified (`(a+)+`, `(a|aa)*`, `(.*x)*`), or a back-reference. One linear pass over the pattern's text.
 */
export function mayBacktrack(pattern: string): boolean {
    const groups: Array<{ risky: boolean }> = [];
    let lastClosed: { risky: boolean } | null = null;
    let inClass = false;
    for (let i = 0; i < pattern.length; i++) {
        const ch = pattern[i]!;
        if (ch === '\\') {
            if (/[1-9k]/.test(pattern[i + 1] ?? '')) return true;
            i += 1;
            lastClosed = null;
            continue;
        }
        if (inClass) {
            if (ch === ']') inClass = false;
            continue;
        }
        const quantifier = ch === '+' || ch === '*' || ch === '{' || ch === '?';
        if (quantifier && lastClosed?.risky && ch !== '?') return true;
        if (ch === '[') inClass = true;
        else if (ch === '(') groups.push({ risky: false });
        else if (ch === ')') {
            lastClosed = groups.pop() ?? { risky: false };
            if (groups.length && lastClosed.risky) groups[groups.length - 1]!.risky = true;
            continue;
        } else if ((ch === '+' || ch === '*' || ch === '{' || ch === '|') && groups.length) groups[groups.length - 1]!.risky = true;
        lastClosed = null;
    }
    return false;
}

/** A pattern the guard checks itself: where it applies (property names and `[]` for array items). */
export interface GuardedPattern {
    path: string[];
    source: string;
    /** Null when it is never run: it may backtrack (`unsafe`), or it is not a valid regular expression. */
    regex: RegExp | null;
    unsafe: boolean;
}

export interface GuardedSchema {
    /** The schema for the validator: refs inlined, patterns taken out (the guard checks them). */
    schema: Json;
    patterns: GuardedPattern[];
    /** Why no call of this tool can be checked (an unresolvable or looping `$ref`, a pattern not reachable by path). */
    problem: string | null;
}

export function guardSchema(root: Json): GuardedSchema {
    const patterns: GuardedPattern[] = [];
    let problem: string | null = null;
    let nodes = 0;
    const resolve = (ref: string): unknown => {
        if (!ref.startsWith('#/')) return undefined;
        let node: unknown = root;
        for (const token of ref.slice(2).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))) {
            if (!isObject(node) || !Object.hasOwn(node, token)) return undefined;
            node = node[token];
        }
        return node;
    };
    /** `path` is where values of this node sit in the arguments, or null inside anyOf/oneOf/allOf/not/… */
    const walk = (node: unknown, path: string[] | null, depth: number): unknown => {
        if (problem) return node;
        if (++nodes > MAX_NODES) {
            problem = `its schema is larger than ${MAX_NODES} nodes`;
            return node;
        }
        if (Array.isArray(node)) return node.map((item) => walk(item, null, depth));
        if (!isObject(node)) return node;
        if (typeof node.$ref === 'string') {
            const target = resolve(node.$ref);
            if (target === undefined) problem = `its schema names $ref ${JSON.stringify(node.$ref.slice(0, 100))}, which cannot be resolved`;
            else if (depth >= MAX_REF_DEPTH) problem = `its schema's $ref ${JSON.stringify(node.$ref.slice(0, 100))} refers to itself`;
            if (problem) return node;
            const { $ref: _ref, ...rest } = node;
            return walk({ ...(target as Json), ...rest }, path, depth + 1);
        }
        const out: Json = {};
        for (const [key, value] of Object.entries(node)) {
            if (key === 'pattern' && typeof value === 'string') {
                if (path === null) {
                    if (mayBacktrack(value)) problem = `its schema has a pattern (${JSON.stringify(value.slice(0, 80))}) that could take unbounded time, where it cannot be checked apart`;
                    else out[key] = value;
                    continue;
                }
                const unsafe = mayBacktrack(value);
                let regex: RegExp | null = null;
                if (!unsafe) {
                    try {
                        regex = new RegExp(value);
                    } catch {
                        regex = null;
                    }
                }
                patterns.push({ path, source: value, regex, unsafe });
                continue;
            }
            if (key === 'properties' && isObject(value)) {
                out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, walk(child, path ? [...path, name] : null, depth)]));
            } else if (key === 'items' && isObject(value)) {
                out[key] = walk(value, path ? [...path, '[]'] : null, depth);
            } else if (key === 'definitions' || key === '$defs') {
                continue; // inlined where referenced
            } else {
                out[key] = walk(value, null, depth);
            }
        }
        return out;
    };
    const schema = walk(root, [], 0) as Json;
    return { schema, patterns, problem };
}

/** Each value a path reaches in the arguments (`[]`: every item of an array). */
function valuesAt(value: unknown, path: readonly string[]): unknown[] {
    if (path.length === 0) return [value];
    const [head, ...rest] = path;
    if (head === '[]') return Array.isArray(value) ? value.flatMap((item) => valuesAt(item, rest)) : [];
    return isObject(value) && Object.hasOwn(value, head!) ? valuesAt(value[head!], rest) : [];
}

/** Why these arguments fail the schema's patterns, or null when they pass. */
export function patternProblem(args: unknown, patterns: readonly GuardedPattern[]): string | null {
    for (const pattern of patterns) {
        const where = pattern.path.join('.').replace(/\.\[\]/g, '[]') || 'the arguments';
        for (const value of valuesAt(args, pattern.path)) {
            if (typeof value !== 'string') continue;
            if (pattern.unsafe) return `${where} must match the pattern ${JSON.stringify(pattern.source.slice(0, 80))}, which could take unbounded time to check, so the call was not sent`;
            if (!pattern.regex) return `${where} must match the pattern ${JSON.stringify(pattern.source.slice(0, 80))}, which is not a valid regular expression, so the call was not sent`;
            if (value.length > PATTERN_MAX_INPUT) return `${where} is ${value.length} characters, over the ${PATTERN_MAX_INPUT} a pattern is checked on`;
            if (!pattern.regex.test(value)) return `${where} must match the pattern ${JSON.stringify(pattern.source.slice(0, 80))}`;
        }
    }
    return null;
}
