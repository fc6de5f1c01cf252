import * as z from 'zod';
import { toolError } from '../../contract/errors';
import { EXT_TOOL_PREFIX, type ExtToolCallReply, type ExtToolSpec } from '../../contract/ext-tools';
import { defineTool, failure, success, type ToolDefinition } from '../tool';
import { guardSchema, patternProblem } from './schema-guard';

/**
 * Asks the page to run one call (the tool lives there); resolves with its answer as data. `ask`: the user
 * approves the call first (the calling agent's profile says, extTools.askBeforeCall).
 */
export type ExtToolCaller = (name: string, args: unknown, signal: AbortSignal, ask: boolean) => Promise<ExtToolCallReply>;

/**
 * The JSON schema as a zod validator; a schema zod cannot read still gets an object check, never a crash.
 * Its `$ref`s are resolved and its patterns checked by the guard, bounded (schema-guard.ts).
 */
function argumentSchema(parameters: Record<string, unknown>): z.ZodType {
    const guarded = guardSchema(parameters);
    let base: z.ZodType;
    try {
        base = z.fromJSONSchema(guarded.schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
        base = z.record(z.string(), z.unknown());
    }
    return base.superRefine((value, ctx) => {
        const problem = guarded.problem ? `This tool cannot be called: ${guarded.problem}.` : patternProblem(value, guarded.patterns);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
    });
}

/** The schema the provider sees: the registered one, with an object type and properties guaranteed. */
function wireParameters(parameters: Record<string, unknown>): Record<string, unknown> {
    const copy = structuredClone(parameters);
    if (copy.type !== 'object') copy.type = 'object';
    copy.properties ??= {};
    return copy;
}

/**
 * Tools other extensions registered with SillyTavern's ToolManager, as `ext.<name>`. They run on the page:
 * the result text comes back as the tool result (never a chat message); a refusal, an error or a time-out
 * is a recoverable tool error.
 */
export function extToolDefinitions(specs: readonly ExtToolSpec[], call: ExtToolCaller): ToolDefinition[] {
    return specs.map((spec) =>
        defineTool({
            name: `${EXT_TOOL_PREFIX}${spec.name}`,
            alias: `ext_${spec.name}`,
            description: spec.description || spec.displayName || spec.name,
            args: argumentSchema(spec.parameters),
            parameters: wireParameters(spec.parameters),
            readOnly: false,
            async execute(args, context) {
                const reply = await call(spec.name, args, context.signal, context.input.profile.extTools?.askBeforeCall ?? true);
                if (reply.ok) return success(reply.text, { tool: spec.name });
                const hints: Record<typeof reply.code, string> = {
                    'tool.denied_by_user': 'The user refused this call. Do not call it again with the same arguments; go on without it.',
                    'tool.timeout': 'The tool took too long. Try again later, or go on without it.',
                    'tool.execution_failed': 'Check the arguments, or go on without this tool.',
                    'tool.not_allowed': 'The tool is no longer registered; go on without it.',
                };
                return failure(toolError(reply.code, reply.message, hints[reply.code]));
            },
        }),
    );
}
