import { RunFailure } from '../contract/errors';
import type { WireMessage } from '../contract/model';
import type { Profile } from '../contract/profile';
import type { RunControls, SkillAccess } from '../tools/tool';
import type { Workspace } from '../workspace/workspace';
import { Budget, type WrapUpReason } from './budget';
import { applyContextSettings } from './context';
import { Dispatcher } from './dispatch';
import { agentInstructions } from './instructions';
import type { RunSession } from './run-session';

/** Where one agent stands in its loop. */
export interface LoopState {
    finished: boolean;
    finishReason: string | null;
    reminders: number;
    /** Set when the budget ran out; the next model turn is the wrap-up turn. */
    wrapUp: WrapUpReason | null;
    wrapUpTurnTaken: boolean;
    /** Tool calls made so far in the run by this agent: numbers the run-unique call ids. */
    callCount: number;
}

/**
 * One agent working inside a run: its profile, budget, tools, conversation and loop state. The root agent
 * is one; a sub-agent will be another over the same session and workspace, running the same loop.
 */
export interface AgentInvocation {
    readonly session: RunSession;
    readonly profile: Profile;
    readonly foreground: boolean;
    readonly workspace: Workspace;
    readonly budget: Budget;
    readonly dispatcher: Dispatcher;
    readonly controls: RunControls;
    readonly skills: SkillAccess;
    readonly conversation: WireMessage[];
    readonly state: LoopState;
}

/** The agent that answers the user: the run's own profile, the run's commit, the prompt SillyTavern built. */
export function createRootInvocation(session: RunSession, workspace: Workspace): AgentInvocation {
    const { input } = session;
    const profile = input.profile;
    const foreground = profile.presentation === 'foreground';
    const budget = new Budget(profile.tools);
    const dispatcher = new Dispatcher(session.deps.tools, profile, budget);
    const state: LoopState = { finished: false, finishReason: null, reminders: 0, wrapUp: null, wrapUpTurnTaken: false, callCount: 0 };
    const controls: RunControls = {
        foreground,
        hasCommitted: () => session.hasCommitted,
        commit: (request) => commitThroughHost(session, request),
        finish(reason) {
            state.finished = true;
            state.finishReason = reason;
        },
    };
    const conversation: WireMessage[] = [
        { role: 'system', content: agentInstructions(input, profile, dispatcher.visibleTools(false).map((t) => t.alias)) },
        ...applyContextSettings(input.prompt, profile.context, input.worldInfo.entries).map((m) => ({ role: m.role, content: m.content ?? '' })),
    ];
    const skills: SkillAccess = { readFile: session.deps.skillFiles ?? (async () => undefined), charsRead: 0 };
    return { session, profile, foreground, workspace, budget, dispatcher, controls, skills, conversation, state };
}

/** A commit goes through the host (identity checked there); a host refusal ends the run. */
async function commitThroughHost(session: RunSession, request: Parameters<RunControls['commit']>[0]): Promise<{ messageId: number }> {
    session.checkCancelled();
    await session.setState('awaiting_commit');
    const result = await session.deps.host.commit({ runId: session.input.runId, ...request });
    if (!result.ok) {
        const code = result.error.code === 'host.chat_changed' ? 'host.chat_changed' : 'host.commit_failed';
        throw new RunFailure(code, result.error.message, result.error.detail);
    }
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
