import { formatPointer, isContainer } from './json-pointer';

/**
 * MVU's stored values (design note §3.1): a classic card keeps leaves as `[value, "description"]` pairs and
 * structure rules under `$meta`. The state tools show and change the values alone; writing back puts each
 * new value into the pair it came from and keeps the `$` keys, so MVU reads its own format again.
 */

export function isValueWithDescription(value: unknown): value is [unknown, string] {
    return Array.isArray(value) && value.length === 2 && typeof value[1] === 'string';
}

const isMetaKey = (key: string) => key.startsWith('$');

/** The values alone: pairs unwrapped, `$meta` and other `$` keys left out. */
export function unwrapValues(raw: unknown): unknown {
    if (isValueWithDescription(raw)) return unwrapValues(raw[0]);
    if (Array.isArray(raw)) return raw.map(unwrapValues);
    if (isContainer(raw)) {
        const out: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(raw)) if (!isMetaKey(key)) out[key] = unwrapValues(value);
        return out;
    }
    return raw;
}

/**
 * `values` in the stored shape of `raw`: where `raw` held a pair at a path still there, the new value goes
 * into it; `$` keys of `raw`'s objects are kept. New paths are stored as plain values.
 */
export function rewrapValues(raw: unknown, values: unknown): unknown {
    if (isValueWithDescription(raw)) return [rewrapValues(raw[0], values), raw[1]];
    if (Array.isArray(values)) return values.map((value, index) => rewrapValues(Array.isArray(raw) ? raw[index] : undefined, value));
    if (isContainer(values)) {
        const source = isContainer(raw) && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
        const out: Record<string, unknown> = {};
        for (const [key, value] of Object.entries(source)) if (isMetaKey(key)) out[key] = value;
        for (const [key, value] of Object.entries(values)) out[key] = rewrapValues(source[key], value);
        return out;
    }
    return values;
}

/** The descriptions of a classic card's pairs, by JSON Pointer under `prefix`; at most `limit` of them. */
export function pairDescriptions(raw: unknown, prefix: readonly string[] = [], limit = 500): Record<string, string> {
    const found: Record<string, string> = {};
    let count = 0;
    const walk = (node: unknown, path: string[]) => {
        if (count >= limit) return;
        if (isValueWithDescription(node)) {
            if (node[1].trim()) {
                found[formatPointer(path)] = node[1].slice(0, 300);
                count++;
            }
            walk(node[0], path);
        } else if (Array.isArray(node)) node.forEach((item, index) => walk(item, [...path, String(index)]));
        else if (isContainer(node)) for (const [key, value] of Object.entries(node)) if (!isMetaKey(key)) walk(value, [...path, key]);
    };
    walk(raw, [...prefix]);
    return found;
}
