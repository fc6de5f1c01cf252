import { toolError } from '../contract/errors';
import type { ToolCall, WireTool } from '../contract/model';
import { isToolAllowed, type Profile } from '../contract/profile';
import { failure, type ToolContext, type ToolDefinition, type ToolOutcome } from '../tools/tool';
import { WRAP_UP_TOOLS, type Budget } from './budget';
import { toProviderSchema } from './provider-schema';

export interface Dispatched {
    /** The canonical name, or null when the model named no known tool. */
    canonical: string | null;
    args: unknown;
    outcome: ToolOutcome;
}

function parseArguments(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
    if (text.trim() === '') return { ok: true, value: {} };
    try {
        return { ok: true, value: JSON.parse(text) };
    } catch (error) {
        return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
}

/**
 * Turns one model tool call into one tool outcome: resolve the name (canonical or alias), check the profile
 * and the budget again (the model may call tools it was never shown), parse and validate the arguments,
 * then execute. Everything the model can fix comes back as a recoverable error.
 */
export class Dispatcher {
    private readonly byName = new Map<string, ToolDefinition>();
    private readonly wireToolsCache = new Map<boolean, WireTool[]>();

    constructor(
        private readonly registry: readonly ToolDefinition[],
        private readonly profile: Profile,
        private readonly budget: Budget,
    ) {
        for (const tool of registry) {
            this.byName.set(tool.name, tool);
            this.byName.set(tool.alias, tool);
        }
    }

    /** The canonical name for a name or alias the model used, or null for an unknown tool. */
    resolveName(name: string): string | null {
        return this.byName.get(name)?.name ?? null;
    }

    /** The tools the model is shown: allow minus deny, or only commit and finish during wrap-up. */
    visibleTools(wrapUp: boolean): ToolDefinition[] {
        return this.registry.filter((tool) => isToolAllowed(this.profile, tool.name) && (!wrapUp || WRAP_UP_TOOLS.has(tool.name)));
    }

    /** The provider tool list; built once per run and phase (zod's JSON Schema conversion is not free). */
    wireTools(wrapUp: boolean): WireTool[] {
        let tools = this.wireToolsCache.get(wrapUp);
        if (!tools) {
            tools = this.visibleTools(wrapUp).map((tool) => ({
                type: 'function',
                function: { name: tool.alias, description: tool.description, parameters: toProviderSchema(tool.args) },
            }));
            this.wireToolsCache.set(wrapUp, tools);
        }
        return tools;
    }

    async dispatch(call: ToolCall, context: ToolContext, wrapUp: boolean): Promise<Dispatched> {
        const tool = this.byName.get(call.name);
        const parsed = parseArguments(call.argumentsText);
        const args = parsed.ok ? parsed.value : call.argumentsText;
        const refuse = (outcome: ToolOutcome): Dispatched => ({ canonical: tool?.name ?? null, args, outcome });

        if (!tool || !isToolAllowed(this.profile, tool.name)) {
            const names = this.visibleTools(wrapUp).map((t) => t.alias).join(', ');
            return refuse(failure(toolError('tool.not_allowed', `Tool "${call.name}" is not available to this agent.`, `Available tools: ${names}.`)));
        }
        if (wrapUp && !WRAP_UP_TOOLS.has(tool.name)) {
            return refuse(failure(toolError('tool.budget_exhausted', `The run's budget is used up; ${tool.alias} can no longer be called.`, 'Only workspace_commit and workspace_finish remain: commit your reply and finish.')));
        }
        const refusal = this.budget.refusal(tool.name);
        if (refusal) {
            return refuse(failure(toolError('tool.budget_exhausted', `Not called: ${refusal}.`, 'Use the other tools, or commit your reply and finish.')));
        }
        if (!parsed.ok) {
            return refuse(failure(toolError('tool.invalid_arguments', `The arguments of ${tool.alias} are not valid JSON (${parsed.message}).`, 'Send the arguments as one JSON object.')));
        }
        const valid = tool.args.safeParse(parsed.value);
        if (!valid.success) {
            const problems = valid.error.issues
                .slice(0, 5)
                .map((issue) => `${issue.path.length ? issue.path.join('.') : 'arguments'}: ${issue.message}`)
                .join('; ');
            return refuse(failure(toolError('tool.invalid_arguments', `Invalid arguments for ${tool.alias}: ${problems}.`, 'Fix the arguments to match the tool schema and call it again.')));
        }
        this.budget.countCall(tool.name);
        return { canonical: tool.name, args: valid.data, outcome: await tool.execute(valid.data, context) };
    }
}

/** What the model reads as a tool result. Errors lead with their code so the model can act on them. */
export function toolResultText(outcome: ToolOutcome): string {
    if (outcome.ok) return outcome.result.content;
    return `ERROR ${outcome.error.code}: ${outcome.error.message}\nHint: ${outcome.error.hint}`;
}
