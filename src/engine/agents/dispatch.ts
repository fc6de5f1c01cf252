import { RunFailure, toolError } from '../../contract/errors';
import type { ToolCall, WireTool } from '../../contract/model';
import { isToolAllowed, type Profile } from '../../contract/profile';
import { failure, type ToolContext, type ToolDefinition, type ToolOutcome } from '../../tools/tool';
import { WRAP_UP_TOOLS, type Budget } from './budget';
import { toProviderSchema } from './provider-schema';

/**
 * A call checked against policy, budget and schema: ready to execute, or already answered with a refusal.
 * `counts`: it counts against the budget (journaled with its start; the run's projection counts it).
 */
export type PreparedCall =
    | { ready: true; canonical: string; tool: ToolDefinition; args: unknown; counts: true }
    | { ready: false; canonical: string | null; outcome: ToolOutcome; counts: boolean };

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
    if (text.trim() === '') return { ok: true, value: {} };
    try {
        return { ok: true, value: JSON.parse(text) };
    } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
}

/**
 * Turns one model tool call into one tool outcome, in two steps (pi-mono's prepare / execute): `prepare`
 * resolves the name once (canonical or alias), checks the profile and the budget again (the model may call
 * tools it was never shown) and validates the arguments; `execute` runs the tool inside one safety net —
 * a tool that throws becomes an error result, and every result the model reads is capped.
 */
export class Dispatcher {
    private readonly byName = new Map<string, ToolDefinition>();
    private readonly wireToolsCache = new Map<boolean, WireTool[]>();

    constructor(
        private readonly registry: readonly ToolDefinition[],
        private readonly profile: Profile,
        private readonly budget: Budget,
        private readonly options: { wrapUpTools: ReadonlySet<string>; insideTask: boolean } = { wrapUpTools: WRAP_UP_TOOLS, insideTask: false },
    ) {
        for (const tool of registry) {
            this.byName.set(tool.name, tool);
            this.byName.set(tool.alias, tool);
        }
    }

    /** The canonical name for a name or alias the model used, or null for an unknown tool. */
    canonicalName(name: string): string | null {
        return this.byName.get(name)?.name ?? null;
    }

    /** The tools the model is shown: allow minus deny, none capped at 0 calls, only commit and finish during wrap-up. */
    visibleTools(wrapUp: boolean): ToolDefinition[] {
        return this.registry.filter(
            (tool) => isToolAllowed(this.profile, tool.name) && this.budget.toolCap(tool.name) !== 0 && (!wrapUp || this.options.wrapUpTools.has(tool.name)),
        );
    }

    /** The provider tool list; built once per run and phase (zod's JSON Schema conversion is not free). */
    wireTools(wrapUp: boolean): WireTool[] {
        let tools = this.wireToolsCache.get(wrapUp);
        if (!tools) {
            tools = this.visibleTools(wrapUp).map((tool) => ({
                type: 'function',
                function: { name: tool.alias, description: tool.description, parameters: tool.parameters ?? toProviderSchema(tool.args) },
            }));
            this.wireToolsCache.set(wrapUp, tools);
        }
        return tools;
    }

    prepare(call: ToolCall, wrapUp: boolean): PreparedCall {
        const tool = this.byName.get(call.name);
        const refuse = (code: Parameters<typeof toolError>[0], message: string, hint: string, counts = false): PreparedCall => ({
            ready: false,
            canonical: tool?.name ?? null,
            outcome: failure(toolError(code, message, hint)),
            counts,
        });
        // A text-protocol call that could not be read: nothing to run, the model is shown the expected form.
        if (call.invalid) return refuse('tool.invalid_arguments', call.invalid.message, call.invalid.hint);
        if (tool?.name === 'task.return' && !this.options.insideTask) {
            return refuse('agent.return_outside_task', 'task_return only ends a sub-agent task, and this agent is not working on one.', 'Finish your own work with the tools you were given.');
        }
        if (!tool || !isToolAllowed(this.profile, tool.name)) {
            const names = this.visibleTools(wrapUp).map((t) => t.alias).join(', ');
            return refuse('tool.not_allowed', `Tool "${call.name}" is not available to this agent.`, `Available tools: ${names}.`);
        }
        if (wrapUp && !this.options.wrapUpTools.has(tool.name)) {
            const remaining = [...this.options.wrapUpTools].map((name) => name.replace(/\./g, '_')).join(' and ');
            return refuse('tool.budget_exhausted', `The budget is used up; ${tool.alias} can no longer be called.`, `Only ${remaining} remain: use them now.`);
        }
        const refusal = this.budget.refusal(tool.name);
        if (refusal) return refuse('tool.budget_exhausted', `Not called: ${refusal}.`, 'Use the other tools, or commit your reply and finish.');
        // From here the call counts, valid or not: a model repeating bad arguments must run out of budget.
        const parsed = parseArguments(call.argumentsText);
        if (!parsed.ok) {
            return refuse('tool.invalid_arguments', `The arguments of ${tool.alias} are not valid JSON (${parsed.message}).`, 'Send the arguments as one JSON object.', true);
        }
        const valid = tool.args.safeParse(parsed.value);
        if (!valid.success) {
            const problems = valid.error.issues
                .slice(0, 5)
                .map((issue) => `${issue.path.length ? issue.path.join('.') : 'arguments'}: ${issue.message}`)
                .join('; ');
            return refuse('tool.invalid_arguments', `Invalid arguments for ${tool.alias}: ${problems}.`, 'Fix the arguments to match the tool schema and call it again.', true);
        }
        return { ready: true, canonical: tool.name, tool, args: valid.data, counts: true };
    }

    /** Runs a prepared call. Only a RunFailure (the host or storage cannot go on) escapes. */
    async execute(prepared: PreparedCall, context: ToolContext): Promise<ToolOutcome> {
        if (!prepared.ready) return prepared.outcome;
        try {
            return await prepared.tool.execute(prepared.args, context);
        } catch (error) {
            if (error instanceof RunFailure) throw error;
            const why = error instanceof Error ? error.message : String(error);
            return failure(toolError('tool.execution_failed', `${prepared.tool.alias} failed: ${why}`, 'Try again with other arguments, or go on without this tool.'));
        }
    }
}
