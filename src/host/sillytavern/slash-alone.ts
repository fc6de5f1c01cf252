import { importStModule } from './st-module';

/**
 * Whether a slash command was typed alone in the chat box (or run alone from a Quick Reply button), rather
 * than in a pipe, a closure, or a script another extension runs. SillyTavern hands each callback its
 * closure's scope (`_scope`) and abort controller (`_abortController`); what the chat box runs gets the
 * controller SillyTavern exports as `commandsFromChatInputAbortController`; and every script is parsed by
 * one module-level parser whose `commandIndex` lists its commands. A root scope, the chat box's controller
 * and a script of exactly one command: nobody reads the pipe, so the answer should be seen.
 * The module is imported from the page at run time (never bundled), as st-internals.ts does.
 */

interface SlashCommandsModule {
    parser?: { commandIndex?: ReadonlyArray<{ name?: string }> };
    commandsFromChatInputAbortController?: unknown;
}

const SLASH_COMMANDS_MODULE = '/scripts/slash-commands.js';

export async function runsAlone(named: unknown, commandName: string): Promise<boolean> {
    const args = named as { _scope?: { parent?: unknown }; _abortController?: unknown } | null;
    const scope = args?._scope;
    // Without a scope (called directly from code) the answer is the value.
    if (!scope || (scope.parent !== null && scope.parent !== undefined)) return false;
    try {
        const module = await importStModule<SlashCommandsModule>(SLASH_COMMANDS_MODULE);
        if (!args._abortController || args._abortController !== module.commandsFromChatInputAbortController) return false;
        const commands = module.parser?.commandIndex;
        return Array.isArray(commands) && commands.length === 1 && commands[0]?.name === commandName;
    } catch {
        return false;
    }
}
