import { RunFailure, toolError } from '../../contract/errors';
import type { ModelTurn, ToolCall } from '../../contract/model';
import type { RunRecord, WorkspaceFile } from '../../contract/records';
import type { JournalEvent } from '../../contract/events';
import { fail, ok, type Result } from '../../contract/result';
import type { RunInput, RunOutcome } from '../../contract/run-input';
import type { RunStorage } from '../../store/run-storage';
import { failure, success, type ToolOutcome } from '../../tools/tool';
import { Workspace } from '../../workspace/workspace';
import { runAgentLoop } from '../loop/agent-loop';
import { completeRun, failRun } from './complete-run';
import { modelFacingText } from '../agents/dispatch';
import { assistantMessage, executeRemainingCalls, isTruncated } from '../loop/execute-tool-calls';
import { toolReminder, wrapUpNotice } from '../agents/instructions';
import { LEASE_RENEW_MS, LEASE_TTL_MS } from '../tabs/interrupted';
import { createRootInvocation, type AgentInvocation } from '../agents/invocation';
import { fixMemoryBase } from './fix-run';
import { decodeModelResponse } from '../model/decode';
import { answerPlainText } from '../loop/plain-text-turn';
import { RunSession, type RunDependencies } from './run-session';
import { loadStoredInput } from './stored-input';

/** What a resume needs, read and checked before anything is written. */
export interface ResumePlan {
    record: RunRecord;
    input: RunInput;
    events: JournalEvent[];
}

/** Events a tool call journals while it changes something: once one exists, re-running the call would repeat it. */
const EFFECTS: ReadonlySet<string> = new Set(['file-write', 'patch-apply', 'checkpoint', 'commit', 'checkpoint-restore']);

/**
 * Whether an interrupted run can go on, and from what. Refused (as data, with a reason the user can act
 * on) when the run is not interrupted, its frozen inputs are gone, or it delegated to sub-agents.
 */
export async function planResume(storage: RunStorage, runId: string): Promise<Result<ResumePlan>> {
    const record = await storage.getRun(runId);
    if (!record) return fail('run.not_found', 'This run no longer exists.');
    if (record.state !== 'interrupted') return fail('run.not_resumable', `This run is ${record.state}; only an interrupted run can be resumed.`);
    const input = await loadStoredInput(storage, runId);
    if (!input) return fail('run.inputs_missing', "This run's frozen inputs (prompt, chat, profile) are gone, so it cannot be resumed.");
    const events = await storage.listEvents(runId);
    if (events.some((event) => event.type === 'task-start')) {
        return fail('run.not_resumable', 'This run delegated work to sub-agents; such a run cannot be resumed.');
    }
    return ok({ record, input, events });
}

/**
 * Continues an interrupted run from its journal (issue 13 §1): the conversation, budget, loop state and
 * files are rebuilt from what was journaled, so confirmed tool results and commits are never run again;
 * the model call that was cut off is sent again; a tool call cut off before it changed anything runs
 * again, one cut off after is answered with a recoverable `tool.interrupted`. New events follow the old.
 */
export async function resumeAgent(plan: ResumePlan, deps: RunDependencies): Promise<RunOutcome> {
    const { record, input, events } = plan;
    const calls = Math.max(0, ...events.flatMap((e) => (e.type === 'tool-call-start' ? [Number(String((e.payload as { callId?: unknown }).callId).replace(/\D/g, '')) || 0] : [])));
    const session = new RunSession(input, deps, { record, nextSeq: (events.at(-1)?.seq ?? -1) + 1, calls, tasks: 0 });
    const endLease = session.startLease(LEASE_RENEW_MS, LEASE_TTL_MS);
    try {
        await session.journal.append('run-resume', { from: record.state, events: events.length });
        if (events.some((event) => event.type === 'run-finish')) {
            // Cut off after its end was journaled: nothing is left to do but say so.
            await session.setState('completed');
            return { runId: input.runId, state: 'completed', messageId: session.record.messageId, error: null };
        }
        const profile = input.profile;
        const workspace = new Workspace(input.runId, { visible: profile.workspace.visibleRoots, writable: profile.workspace.writableRoots }, session.fileStore, session.journal, session.now);
        const storage = deps.storage;
        const files = await storage.listFiles(input.runId);
        workspace.restore(files, await storage.listCheckpoints(input.runId));
        const memory = await fixMemoryBase(input, storage);
        const agent = createRootInvocation(session, workspace);
        // The stored responses and results come from this one read (most live inside the journal's own
        // records), not a lookup per replayed round.
        const open = await rebuild(agent, events, new Map(files.map((file) => [file.path, file])));
        await session.setState('running');
        await finishCutTurn(agent, open);
        const end = await runAgentLoop(agent);
        return await completeRun(session, workspace, end, memory);
    } catch (error) {
        return failRun(session, error);
    } finally {
        endLease();
    }
}

/** The model turn the run was cut off in, with how far its tool calls got. */
interface OpenTurn {
    turn: ModelTurn;
    /** Index of the next call without a journaled result. */
    next: number;
    /** That call, when its start was journaled: what it changed before the cut. */
    cut: { callId: string; canonical: string | null; effects: JournalEvent[] } | null;
}

function readStored(files: ReadonlyMap<string, WorkspaceFile>, path: string): unknown {
    const file = files.get(path);
    if (!file) throw new RunFailure('run.resume_failed', `The run cannot be resumed: ${path} is missing from its journal.`);
    return JSON.parse(file.content);
}

/** Replays the journal into the root agent's conversation and state, running nothing. */
async function rebuild(agent: AgentInvocation, events: JournalEvent[], files: ReadonlyMap<string, WorkspaceFile>): Promise<OpenTurn | null> {
    const { state, conversation, session } = agent;
    const { input } = session;
    let open: OpenTurn | null = null;
    for (const event of events) {
        const payload = event.payload as Record<string, unknown>;
        switch (event.type) {
            case 'budget-wrap-up': {
                const reason = payload.reason as 'maxRounds' | 'maxCallsPerRun';
                state.wrapUp = reason;
                conversation.push({ role: 'user', content: wrapUpNotice(reason) });
                break;
            }
            case 'model-response': {
                const round = Number(payload.round);
                const raw = readStored(files, String(payload.stored));
                const decoded = decodeModelResponse(raw, { round, source: input.source });
                if (!decoded.ok) throw new RunFailure('run.resume_failed', 'The run cannot be resumed: a stored model response is unreadable.', decoded.message);
                const turn = decoded.turn;
                agent.budget.rounds = round;
                if (state.wrapUp !== null) state.wrapUpTurnTaken = true;
                state.tokensIn += turn.usage?.input ?? 0;
                state.tokensOut += turn.usage?.output ?? 0;
                // A plain-text turn enters the conversation with its reminder (model-reminder) below.
                if (turn.toolCalls.length > 0) conversation.push(assistantMessage(turn));
                open = { turn, next: 0, cut: null };
                break;
            }
            case 'model-reminder': {
                if (open) conversation.push({ role: 'assistant', content: open.turn.text, ...(open.turn.native.signature ? { signature: open.turn.native.signature } : {}) });
                state.reminders = Number(payload.attempt);
                conversation.push({ role: 'user', content: toolReminder(state.reminders, agent.profile.maxToolReminders) });
                open = null;
                break;
            }
            case 'tool-call-start':
                if (open) open.cut = { callId: String(payload.callId), canonical: (payload.canonical as string | null) ?? null, effects: [] };
                break;
            case 'tool-call-complete':
            case 'tool-call-fail': {
                if (!open || !open.cut) break;
                const call = open.turn.toolCalls[open.next]!;
                // Counted against the budget exactly as when it first ran.
                if (!isTruncated(open.turn)) agent.dispatcher.prepare(call, state.wrapUp !== null);
                const resultPath = String(payload.resultPath);
                const outcome = readStored(files, resultPath) as ToolOutcome;
                if (outcome.ok && open.cut.canonical === 'workspace.finish') {
                    state.finished = true;
                    state.finishReason = (outcome.result.details?.reason as string | null | undefined) ?? null;
                }
                conversation.push({ role: 'tool', tool_call_id: call.id, content: modelFacingText(outcome, resultPath) });
                open.next += 1;
                open.cut = null;
                if (state.finished || open.next >= open.turn.toolCalls.length) {
                    for (const rest of open.turn.toolCalls.slice(open.next)) conversation.push({ role: 'tool', tool_call_id: rest.id, content: 'Not run: the run has already finished.' });
                    open = null;
                }
                break;
            }
            default:
                if (!EFFECTS.has(event.type)) break;
                open?.cut?.effects.push(event);
                if (event.type === 'commit') session.record.messageId = Number(payload.messageId);
                if ((event.type === 'file-write' && payload.mode !== 'append') || event.type === 'patch-apply') {
                    agent.workspace.readState.recordFull(String(payload.path), Number(payload.version));
                }
        }
    }
    return open;
}

/** Finishes the turn the run was cut off in, so the conversation answers every call before the next model call. */
async function finishCutTurn(agent: AgentInvocation, open: OpenTurn | null): Promise<void> {
    if (!open) return;
    if (open.turn.toolCalls.length === 0) {
        await answerPlainText(agent, open.turn);
        return;
    }
    let from = open.next;
    if (open.cut && open.cut.effects.length > 0) {
        const call = open.turn.toolCalls[open.next]!;
        const content = await answerCutCall(agent, open.turn, call, open.cut);
        agent.conversation.push({ role: 'tool', tool_call_id: call.id, content });
        from += 1;
        if (agent.state.finished) return;
    }
    // A call cut off before it changed anything runs again (a commit's host looks for its message first).
    await executeRemainingCalls(agent, open.turn, from);
}

/** Journals the result of a call that was cut off after it changed something, without running it again. */
async function answerCutCall(agent: AgentInvocation, turn: ModelTurn, call: ToolCall, cut: NonNullable<OpenTurn['cut']>): Promise<string> {
    if (!isTruncated(turn)) agent.dispatcher.prepare(call, agent.state.wrapUp !== null);
    const commit = cut.effects.find((event) => event.type === 'commit')?.payload as { path: string; mode: string; messageId: number; chars: number } | undefined;
    const touched = [...new Set(cut.effects.flatMap((event) => ('path' in (event.payload as object) ? [String((event.payload as { path: unknown }).path)] : [])))];
    const outcome: ToolOutcome = commit
        ? success(`Committed ${commit.path} to the chat as message #${commit.messageId} (${commit.mode}). Call workspace_finish when the reply is complete.`, { ...commit })
        : failure(
              toolError(
                  'tool.interrupted',
                  `This call was cut off by an interruption after it changed ${touched.join(', ') || 'the workspace'}; its result was lost.`,
                  'Read the files it touched to see where they stand, then go on.',
              ),
          );
    const resultPath = `tool-results/${cut.callId}.json`;
    const content = modelFacingText(outcome, resultPath);
    const resultFile = { files: [agent.workspace.record(resultPath, JSON.stringify(outcome), 0)] };
    const name = call.name;
    if (outcome.ok) await agent.journal.append('tool-call-complete', { callId: cut.callId, name, durationMs: 0, summary: content.slice(0, 200), resultPath }, resultFile);
    else await agent.journal.append('tool-call-fail', { callId: cut.callId, name, durationMs: 0, code: outcome.error.code, message: outcome.error.message, hint: outcome.error.hint, resultPath }, resultFile);
    return content;
}
