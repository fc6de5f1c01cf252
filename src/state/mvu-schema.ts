import { formatPointer, isContainer } from './json-pointer';
import { stateError, stateOk, type StateOutcome } from './outcome';

/**
 * MVU's structure rules, from the `schema` it stores beside `stat_data` (its SchemaNode: objects with
 * `properties`, `extensible`, `recursiveExtensible`; arrays with `elementType`, `extensible`; primitives
 * `string`, `number`, `boolean`, `any`). A change MVU's check would refuse is refused here first: a new key in
 * an object that is not extensible, a required key removed, a list that may not grow or shrink changed in
 * length, a value of the wrong type. A schema of another shape checks nothing (MVU is the judge then).
 */
interface Node {
    type?: unknown;
    properties?: unknown;
    elementType?: unknown;
    extensible?: unknown;
    recursiveExtensible?: unknown;
    required?: unknown;
}

const asNode = (value: unknown): Node | null => (isContainer(value) && !Array.isArray(value) ? (value as Node) : null);

export function checkMvuSchema(schema: unknown, before: unknown, after: unknown): StateOutcome<null> {
    const problem = check(asNode(schema), before, after, [], false);
    return problem ? stateError('state.schema_rejected', `MVU's schema refuses this change: ${problem}.`, 'Keep to the structure state_scopes outlines: existing keys, the same types, lists that may grow only where it says so.') : stateOk(null);
}

function typeOf(value: unknown): string {
    if (Array.isArray(value)) return 'array';
    if (value === null) return 'null';
    return typeof value;
}

function check(node: Node | null, before: unknown, after: unknown, path: string[], open: boolean): string | null {
    if (!node || typeof node.type !== 'string' || node.type === 'any') return null;
    const where = formatPointer(path) || 'the root';
    if (node.type === 'object') {
        if (!isContainer(after) || Array.isArray(after)) return `${where} must stay an object`;
        const properties = asNode(node.properties) ? (node.properties as Record<string, unknown>) : {};
        const grows = open || node.extensible === true || node.recursiveExtensible === true;
        const old = isContainer(before) && !Array.isArray(before) ? (before as Record<string, unknown>) : {};
        for (const key of Object.keys(after)) {
            if (!Object.hasOwn(properties, key) && !Object.hasOwn(old, key) && !grows) return `${formatPointer([...path, key])} is not in the schema, and ${where} may not get new keys`;
        }
        for (const [key, child] of Object.entries(properties)) {
            const childNode = asNode(child);
            if (!Object.hasOwn(after, key)) {
                if (childNode?.required === true && Object.hasOwn(old, key)) return `${formatPointer([...path, key])} is required`;
                continue;
            }
            const problem = check(childNode, old[key], (after as Record<string, unknown>)[key], [...path, key], open || node.recursiveExtensible === true);
            if (problem) return problem;
        }
        return null;
    }
    if (node.type === 'array') {
        if (!Array.isArray(after)) return `${where} must stay a list`;
        const grows = open || node.extensible === true || node.recursiveExtensible === true;
        if (!grows && Array.isArray(before) && before.length !== after.length) return `${where} is a list of fixed length ${before.length}`;
        const element = asNode(node.elementType);
        for (let i = 0; i < after.length; i++) {
            const problem = check(element, Array.isArray(before) ? before[i] : undefined, after[i], [...path, String(i)], open || node.recursiveExtensible === true);
            if (problem) return problem;
        }
        return null;
    }
    if (['string', 'number', 'boolean'].includes(node.type) && typeOf(after) !== node.type) return `${where} is a ${node.type}, not ${typeOf(after) === 'object' ? 'an object' : `a ${typeOf(after)}`}`;
    return null;
}

/**
 * The schema as an outline for the model (no rule prompt needed, MVU #16): one line per path with its type,
 * where it may grow, and its description when the card gave one. Cut at `maxChars`.
 */
export function schemaOutline(schema: unknown, descriptions: Readonly<Record<string, string>>, maxChars: number, prefix: readonly string[] = ['stat_data']): string {
    const lines: string[] = [];
    let size = 0;
    let cut = false;
    const add = (line: string) => {
        if (cut) return;
        if (size + line.length + 1 > maxChars) {
            cut = true;
            return;
        }
        lines.push(line);
        size += line.length + 1;
    };
    const walk = (node: Node | null, path: string[]) => {
        if (!node || typeof node.type !== 'string' || cut) return;
        const pointer = formatPointer(path);
        const rel = formatPointer(path.slice(prefix.length));
        const grows = node.extensible === true || node.recursiveExtensible === true ? ', may grow' : '';
        const described = descriptions[rel] ? ` — ${descriptions[rel]}` : '';
        add(`${pointer || '/'}: ${node.type}${grows}${node.required === true ? ', required' : ''}${described}`);
        if (node.type === 'object' && asNode(node.properties)) for (const [key, child] of Object.entries(node.properties as Record<string, unknown>)) walk(asNode(child), [...path, key]);
        if (node.type === 'array') walk(asNode(node.elementType), [...path, '0']);
    };
    walk(asNode(schema), [...prefix]);
    if (cut) lines.push('… (outline cut; read parts with state_get)');
    return lines.join('\n');
}

/** A schema of the values' own shape, for an outline where the card stored none. */
export function inferSchema(value: unknown): Node {
    if (Array.isArray(value)) return { type: 'array', elementType: value.length ? inferSchema(value[0]) : { type: 'any' } };
    if (isContainer(value)) return { type: 'object', properties: Object.fromEntries(Object.entries(value).map(([key, child]) => [key, inferSchema(child)])) };
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return { type: typeof value };
    return { type: 'any' };
}
