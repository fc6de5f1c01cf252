import type { ToolCall } from '../../contract/model';
import type { ToolOutcome } from '../../contract/tool-outcome';
import type { AgentInvocation } from '../agents/agent';
import type { PreparedCall } from '../agents/dispatch';
import type { StateAccess } from '../../tools/tool';
import { modelFacingText } from '../projection/model-notes';
import { cancelledFailure } from './cancelled';
import { skillCharsOf } from '../../tools/skill/access';

/**
 * One tool call's whole lifecycle (SPEC §1): prepare (policy, budget, arguments) → journal the start with
 * its arguments → execute → journal the result (complete or fail) with the full outcome, which the run's
 * projection turns into the answer the model reads. Records are keyed by a run-unique id: providers may
 * send `call_0` every round.
 */
export async function executeToolCall(agent: AgentInvocation, call: ToolCall, preset?: PreparedCall): Promise<void> {
    const { session, workspace, dispatcher, journal } = agent;
    const callId = session.nextCallId();
    const argsPath = `tool-args/${callId}.json`;
    const resultPath = `tool-results/${callId}.json`;
    const started = session.now();
    const prepared = preset ?? dispatcher.prepare(call, agent.track.loop.wrapUp !== null);
    const start = journal.append(
        'tool-call-start',
        { callId, providerCallId: call.id, name: call.name, canonical: prepared.canonical, argsPath, counted: prepared.counts },
        { files: [workspace.record(argsPath, call.argumentsText, 0)] },
        startDeferrable(prepared) ? { defer: true } : undefined,
    );
    if (!startDeferrable(prepared)) await start;
    const outcome = await untilStopped(
        agent,
        dispatcher.execute(prepared, {
            input: agent.input,
            workspace,
            run: agent.controls,
            skills: agent.skills,
            agents: agent.agentsFor(callId),
            scripts: agent.scriptsFor(callId),
            state: stateAccess(agent),
            signal: agent.signal,
            journal,
        }),
    );
    const durationMs = session.now() - started;
    const content = modelFacingText(outcome, resultPath);
    const resultFile = { files: [workspace.record(resultPath, JSON.stringify(outcome), 0)] };
    // The result goes to storage with the next event (the next call's start, or the next model request):
    // the model reads it only after that event is written, so journal-first holds with one transaction less.
    const options = { defer: true, decoded: { outcome } };
    if (outcome.ok) {
        const skillChars = skillCharsOf(outcome);
        const payload = { callId, name: call.name, durationMs, summary: content.slice(0, 200), resultPath, ...(skillChars ? { skillChars } : {}) };
        void journal.append('tool-call-complete', payload, resultFile, options);
    } else {
        const { code, message, hint } = outcome.error;
        void journal.append('tool-call-fail', { callId, name: call.name, durationMs, code, message, hint, resultPath }, resultFile, options);
    }
}

/** The run's staged state (its projection of the journal) and the page's Approve / Deny, for the state tools. */
function stateAccess(agent: AgentInvocation): StateAccess {
    const { session } = agent;
    const ask = session.deps.host.askApproval?.bind(session.deps.host);
    return {
        changes: () => session.projection.stateChanges,
        ...(ask ? { approve: (name: string, args: unknown) => ask({ runId: session.input.runId, name, args }) } : {}),
    };
}

/**
 * Journal-first (SPEC §1) asks that a call's start be durable before the call changes anything. A call that
 * changes nothing — a read-only tool, or a call refused unrun — needs no durable start: cut off before its
 * events land, the journal shows the response's call unanswered and resume runs it again (a read, or the
 * same refusal). Its start then rides with the next write (its result, the next model request), so a round
 * of read-only calls costs one transaction. Events a tool appends itself still follow the start in order.
 */
function startDeferrable(prepared: PreparedCall): boolean {
    return !prepared.ready || prepared.tool.readOnly;
}

/**
 * Stop interrupts a running tool: the call ends the moment the agent's signal fires, whatever the tool is
 * waiting for (tools that loop also check the signal and yield, so the Stop message gets through).
 */
function untilStopped(agent: AgentInvocation, work: Promise<ToolOutcome>): Promise<ToolOutcome> {
    const { signal } = agent;
    const stopped = () => cancelledFailure(agent.taskId !== null);
    if (signal.aborted) {
        work.catch(() => undefined);
        return Promise.reject(stopped());
    }
    return new Promise<ToolOutcome>((resolve, reject) => {
        const onAbort = () => reject(stopped());
        signal.addEventListener('abort', onAbort, { once: true });
        work.then(
            (outcome) => {
                signal.removeEventListener('abort', onAbort);
                resolve(outcome);
            },
            (error: unknown) => {
                signal.removeEventListener('abort', onAbort);
                reject(error);
            },
        );
    });
}
