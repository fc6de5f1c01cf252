import { RunFailure } from '../../contract/errors';
import type { WireMessage } from '../../contract/model';
import type { Profile } from '../../contract/profile';
import type { RunInput } from '../../contract/run-input';
import type { RunControls, SkillAccess } from '../../tools/tool';
import { newTrack, ROOT_AGENT_KEY, type AgentTrack } from '../projection/agent-track';
import { fixInstructions, fixRequestMessage } from '../run/fix-run';
import { phaseInstructions } from '../run/phase-run';
import { buildChunkMessage } from '../run/build-run';
import { scriptInstructions } from '../run/script-run';
import type { RunSession } from '../run/run-session';
import type { AgentInvocation, AgentSpec } from './agent';
import { agentInput } from './agent-input';
import { Budget, TASK_WRAP_UP_TOOLS, WRAP_UP_TOOLS } from './budget';
import { commitThroughHost } from './commit-through-host';
import { applyContextSettings } from './context';
import { Dispatcher } from './dispatch';
import { agentInstructions, taskInstructions, taskMessage } from './instructions';
import { pinnedMemoryText } from './pinned-memory';
import { scriptAccess } from '../scripts/script-access';
import { taskAccess } from './task-access';
import type { TaskBoard } from './task-board';

/**
 * The invocation factory (issue 33 §5): the root agent and every sub-agent are built here, from an agent
 * spec. Each gets its own input view (profile, skills, budgets, settings), budget, dispatcher and track in
 * the run's projection, which starts with its instructions and the prompt SillyTavern built.
 */
export function createAgent(spec: AgentSpec): AgentInvocation {
    const { session, profile, task, workspace, journal, signal, delegation, memory } = spec;
    const input = agentInput(session.input, profile, task === null);
    const wrapUpTools = task ? TASK_WRAP_UP_TOOLS : WRAP_UP_TOOLS;
    const budget = new Budget(profile.tools, wrapUpTools);
    const dispatcher = new Dispatcher(session.deps.tools, profile, budget, { wrapUpTools, insideTask: task !== null });
    const aliases = dispatcher.visibleTools(false).map((tool) => tool.alias);
    const start = task ? [...startMessages(input, profile, taskInstructions(input, profile, task.spec, aliases)), { role: 'user' as const, content: taskMessage(task.spec) }] : rootStart(input, profile, aliases, memory ?? {});
    const track = newTrack(task?.entry.taskId ?? ROOT_AGENT_KEY, budget, profile.maxToolReminders, start);
    session.projection.register(track);
    const access = task ? taskAccess(task.entry, workspace) : null;
    const agent: AgentInvocation = {
        session,
        profile,
        input,
        taskId: task?.entry.taskId ?? null,
        foreground: task === null && profile.presentation === 'foreground',
        workspace,
        journal,
        signal,
        dispatcher,
        controls: task ? TASK_CONTROLS : rootControls(session, track, delegation),
        skills: newSkillAccess(session),
        agentsFor: access ? () => access : delegation ? (callId) => delegation.accessFor(callId) : () => undefined,
        tasks: task ? null : delegation,
        track,
        scriptsFor: (callId) => scriptAccess(agent, callId),
    };
    return agent;
}

/** The system message, then the prompt SillyTavern assembled, as this profile's context settings keep it. */
function startMessages(input: RunInput, profile: Profile, system: string): WireMessage[] {
    return [
        { role: 'system', content: system },
        ...applyContextSettings(input.prompt, profile.context, input.worldInfo.entries).map((m) => ({ role: m.role, content: m.content ?? '' })),
    ];
}

/**
 * The run's root agent (the reply agent, or a director or keeper around it); a scripted or fix run's
 * request is the last thing it reads. The chat's pinned memory follows its instructions when it may see
 * persist/ (a profile that hides the folder keeps the memory from its agent).
 */
function rootStart(input: RunInput, profile: Profile, aliases: readonly string[], memory: Readonly<Record<string, string>>): WireMessage[] {
    let system = agentInstructions(input, profile, aliases);
    const pinned = profile.workspace.visibleRoots.includes('persist') ? pinnedMemoryText(memory, profile.memory.pinnedChars) : null;
    if (pinned) system += `\n\n${pinned}`;
    const phase = phaseInstructions(input);
    if (phase) system += `\n\n${phase}`;
    const tail: WireMessage[] = [];
    if (input.script) {
        system += `\n\n${scriptInstructions(input.script)}`;
        tail.push({ role: 'user', content: input.script.prompt });
    }
    if (input.build) tail.push({ role: 'user', content: buildChunkMessage(input, input.build) });
    if (input.fix) {
        system += `\n\n${fixInstructions()}`;
        tail.push({ role: 'user', content: fixRequestMessage(input.fix) });
    }
    return [...startMessages(input, profile, system), ...tail];
}

function rootControls(session: RunSession, track: AgentTrack, delegation: TaskBoard | null): RunControls {
    return {
        foreground: session.input.profile.presentation === 'foreground',
        hasCommitted: () => session.hasCommitted,
        commit: (request) => commitThroughHost(session, request, track.loop),
        finish() {
            // No model turn follows (the projection marks the loop finished with the call's result): later
            // guidance is refused rather than queued for nobody, and the sub-agents end at once (SPEC §3).
            session.deps.guidance?.close();
            delegation?.cancelAll('The parent agent finished the run.');
        },
    };
}

const refusedInTask = (what: string): never => {
    throw new RunFailure('run.internal_error', `A sub-agent tried to ${what}.`);
};

/** A sub-agent never has commit or finish (its dispatcher refuses them first); reaching these is a bug. */
const TASK_CONTROLS: RunControls = {
    foreground: false,
    hasCommitted: () => false,
    commit: async () => refusedInTask('commit to the chat'),
    finish: () => refusedInTask('finish the run'),
};

/** An agent's view of the run's skills: files by hash, and the run's one read count and limit (its root profile's). */
export function newSkillAccess(session: RunSession): SkillAccess {
    return {
        readFile: session.deps.skillFiles ?? (async () => undefined),
        get charsRead() {
            return session.skillCharsRead;
        },
        set charsRead(chars: number) {
            session.skillCharsRead = chars;
        },
        runLimit: session.input.profile.skills.maxReadCharsPerRun,
    };
}
