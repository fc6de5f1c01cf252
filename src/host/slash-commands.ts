import { agentStatus, setAgentMode } from './agent-mode';
import { stContext } from './st-context';
import { t } from './i18n';

const SUBCOMMANDS = ['on', 'off', 'status'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function isSubcommand(value: string): value is Subcommand {
    return (SUBCOMMANDS as readonly string[]).includes(value);
}

/** `/agent on|off|status`. Every answer is a string, so the commands compose in STscript pipes. */
export async function runAgentCommand(argument: string): Promise<string> {
    const word = argument.trim().toLowerCase() || 'status';
    if (!isSubcommand(word)) {
        globalThis.toastr?.warning(t`Unknown /agent command. Use on, off or status.`);
        return '';
    }
    if (word === 'status') return JSON.stringify(agentStatus());
    const result = await setAgentMode(word === 'on');
    if (!result.ok) {
        globalThis.toastr?.warning(t`Open a chat first: Agent Mode is switched per chat.`);
        return '';
    }
    return JSON.stringify(agentStatus());
}

export function registerSlashCommands(): void {
    const context = stContext();
    context.SlashCommandParser.addCommandObject(
        context.SlashCommand.fromProps({
            name: 'agent',
            callback: (_named, unnamed) => runAgentCommand(String(unnamed ?? '')),
            returns: 'JSON status of Agent Mode in this chat',
            helpString: t`Tavern Agent: <code>/agent on</code> and <code>/agent off</code> switch Agent Mode for this chat; <code>/agent status</code> returns its state as JSON.`,
            unnamedArgumentList: [
                context.SlashCommandArgument.fromProps({
                    description: 'on, off or status',
                    typeList: [context.ARGUMENT_TYPE.STRING],
                    isRequired: false,
                    defaultValue: 'status',
                    enumList: SUBCOMMANDS.map((name) => new context.SlashCommandEnumValue(name)),
                }),
            ],
        }),
    );
}
