import { RunFailure } from '../../contract/errors';
import type { EventFact, EventPayloads, EventType } from '../../contract/events';
import type { ModelTurn } from '../../contract/model';
import type { ToolOutcome } from '../../contract/tool-outcome';
import type { AgentTrack } from './agent-track';
import {
    assistantMessage,
    guidanceMessage,
    modelFacingText,
    NOT_RUN_AFTER_FINISH,
    plainTextMessage,
    taskWrapUpNotice,
    continueNotice,
    compactedStub,
    toolReminder,
    wrapUpNotice,
    type GuidanceNote,
} from './model-notes';

/** What an event names but does not hold: the decoded model turn, a call's stored outcome, guidance text. */
export interface EventSources {
    turn(payload: EventPayloads['model-response']): ModelTurn;
    outcome(resultPath: string): ToolOutcome;
    guidance(ids: readonly string[]): GuidanceNote[];
}

/**
 * Events of a change a tool call made: once one is journaled, running the call again would repeat it. A
 * checkpoint alone is none: a write's checkpoint lands with its file-write (one transaction), and the one a
 * commit takes of the text it commits changes nothing (the commit run again finds its message first).
 */
const EFFECTS: ReadonlySet<EventType> = new Set(['file-write', 'patch-apply', 'commit', 'checkpoint-restore', 'lore-propose']);

/** Calls that end the agent when they succeed: the run's finish, a sub-agent's return. */
const ENDING_TOOLS: ReadonlySet<string> = new Set(['workspace.finish', 'task.return']);

/**
 * THE reducer of the agent loop (issue 33 §2): one agent's event, folded into its conversation, loop state
 * and budget. The live loop appends an event and this applies it in the same step; a resume folds the
 * stored journal through it. So guidance, sub-agent results, reminders, wrap-up notices and the "not run"
 * answers come back after a cut by construction. Events that change nothing the model is shown pass.
 */
export function applyEvent(track: AgentTrack, fact: EventFact, sources: EventSources): void {
    const { loop, conversation, budget } = track;
    switch (fact.type) {
        case 'budget-wrap-up':
            loop.wrapUp = fact.payload.reason;
            conversation.push({ role: 'user', content: track.inTask ? taskWrapUpNotice(fact.payload.reason) : wrapUpNotice(fact.payload.reason) });
            return;
        case 'model-response': {
            const turn = sources.turn(fact.payload);
            budget.rounds = fact.payload.round;
            if (loop.wrapUp !== null) loop.wrapUpTurnTaken = true;
            loop.tokensIn += turn.usage?.input ?? 0;
            loop.tokensOut += turn.usage?.output ?? 0;
            if (turn.reasoning.trim()) loop.reasoning.push(turn.reasoning.trim());
            // A plain-text turn enters the conversation with its reminder (model-reminder).
            if (turn.toolCalls.length > 0) conversation.push(assistantMessage(turn));
            track.open = { turn, next: 0, cut: null };
            return;
        }
        case 'model-reminder':
            if (track.open) conversation.push(plainTextMessage(track.open.turn));
            loop.reminders = fact.payload.attempt;
            conversation.push({ role: 'user', content: toolReminder(fact.payload.attempt, track.maxToolReminders) });
            track.open = null;
            return;
        case 'tool-call-start': {
            const { canonical, counted } = fact.payload;
            // Journals from before `counted` counted every call of a known tool.
            if (track.open) track.open.cut = { callId: fact.payload.callId, canonical, counted: canonical !== null && (counted ?? true), effects: [] };
            return;
        }
        case 'tool-call-complete':
        case 'tool-call-fail':
            answerCall(track, fact.payload.resultPath, sources);
            return;
        case 'script-call':
            // A program's tool call costs the agent a call of its budget; its result went to the program only.
            if (fact.payload.counted && fact.payload.canonical !== null) budget.countCall(fact.payload.canonical);
            return;
        case 'guidance-deliver':
            conversation.push({ role: 'user', content: guidanceMessage(sources.guidance(fact.payload.guidanceIds)) });
            return;
        case 'task-inject': {
            const { message } = fact.payload;
            if (message === undefined) throw new RunFailure('run.resume_failed', 'The run cannot be resumed: its journal is from a version that did not keep sub-agent results.');
            conversation.push({ role: 'user', content: message });
            return;
        }
        case 'run-continue':
            // The same run goes on past its end: its loop may run again, with more rounds.
            loop.wrapUp = null;
            loop.wrapUpTurnTaken = false;
            loop.finished = false;
            loop.finishReason = null;
            budget.extend(fact.payload.rounds);
            conversation.push({ role: 'user', content: continueNotice(fact.payload.rounds) });
            return;
        case 'conversation-compact':
            for (const stub of fact.payload.stubs) {
                const message = conversation[stub.index];
                if (message?.role !== 'tool') throw new RunFailure('run.resume_failed', 'The run cannot be resumed: its journal compacts a message that is not a tool result.');
                conversation[stub.index] = { role: 'tool', tool_call_id: message.tool_call_id!, content: compactedStub(stub.name, stub.callId, stub.path) };
                track.results.delete(stub.index);
            }
            return;
        case 'plan-update':
            track.plan = fact.payload.items;
            return;
        case 'commit':
            // The committed reply carried the reasoning so far.
            loop.reasoning.length = 0;
            break;
        default:
            break;
    }
    if (EFFECTS.has(fact.type)) noteEffect(track, fact);
}

/** Records a change made by the call in flight (the reducer of a parent also gets its sub-agents' starts). */
export function noteEffect(track: AgentTrack, fact: EventFact): void {
    track.open?.cut?.effects.push(fact);
}

/** The call's answer in the conversation; an accepted finish answers the rest of its turn as not run. */
function answerCall(track: AgentTrack, resultPath: string, sources: EventSources): void {
    const open = track.open;
    const call = open?.turn.toolCalls[open.next];
    if (!open || !call) return; // a result without its turn: nothing the model was shown answers it
    const outcome = sources.outcome(resultPath);
    // Counted with its result: a call cut off before it and run again on resume counts once.
    if (open.cut?.counted && open.cut.canonical !== null) track.budget.countCall(open.cut.canonical);
    if (open.cut) track.results.set(track.conversation.length, { callId: open.cut.callId, name: call.name });
    track.conversation.push({ role: 'tool', tool_call_id: call.id, content: modelFacingText(outcome, resultPath) });
    if (outcome.ok && open.cut && ENDING_TOOLS.has(open.cut.canonical ?? '')) {
        track.loop.finished = true;
        const reason = outcome.result.details?.reason;
        track.loop.finishReason = typeof reason === 'string' ? reason : null;
    }
    open.next += 1;
    open.cut = null;
    if (track.loop.finished) {
        for (const rest of open.turn.toolCalls.slice(open.next)) track.conversation.push({ role: 'tool', tool_call_id: rest.id, content: NOT_RUN_AFTER_FINISH });
        track.open = null;
    } else if (open.next >= open.turn.toolCalls.length) {
        track.open = null;
    }
}
