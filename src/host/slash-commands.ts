import { agentStatus, setAgentMode } from './agent-mode';
import { activeRun, cancelActiveRun } from './run-controller';
import { stContext } from './st-context';
import { t } from './i18n';

const SUBCOMMANDS = ['on', 'off', 'status', 'stop'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function isSubcommand(value: string): value is Subcommand {
    return (SUBCOMMANDS as readonly string[]).includes(value);
}

/** `/agent on|off|status`. Every answer is a string, so the commands compose in STscript pipes. */
export async function runAgentCommand(argument: string): Promise<string> {
    const word = argument.trim().toLowerCase() || 'status';
    if (!isSubcommand(word)) {
        globalThis.toastr?.warning(t`Unknown /agent command. Use on, off, status or stop.`);
        return '';
    }
    if (word === 'status') return JSON.stringify(agentStatus(activeRun()));
    if (word === 'stop') return String(await cancelActiveRun('Stopped with /agent stop.'));
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
            helpString: t`Tavern Agent: <code>/agent on</code> and <code>/agent off</code> switch Agent Mode for this chat; <code>/agent status</code> returns its state as JSON; <code>/agent stop</code> stops the running agent.`,
            unnamedArgumentList: [
                context.SlashCommandArgument.fromProps({
                    description: 'on, off, status or stop',
                    typeList: [context.ARGUMENT_TYPE.STRING],
                    isRequired: false,
                    defaultValue: 'status',
                    enumList: SUBCOMMANDS.map((name) => new context.SlashCommandEnumValue(name)),
                }),
            ],
        }),
    );
}
