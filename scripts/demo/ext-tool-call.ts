// Which other extension's tool the demo calls, and with what: the demo's own GladeLanterns when offered,
// else the first `ext_` tool, with arguments made from its JSON schema so any registered tool can be tried.
import type { MockToolCall } from '../../tests/harness/mock-model';
import type { DemoRequest } from './read-request';

/** The tool the demo extension registers (scripts/demo-extension/index.js), as the agent is offered it. */
export const DEMO_EXT_TOOL = 'ext_GladeLanterns';

function record(value: unknown): Record<string, unknown> {
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** A plausible value for one property of a JSON schema. */
function sampleValue(schema: Record<string, unknown>): unknown {
    if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
    switch (schema.type) {
        case 'number':
        case 'integer':
            return typeof schema.minimum === 'number' ? schema.minimum : 1;
        case 'boolean':
            return true;
        case 'array':
            return [];
        case 'object':
            return {};
        default:
            return 'silver';
    }
}

/** Arguments for a tool: every required property (all of them when none is marked), from its schema. */
export function sampleArguments(parameters: unknown): Record<string, unknown> {
    const schema = record(parameters);
    const properties = record(schema.properties);
    const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : Object.keys(properties);
    return Object.fromEntries(required.slice(0, 20).map((name) => [name, sampleValue(record(properties[name]))]));
}

export function extToolCall(request: DemoRequest): MockToolCall | null {
    const name = request.tools.has(DEMO_EXT_TOOL) ? DEMO_EXT_TOOL : [...request.tools].find((tool) => tool.startsWith('ext_'));
    if (!name) return null;
    const args = name === DEMO_EXT_TOOL ? { color: 'silver' } : sampleArguments(request.schemas.get(name));
    return { name, arguments: args };
}
