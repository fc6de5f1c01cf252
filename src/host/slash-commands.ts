import { agentStatus, currentChatAgentState, setAgentMode, setChatProfile } from './agent-mode';
import { storedProfiles } from './profile-store';
import { getEngine } from './worker-client';
import { activeRun, cancelActiveRun } from './run-controller';
import { stContext } from './st-context';
import { t } from '../i18n/t';
import { formatVisibleSkills, runSkills } from './skills/run-skills';
import type { RunApi } from './run-api';
import { agentRunCommand } from './agent-run-command';

/** The run API `/agent run` uses (set by registerSlashCommands). */
let runApi: RunApi | null = null;

const SUBCOMMANDS = ['on', 'off', 'status', 'stop', 'profile', 'skills', 'run'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function isSubcommand(value: string): value is Subcommand {
    return (SUBCOMMANDS as readonly string[]).includes(value);
}

/** `/agent on|off|status`. Every answer is a string, so the commands compose in STscript pipes. */
async function runAgentCommand(argument: string): Promise<string> {
    const [first = '', ...rest] = argument.trim().split(/\s+/);
    if (first.toLowerCase() === 'run' && runApi) return agentRunCommand(runApi, argument.trim().slice(first.length).trim());
    const word = first.toLowerCase() || 'status';
    if (!isSubcommand(word)) {
        globalThis.toastr?.warning(t`Unknown /agent command. Use on, off, status, stop or profile.`);
        return '';
    }
    if (word === 'status') return JSON.stringify(agentStatus(activeRun()));
    if (word === 'stop') return String(await cancelActiveRun('Stopped with /agent stop.'));
    if (word === 'profile') return chooseProfile(rest.join(' '));
    if (word === 'skills') return visibleSkills();
    const result = await setAgentMode(word === 'on');
    if (!result.ok) {
        globalThis.toastr?.warning(t`Open a chat first: Agent Mode is switched per chat.`);
        return '';
    }
    return JSON.stringify(agentStatus());
}

/** `/agent profile` names the chat's profile; `/agent profile <id>` sets it, if such a usable profile exists. */
async function chooseProfile(id: string): Promise<string> {
    if (!id) return currentChatAgentState().profileId;
    const engine = await getEngine();
    const resolved = await engine.resolveProfile(id, storedProfiles());
    if (!resolved.ok) {
        globalThis.toastr?.warning(resolved.error.message);
        return '';
    }
    const result = await setChatProfile(id);
    if (!result.ok) {
        globalThis.toastr?.warning(t`Open a chat first: Agent Mode is switched per chat.`);
        return '';
    }
    return JSON.stringify(agentStatus(activeRun()));
}

/** `/agent skills`: the skills a run in this chat would see, with the chat's profile. */
async function visibleSkills(): Promise<string> {
    const engine = await getEngine();
    const resolved = await engine.resolveProfile(currentChatAgentState().profileId, storedProfiles());
    if (!resolved.ok) {
        globalThis.toastr?.warning(resolved.error.message);
        return '';
    }
    return formatVisibleSkills(await runSkills(resolved.value));
}

export function registerSlashCommands(api?: RunApi): void {
    runApi = api ?? null;
    const context = stContext();
    context.SlashCommandParser.addCommandObject(
        context.SlashCommand.fromProps({
            name: 'agent',
            callback: (_named, unnamed) => runAgentCommand(String(unnamed ?? '')),
            returns: 'JSON status of Agent Mode in this chat',
            helpString: t`Tavern Agent: <code>/agent on</code> and <code>/agent off</code> switch Agent Mode for this chat; <code>/agent status</code> returns its state as JSON; <code>/agent stop</code> stops the running agent; <code>/agent profile &lt;id&gt;</code> picks the agent profile for this chat; <code>/agent skills</code> lists the skills a run in this chat would see.`,
            unnamedArgumentList: [
                context.SlashCommandArgument.fromProps({
                    description: 'on, off, status, stop, profile <id>, skills, or run <prompt>',
                    typeList: [context.ARGUMENT_TYPE.STRING],
                    isRequired: false,
                    defaultValue: 'status',
                    enumList: SUBCOMMANDS.map((name) => new context.SlashCommandEnumValue(name)),
                }),
            ],
        }),
    );
}
