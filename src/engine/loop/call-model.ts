import { RunFailure } from '../../contract/errors';
import type { ModelReply, ModelRequest, ModelTurn, WireMessage, WireTool } from '../../contract/model';
import type { HostBridge } from '../../contract/wire';
import { costOf } from '../../contract/usage';
import type { AgentInvocation } from '../agents/agent';
import { cancelledFailure } from './cancelled';
import { decodeModelResponse } from '../model/decode';
import { requestWithRetry } from './model-retry';
import { conversationMessages, noteConversationReply } from './conversation-sync';
import { requestTail } from './request-tail';
import { recordRequest } from './request-record';

const pad = (n: number) => String(n).padStart(3, '0');

/**
 * One request that a cancel can end at once: the signal may belong to a sub-agent whose parent goes on, so
 * the host is asked to abort just this request, and the engine stops waiting for it either way.
 */
function sendAbortable(host: HostBridge, request: ModelRequest, signal: AbortSignal): Promise<ModelReply> {
    const aborted: ModelReply = { ok: false, status: null, message: 'Cancelled.', aborted: true };
    if (signal.aborted) return Promise.resolve(aborted);
    return new Promise((resolve) => {
        const onAbort = () => {
            host.abortModelRequest?.(request.requestId);
            resolve(aborted);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        host.requestModel(request).then(
            (reply) => {
                signal.removeEventListener('abort', onAbort);
                resolve(reply);
            },
            (error: unknown) => {
                signal.removeEventListener('abort', onAbort);
                resolve({ ok: false, status: null, message: error instanceof Error ? error.message : String(error), aborted: signal.aborted });
            },
        );
    });
}

/**
 * Sends a request that may carry only the conversation's new messages; a host that no longer holds the
 * rest (conversationMissing) is sent the whole conversation at once, as part of the same attempt.
 */
async function sendConversation(host: HostBridge, request: ModelRequest, conversation: WireMessage[], tail: WireMessage[], tools: WireTool[], signal: AbortSignal): Promise<ModelReply> {
    let reply = await sendAbortable(host, request, signal);
    if (!reply.ok && reply.conversationMissing && request.conversation) {
        reply = await sendAbortable(host, { ...request, messages: conversation.concat(tail), tools, conversation: { key: request.conversation.key, base: 0 } }, signal);
    }
    noteConversationReply(conversation, reply);
    return reply;
}

/**
 * One model turn: journal the request, send it through the host (with retries), keep the raw response
 * for the timeline, decode it into the one internal turn shape. Counts the round against the budget.
 */
export async function callModel(agent: AgentInvocation): Promise<ModelTurn> {
    const { session, dispatcher, journal, signal, track } = agent;
    const { input } = session;
    const { conversation } = track;
    const round = track.budget.rounds + 1;
    const wrapping = track.loop.wrapUp !== null;
    const tools = dispatcher.wireTools(wrapping);
    const requestId = `${agent.taskId ?? 'root'}:${round}`;
    const tail = requestTail(track);
    // The request leaves first; its event is written while it travels (journal-first binds side effects, and
    // a model request has none: a request cut off before its event lands is sent again on resume, exactly as
    // one cut off after). Queuing that write holds the worker for about half a millisecond (the transaction,
    // IndexedDB's copy of the records), which the page's trip now overlaps instead of waiting behind.
    const replied = requestWithRetry(
        (request) => sendConversation(session.deps.host, request, conversation, tail, tools, signal),
        {
            runId: input.runId,
            requestId,
            round,
            ...conversationMessages(conversation, agent.taskId ?? 'root', tools, tail),
            grammar: agent.profile.textProtocol.grammar,
            ...(agent.taskId ? { model: agent.profile.model, agentName: agent.profile.displayName } : {}),
        },
        input.retry,
        signal,
        (attempt, delayMs, failed) => journal.append('model-retry', { round, attempt, delayMs, status: failed.status, message: failed.message }).then(() => undefined),
        session.deps.random,
    );
    // Appended in the same task as the send, before any reply is handled (that takes at least a microtask),
    // so a retry's event follows it.
    // The response is journaled only once this write has landed (`await requested` below, and the journal
    // writes in order), so the journal never holds a response without its request.
    const { request, files } = recordRequest(agent, tail.length ? conversation.concat(tail) : conversation, tools);
    const requested = journal.append('model-request', { round, messageCount: conversation.length, wrapUp: wrapping, request }, { files });
    // Awaited below; until then a failed write must not surface as an unhandled rejection.
    requested.catch(() => undefined);
    const reply = await replied;
    // A failed request write ends the run here, before anything acts on the reply.
    await requested;
    // The wait for a model is where a tab sleeps or is frozen: without Web Locks, nothing acts on the reply
    // before the run is known to be still this tab's (tabs/protocol.ts §3).
    await session.lease?.confirm();
    if (!reply.ok) {
        if (reply.aborted || signal.aborted) throw cancelledFailure(agent.taskId !== null);
        throw new RunFailure('model.request_failed', `The model request failed: ${reply.message}`, `HTTP ${reply.status ?? '-'}`);
    }
    // Each agent's own file: a sub-agent's round 1 must not overwrite the root's (resume decodes these again).
    const stored = `model-responses/${agent.taskId ? `${agent.taskId}-` : ''}round-${pad(round)}.json`;
    const responseFile = agent.workspace.record(stored, JSON.stringify(reply.raw), 0);
    const decoded = decodeModelResponse(reply.raw, { round, source: reply.source ?? input.source });
    if (!decoded.ok) {
        // Keep what the model sent, for the timeline, before the run fails on it.
        await agent.workspace.writeHidden(stored, responseFile.content);
        throw new RunFailure('model.malformed_response', "The model's response could not be read.", decoded.message);
    }
    const turn = decoded.turn;
    const cost = costOf(turn.usage, agent.profile.pricing);
    // The projection takes the turn from here: the round, tokens, reasoning and the assistant message.
    void journal.append(
        'model-response',
        {
            round,
            durationMs: reply.durationMs,
            usage: turn.usage,
            text: turn.text,
            reasoning: turn.reasoning,
            toolCalls: turn.toolCalls.map((c) => ({ id: c.id, name: c.name })),
            finishReason: turn.finishReason,
            stored,
            ...(turn.repairs ? { repairs: turn.repairs } : {}),
            ...(cost !== undefined ? { cost } : {}),
        },
        { files: [responseFile] },
        // Stored with the next event (the first call's start, or the plain-text turn's): nothing acts on a
        // response before that event is written, so the round costs one transaction less.
        { defer: true, decoded: { turn } },
    );
    return turn;
}
