/**
 * Whether a slash command runs on its own (typed alone in the chat input, or the whole of a script) rather
 * than inside a pipe or a closure. SillyTavern hands each callback its closure's scope (`_scope`), and parses
 * every script with one module-level parser whose `commandIndex` lists the script's commands: a root scope
 * (no parent) and a script of exactly one command means nobody reads the pipe, so the answer should be seen.
 * The parser is imported from the page at run time (never bundled), as st-internals.ts does.
 */

interface ParserModule {
    parser?: { commandIndex?: ReadonlyArray<{ name?: string }> };
}

const SLASH_COMMANDS_MODULE = '/scripts/slash-commands.js';

export async function runsAlone(named: unknown, commandName: string): Promise<boolean> {
    const scope = (named as { _scope?: { parent?: unknown } } | null)?._scope;
    // Without a scope (called directly from code, e.g. executeSlashCommands in a test) the answer is the value.
    if (!scope || (scope.parent !== null && scope.parent !== undefined)) return false;
    try {
        const module = (await import(/* webpackIgnore: true */ SLASH_COMMANDS_MODULE)) as ParserModule;
        const commands = module.parser?.commandIndex;
        return Array.isArray(commands) && commands.length === 1 && commands[0]?.name === commandName;
    } catch {
        return false;
    }
}
