import { agentStatus, currentChatAgentState, setAgentMode, setChatProfile } from './agent-mode';
import { storedProfiles } from './profile-store';
import { engineStarted, getEngine } from './worker-client';
import { activeRun, cancelActiveRun, newestInterruptedRun, resumeRun } from './run-controller';
import { remoteRun } from './live-view';
import { stContext } from './st-context';
import { t } from '../i18n/t';
import { formatVisibleSkills, runSkills } from './skills/run-skills';

const SUBCOMMANDS = ['on', 'off', 'status', 'stop', 'profile', 'skills', 'resume'] as const;
type Subcommand = (typeof SUBCOMMANDS)[number];

function isSubcommand(value: string): value is Subcommand {
    return (SUBCOMMANDS as readonly string[]).includes(value);
}

/** `/agent on|off|status`. Every answer is a string, so the commands compose in STscript pipes. */
async function runAgentCommand(argument: string): Promise<string> {
    const [first = '', ...rest] = argument.trim().split(/\s+/);
    const word = first.toLowerCase() || 'status';
    if (!isSubcommand(word)) {
        globalThis.toastr?.warning(t`Unknown /agent command. Use on, off, status, stop or profile.`);
        return '';
    }
    if (word === 'status') return JSON.stringify(agentStatus(activeRun() ?? remoteRun() ?? (await interruptedStatus())));
    if (word === 'stop') return String(await cancelActiveRun('Stopped with /agent stop.'));
    if (word === 'profile') return chooseProfile(rest.join(' '));
    if (word === 'skills') return visibleSkills();
    if (word === 'resume') return resumeCommand(rest.join(' ').trim());
    const result = await setAgentMode(word === 'on');
    if (!result.ok) {
        globalThis.toastr?.warning(t`Open a chat first: Agent Mode is switched per chat.`);
        return '';
    }
    return JSON.stringify(agentStatus());
}

/** The chat's newest interrupted run, so /agent status shows what /agent resume would continue. */
async function interruptedStatus(): Promise<{ runId: string; state: string } | null> {
    if (!engineStarted()) return null;
    try {
        const runId = await newestInterruptedRun();
        return runId ? { runId, state: 'interrupted' } : null;
    } catch {
        return null;
    }
}

/**
 * `/agent resume [runId]`: continues the chat's newest interrupted run (or the one named). Answers the run's
 * outcome as JSON, or an empty string with a toast saying why it was refused.
 */
async function resumeCommand(runId: string): Promise<string> {
    const id = runId || (await newestInterruptedRun());
    if (!id) {
        globalThis.toastr?.info(t`This chat has no interrupted agent run to resume.`);
        return '';
    }
    const result = await resumeRun(id);
    if (!result.ok) {
        globalThis.toastr?.warning(`${result.error.message} (${result.error.code})`, t`Not resumed`);
        return '';
    }
    return JSON.stringify(result.value);
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

export function registerSlashCommands(): void {
    const context = stContext();
    context.SlashCommandParser.addCommandObject(
        context.SlashCommand.fromProps({
            name: 'agent',
            callback: (_named, unnamed) => runAgentCommand(String(unnamed ?? '')),
            returns: 'JSON status of Agent Mode in this chat',
            helpString: t`Tavern Agent: <code>/agent on</code> and <code>/agent off</code> switch Agent Mode for this chat; <code>/agent status</code> returns its state as JSON; <code>/agent stop</code> stops the running agent; <code>/agent profile &lt;id&gt;</code> picks the agent profile for this chat; <code>/agent skills</code> lists the skills a run in this chat would see.`,
            unnamedArgumentList: [
                context.SlashCommandArgument.fromProps({
                    description: 'on, off, status, stop, or profile <id>',
                    typeList: [context.ARGUMENT_TYPE.STRING],
                    isRequired: false,
                    defaultValue: 'status',
                    enumList: SUBCOMMANDS.map((name) => new context.SlashCommandEnumValue(name)),
                }),
            ],
        }),
    );
}
