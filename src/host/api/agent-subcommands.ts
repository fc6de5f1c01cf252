import { agentStatus, currentChatAgentState, setAgentMode, setChatProfile } from '../settings/agent-mode';
import { storedProfiles } from '../settings/profile-store';
import { engineStarted, getEngine } from '../worker/worker-client';
import { activeRun, cancelActiveRun, guideActiveRun } from '../run/active-run';
import { continueRun, newestInterruptedRun, newestRun, resumeRun } from '../run/resume-run';
import { remoteRun } from '../run/live-view';
import { failureText } from '../../i18n/failure-text';
import { stateLabel } from '../../i18n/state-label';
import { t } from '../../i18n/t';
import { formatVisibleSkills, runSkills } from '../skills/run-skills';
import { runsAlone } from '../sillytavern/slash-alone';
import { toasts } from '../sillytavern/toasts';
import type { AgentStatus, Pipeline } from '../../contract/agent-mode';
import { describePipeline, pipelineCommand } from './pipeline-command';
import { describeMemoryAnswer, memoryCommand } from './memory-command';

import type { RunApi } from './run-api';
import { agentRunCommand } from './agent-run-command';
import { startFix } from '../reply-actions/fix-reply';
import { parseFixArguments } from '../chat/fix-target';
import { SUBCOMMANDS, type AgentCommandHandler, type Subcommand } from './agent-command';

/** The run API `/agent run` uses (set by createAgentCommand). */
let runApi: RunApi | null = null;


function isSubcommand(value: string): value is Subcommand {
    return (SUBCOMMANDS as readonly string[]).includes(value);
}

/** `/agent on|off|status`. Every answer is a string, so the commands compose in STscript pipes. */
async function runAgentCommand(argument: string, named: Record<string, unknown> = {}): Promise<string> {
    const [first = '', ...rest] = argument.trim().split(/\s+/);
    if (first.toLowerCase() === 'run' && runApi) return agentRunCommand(runApi, argument.trim().slice(first.length).trim());
    const word = first.toLowerCase() || 'status';
    if (!isSubcommand(word)) {
        toasts.warning(t`Unknown /agent command. Use on, off, status, stop, profile, pipeline, skills, guide, resume, continue, run, fix or memory.`);
        return '';
    }
    if (word === 'status') return JSON.stringify(agentStatus(activeRun() ?? remoteRun() ?? (await interruptedStatus())));
    if (word === 'stop') return String(await cancelActiveRun('Stopped with /agent stop.'));
    if (word === 'profile') return chooseProfile(rest.join(' '));
    if (word === 'pipeline') return pipelineCommand(rest.join(' '));
    if (word === 'skills') return visibleSkills();
    if (word === 'guide') return guide(argument.trim().slice(first.length));
    if (word === 'resume') return resumeCommand(rest.join(' ').trim());
    if (word === 'continue') return continueCommand(rest.join(' ').trim());
    if (word === 'fix') return fixCommand(argument.trim().slice(first.length), named.id);
    if (word === 'memory') return memoryCommand(argument.trim().slice(first.length));
    const result = await setAgentMode(word === 'on');
    if (!result.ok) {
        toasts.warning(t`Open a chat first: Agent Mode is switched per chat.`);
        return '';
    }
    return JSON.stringify(agentStatus());
}

/**
 * `/agent fix [id=<messageId>] <request>` (or `/agent id=<messageId> fix <request>`): a new run revises
 * the agent reply in place (the chat's last one when no id is given). Answers the fix run's id at once
 * (its outcome shows in the chat and the panel), or nothing with the reason as a toast.
 */
async function fixCommand(text: string, namedId: unknown): Promise<string> {
    const parsed = parseFixArguments(text, namedId);
    if (!parsed) {
        toasts.warning(t`The message id must be a number, e.g. /agent fix id=4 make it shorter.`, t`Not fixed`);
        return '';
    }
    const started = startFix(parsed.request, { messageId: parsed.messageId });
    if (!started.ok) {
        toasts.warning(`${started.error.message} (${started.error.code})`, t`Not fixed`);
        return '';
    }
    return started.value.runId;
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
        toasts.info(`${t`This chat has no interrupted agent run to resume.`} (run.none_interrupted)`);
        return '';
    }
    const result = await resumeRun(id);
    if (!result.ok) {
        toasts.warning(`${result.error.message} (${result.error.code})`, t`Not resumed`);
        return '';
    }
    return JSON.stringify(result.value);
}

/**
 * `/agent continue [rounds]`: gives the chat's newest run, which ended on its budget, more rounds (issue 38
 * §5). Answers the run's outcome as JSON, or an empty string with a toast saying why it was refused.
 */
async function continueCommand(argument: string): Promise<string> {
    const rounds = argument === '' ? undefined : Number(argument);
    const id = await newestRun();
    if (!id) {
        toasts.info(`${t`This chat has no agent run to continue.`} (run.not_continuable)`);
        return '';
    }
    const result = await continueRun(id, rounds);
    if (!result.ok) {
        toasts.warning(`${result.error.message} (${result.error.code})`, t`Not continued`);
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
        toasts.warning(failureText(resolved.error));
        return '';
    }
    const result = await setChatProfile(id);
    if (!result.ok) {
        toasts.warning(t`Open a chat first: Agent Mode is switched per chat.`);
        return '';
    }
    return JSON.stringify(agentStatus(activeRun()));
}

/** `/agent skills`: the skills a run in this chat would see, with the chat's profile. */
async function visibleSkills(): Promise<string> {
    const engine = await getEngine();
    const resolved = await engine.resolveProfile(currentChatAgentState().profileId, storedProfiles());
    if (!resolved.ok) {
        toasts.warning(failureText(resolved.error));
        return '';
    }
    return formatVisibleSkills(await runSkills(resolved.value));
}

/** `/agent guide <text>`: steers the running agent at its next turn; returns the guidance id, or '' when refused. */
async function guide(text: string): Promise<string> {
    const result = await guideActiveRun(text);
    if (!result.ok) {
        toasts.warning(result.error.message);
        return '';
    }
    return result.value.guidanceId;
}

/** A status as a sentence, for the toast a command typed alone shows. */
function describeStatus(status: AgentStatus): string {
    if (status.chatId === null) return t`No chat is open.`;
    const mode = status.enabled ? t`Agent Mode is on in this chat.` : t`Agent Mode is off in this chat.`;
    const run = status.run ? `${t`A run is working:`} ${stateLabel(status.run.state)}.` : t`No run is working.`;
    return `${mode} ${t`Profile:`} ${status.profileId}. ${run}`;
}

/** What a command typed alone shows: the same answer as the pipe's, in words. Empty answers were told already. */
function describeAnswer(word: string, answer: string): string | null {
    if (!answer) return null;
    if (word === 'stop') return answer === 'true' ? t`The agent run was stopped.` : t`No agent run is working.`;
    if (word === 'guide') return t`Guidance queued for the next turn`;
    if (word === 'fix') return t`The agent is revising the reply.`;
    if (word === 'skills') return answer.trim() ? answer : t`No skills are visible in this chat.`;
    if (word === 'profile' && !answer.startsWith('{')) return `${t`Profile:`} ${answer}`;
    if (word === 'pipeline') return describePipeline(JSON.parse(answer) as Pipeline);
    if (word === 'memory') return describeMemoryAnswer(answer);
    try {
        return describeStatus(JSON.parse(answer) as AgentStatus);
    } catch {
        return answer;
    }
}

/**
 * Runs the command; typed alone (nobody reads its pipe), it also answers in a toast, as SillyTavern's own
 * commands do. In a pipe or a closure the value only goes on, unchanged.
 */
async function agentCommand(named: unknown, argument: string): Promise<string> {
    let answer: string;
    try {
        answer = await runAgentCommand(argument, named && typeof named === 'object' ? (named as Record<string, unknown>) : {});
    } catch (error) {
        // Said in our toast, as text: SillyTavern shows an error thrown out of a command as HTML (its toast and the
        // popup behind it), and a message may one day carry a name from a card or a model.
        toasts.warning(error instanceof Error ? error.message : String(error), t`Tavern Agent`);
        return '';
    }
    if (await runsAlone(named, 'agent')) {
        const word = argument.trim().split(/\s+/)[0]?.toLowerCase() || 'status';
        const text = describeAnswer(word, answer);
        if (text) toasts.info(text, t`Tavern Agent`);
    }
    return answer;
}

/** The work behind `/agent` (registered at startup by agent-command.ts), with the run API `/agent run` uses. */
export function createAgentCommand(api: RunApi): AgentCommandHandler {
    runApi = api;
    return agentCommand;
}
