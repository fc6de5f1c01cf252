import * as z from 'zod';

/** JSON Schema keywords every provider SillyTavern forwards to accepts (Gemini is the strictest). */
const KEPT_KEYWORDS = new Set([
    'type', 'description', 'properties', 'required', 'items', 'enum',
    'minimum', 'maximum', 'minItems', 'maxItems', 'minLength', 'maxLength',
]);

function clean(node: unknown): unknown {
    if (Array.isArray(node)) return node.map(clean);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
        if (!KEPT_KEYWORDS.has(key)) continue;
        if (key === 'properties' && value && typeof value === 'object') {
            out.properties = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, clean(schema)]));
        } else {
            out[key] = clean(value);
        }
    }
    // zod writes integer bounds as ±MAX_SAFE_INTEGER when none were set; they only add noise.
    if (out.minimum === Number.MIN_SAFE_INTEGER) delete out.minimum;
    if (out.maximum === Number.MAX_SAFE_INTEGER) delete out.maximum;
    return out;
}

/** The parameters schema sent to providers, derived from the zod schema the dispatcher validates with. */
export function toProviderSchema(schema: z.ZodType): Record<string, unknown> {
    const json = clean(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })) as Record<string, unknown>;
    if (json.type !== 'object') throw new Error('Tool arguments must be an object schema.');
    json.properties ??= {};
    return json;
}
