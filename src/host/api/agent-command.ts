import { t } from '../../i18n/t';
import { stContext } from '../sillytavern/st-context';

/** `/agent`'s subcommands: the command is registered at startup, its work (agent-subcommands.ts) loads on first use. */
export const SUBCOMMANDS = ['on', 'off', 'status', 'stop', 'profile', 'pipeline', 'skills', 'guide', 'resume', 'continue', 'run', 'fix', 'memory'] as const;
export type Subcommand = (typeof SUBCOMMANDS)[number];

/** What the command does with its named arguments and its text; every answer is a string, as STscript pipes want. */
export type AgentCommandHandler = (named: unknown, argument: string) => Promise<string>;

/** Registers `/agent` with SillyTavern's parser, so it autocompletes and shows in /help from the page's start. */
export function registerAgentCommand(handle: AgentCommandHandler): void {
    const context = stContext();
    context.SlashCommandParser.addCommandObject(
        context.SlashCommand.fromProps({
            name: 'agent',
            callback: (named, unnamed) => handle(named, String(unnamed ?? '')),
            returns: t`JSON status of Agent Mode in this chat`,
            helpString: t`Tavern Agent: <code>/agent on</code> and <code>/agent off</code> switch Agent Mode for this chat; <code>/agent status</code> returns its state as JSON; <code>/agent stop</code> stops the running agent; <code>/agent profile &lt;id&gt;</code> picks the agent profile for this chat; <code>/agent pipeline</code> returns who works before, on and after each reply (<code>before=&lt;id|none&gt; reply=&lt;agent|sillytavern&gt; after=&lt;id,id…|none&gt;</code> sets it); <code>/agent skills</code> lists the skills a run in this chat would see. <code>/agent guide &lt;text&gt;</code> steers the running agent at its next turn; <code>/agent resume</code> continues the chat's newest interrupted run; <code>/agent continue [rounds]</code> gives the newest run that ran out of its budget more rounds; <code>/agent run &lt;prompt&gt;</code> runs a background agent and returns its summary. <code>/agent fix &lt;request&gt;</code> revises the last agent reply in place (<code>id=&lt;n&gt;</code> for another). <code>/agent memory from &lt;chat file name&gt;</code> brings another chat's memory of this character into this chat as its memory seed. <code>/agent memory build [lore]</code> builds the chat's memory from its messages in the background (<code>stop</code>, <code>resume</code>, <code>status</code>).`,
            unnamedArgumentList: [
                context.SlashCommandArgument.fromProps({
                    description: t`on, off, status, stop, profile <id>, pipeline [before=… reply=… after=…], skills, guide <text>, resume [runId], continue [rounds], run <prompt>, fix <request>, memory from <chat file name>, or memory build [lore|stop|resume|status]`,
                    typeList: [context.ARGUMENT_TYPE.STRING],
                    isRequired: false,
                    defaultValue: 'status',
                    enumList: SUBCOMMANDS.map((name) => new context.SlashCommandEnumValue(name)),
                }),
            ],
        }),
    );
}
