import * as z from 'zod';
import { toolError, type RecoverableCode } from '../../contract/errors';
import { SCRIPT_LIMITS, type ScriptFailure } from '../../contract/scripts';
import { aliasOf, defineTool, failure, success, type ToolDefinition } from '../tool';

const args = z.object({
    code: z
        .string()
        .min(1)
        .max(100_000)
        .describe('The body of an async function: it may `await tools.<name>({...})` (a read tool: its result text, or a thrown error with .code), print with console.log, and `return` a JSON value.'),
    args: z.unknown().optional().describe('A value the code reads as `args`.'),
});

const FAILURE_CODES: Record<ScriptFailure, RecoverableCode> = {
    execution: 'script.execution_failed',
    timeout: 'script.execution_failed',
    input_too_large: 'script.execution_failed',
    output_too_large: 'script.execution_failed',
    result_too_large: 'script.result_too_large',
    too_many_calls: 'script.too_many_calls',
};

/**
 * script.run (issue 35): one program that calls the read tools in a loop and returns only its result, where
 * dozens of model rounds would each re-send the whole conversation. Each tool it calls runs for real, with
 * its checks, limits and the agent's visibility, and counts against the run's budget; it cannot write,
 * commit, finish, delegate or reach other extensions' tools.
 */
export const scriptRunTool = defineTool({
    name: 'script.run',
    alias: aliasOf('script.run'),
    description: [
        'Runs a short JavaScript program (the body of an async function) that calls read tools in bulk and returns only its result: e.g. search the chat for 30 names and tally the hits, in one call instead of 30.',
        'Inside, `await tools.chat_search({query: "…"})` returns the tool\'s result text (or throws an Error whose .code is the tool\'s code); the tools are the read tools you have (chat, lore, skills, workspace reads, dice).',
        `It returns the value you \`return\` as JSON, with up to ${SCRIPT_LIMITS.consoleBytes / 1024} KB of console.log output. At most ${SCRIPT_LIMITS.programCalls} tool calls and 30 s; no network, no writes.`,
    ].join(' '),
    args,
    readOnly: true,
    async execute(input, context) {
        const scripts = context.scripts;
        if (!scripts) return failure(toolError('script.execution_failed', 'Programs cannot run in this run.', 'Call the tools one by one instead.'));
        const tools = scripts.programTools;
        const result = await scripts.run({ kind: 'program', code: input.code, args: input.args ?? {}, tools: tools.names, refusedTools: tools.refused, limits: SCRIPT_LIMITS }, (name, toolArgs) => tools.call(name, toolArgs));
        if (!result.ok) {
            const output = result.console ? `\nConsole:\n${result.console}` : '';
            return failure(toolError(FAILURE_CODES[result.failure], `The program failed: ${result.message}${output}`, 'Fix the code and run it again, or call the tools one by one.'));
        }
        return success(`Program result:\n${result.json}${result.console ? `\nConsole:\n${result.console}` : ''}`, { console: result.console });
    },
});

export const SCRIPT_TOOLS: readonly ToolDefinition[] = [scriptRunTool];
