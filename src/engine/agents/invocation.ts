import { RunFailure } from '../../contract/errors';
import type { WireMessage } from '../../contract/model';
import type { Profile } from '../../contract/profile';
import type { AgentAccess } from '../../tools/agent-access';
import type { CommitOutcome, RunControls, SkillAccess } from '../../tools/tool';
import type { JournalWriter } from '../../workspace/journal-writer';
import type { Workspace } from '../../workspace/workspace';
import { Budget, WRAP_UP_TOOLS, type WrapUpReason } from './budget';
import { applyContextSettings } from './context';
import { Dispatcher } from './dispatch';
import { agentInstructions } from './instructions';
import { scriptInstructions } from '../run/script-run';
import { fixInstructions, fixRequestMessage } from '../run/fix-run';
import type { RunSession } from '../run/run-session';
import { TaskBoard } from './task-board';

/** Where one agent stands in its loop. */
export interface LoopState {
    finished: boolean;
    finishReason: string | null;
    reminders: number;
    /** Set when the budget ran out; the next model turn is the wrap-up turn. */
    wrapUp: WrapUpReason | null;
    wrapUpTurnTaken: boolean;
    tokensIn: number;
    tokensOut: number;
    /** The model's reasoning since the last commit: the committed reply carries it, as SillyTavern's replies do. */
    reasoning: string[];
}

/**
 * One agent working inside a run: its profile, budget, tools, conversation and loop state. The root agent
 * is one; each sub-agent task is another over the same session and files, running the same loop.
 */
export interface AgentInvocation {
    readonly session: RunSession;
    readonly profile: Profile;
    /** The task this agent works on, or null for the root agent. */
    readonly taskId: string | null;
    readonly foreground: boolean;
    readonly workspace: Workspace;
    /** The run's journal, stamped with the task for a sub-agent. */
    readonly journal: JournalWriter;
    /** The run's cancel signal, or a sub-agent's own (cancelled with its task). */
    readonly signal: AbortSignal;
    readonly budget: Budget;
    readonly dispatcher: Dispatcher;
    readonly controls: RunControls;
    readonly skills: SkillAccess;
    /** Delegation as the tool call `callId` sees it. */
    agentsFor(callId: string): AgentAccess;
    /** The tasks this agent started (null for a sub-agent: they never delegate). */
    readonly tasks: TaskBoard | null;
    readonly conversation: WireMessage[];
    readonly state: LoopState;
}

export function newLoopState(): LoopState {
    return { finished: false, finishReason: null, reminders: 0, wrapUp: null, wrapUpTurnTaken: false, tokensIn: 0, tokensOut: 0, reasoning: [] };
}

export function checkCancelled(agent: AgentInvocation): void {
    if (agent.signal.aborted) throw new RunFailure('run.cancelled', agent.taskId ? 'The task was cancelled.' : 'The run was stopped.');
}

/** The agent that answers the user: the run's own profile, the run's commit, the prompt SillyTavern built. */
export function createRootInvocation(session: RunSession, workspace: Workspace): AgentInvocation {
    const { input } = session;
    const profile = input.profile;
    const foreground = profile.presentation === 'foreground';
    const budget = new Budget(profile.tools);
    const dispatcher = new Dispatcher(session.deps.tools, profile, budget, { wrapUpTools: WRAP_UP_TOOLS, insideTask: false });
    const state = newLoopState();
    const tasks = new TaskBoard(session, workspace, profile);
    const controls: RunControls = {
        foreground,
        hasCommitted: () => session.hasCommitted,
        commit: (request) => commitThroughHost(session, request, state),
        finish(reason) {
            state.finished = true;
            state.finishReason = reason;
            // No model turn follows: later guidance is refused rather than queued for nobody.
            session.deps.guidance?.close();
            // workspace.finish ends the run's sub-agents at once (SPEC §3).
            tasks.cancelAll('The parent agent finished the run.');
        },
    };
    const conversation: WireMessage[] = [
        { role: 'system', content: agentInstructions(input, profile, dispatcher.visibleTools(false).map((t) => t.alias)) },
        ...applyContextSettings(input.prompt, profile.context, input.worldInfo.entries).map((m) => ({ role: m.role, content: m.content ?? '' })),
    ];
    // A scripted run (TavernAgent.run, /agent run): its request is the last thing the model reads.
    if (input.script) {
        conversation[0]!.content += `\n\n${scriptInstructions(input.script)}`;
        conversation.push({ role: 'user', content: input.script.prompt });
    }
    // A fix run (`/agent fix`): the reply as it reads now and the user's request are the last thing it reads.
    if (input.fix) {
        conversation[0]!.content += `\n\n${fixInstructions()}`;
        conversation.push({ role: 'user', content: fixRequestMessage(input.fix) });
    }
    return {
        session,
        profile,
        taskId: null,
        foreground,
        workspace,
        journal: session.journal,
        signal: session.signal,
        budget,
        dispatcher,
        controls,
        skills: newSkillAccess(session),
        agentsFor: (callId) => tasks.accessFor(callId),
        tasks,
        conversation,
        state,
    };
}

export function newSkillAccess(session: RunSession): SkillAccess {
    return { readFile: session.deps.skillFiles ?? (async () => undefined), charsRead: 0 };
}

/**
 * A commit goes through the host (identity checked there); a host refusal ends the run, except a conflict
 * with the user's own edit, which the commit tool turns into a recoverable error.
 */
async function commitThroughHost(session: RunSession, request: Parameters<RunControls['commit']>[0], state: LoopState): Promise<CommitOutcome> {
    session.checkCancelled();
    await session.setState('awaiting_commit');
    const reasoning = state.reasoning.join('\n\n');
    const result = await session.deps.host.commit({ runId: session.input.runId, ...request, ...(reasoning ? { reasoning } : {}) });
    if (!result.ok && (result.error.code === 'workspace.commit_conflict' || result.error.code === 'workspace.empty_artifact')) {
        await session.setState('running');
        const userText = result.error.code === 'workspace.commit_conflict' ? (result.error.detail ?? '') : null;
        return { refused: { code: result.error.code, message: result.error.message, userText } };
    }
    if (!result.ok) {
        const code = result.error.code === 'host.chat_changed' ? 'host.chat_changed' : 'host.commit_failed';
        throw new RunFailure(code, result.error.message, result.error.detail);
    }
    state.reasoning = [];
    session.record.messageId = result.value.messageId;
    await session.journal.append('commit', {
        path: request.path,
        mode: request.mode,
        messageId: result.value.messageId,
        chars: request.text.length,
        reason: request.reason,
    });
    await session.setState('running');
    return result.value;
}
