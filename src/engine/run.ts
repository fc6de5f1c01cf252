import { RunFailure } from '../contract/errors';
import type { ModelTurn, WireMessage } from '../contract/model';
import { RECORD_VERSION, type RunRecord, type RunState } from '../contract/records';
import type { RunInput, RunOutcome } from '../contract/run-input';
import type { HostBridge } from '../contract/wire';
import type { RunStorage } from '../store/run-storage';
import type { RunControls, SkillAccess, ToolDefinition } from '../tools/tool';
import { DEFAULT_ROOT_POLICY } from '../workspace/roots';
import { Workspace } from '../workspace/workspace';
import { Budget } from './budget';
import { Dispatcher, toolResultText } from './dispatch';
import { agentInstructions, toolReminder, wrapUpNotice } from './instructions';
import { applyContextSettings } from './context';
import { Journal, storageFailure, type EventSink } from './journal';
import { decodeModelResponse } from './model/decode';
import { requestWithRetry } from './retry';

export interface RunDependencies {
    storage: RunStorage;
    host: HostBridge;
    tools: readonly ToolDefinition[];
    sink: EventSink;
    signal: AbortSignal;
    now?: () => number;
    /** Reads a file of a cached skill bundle by content hash (the run's skills are frozen by hash). */
    skillFiles?: SkillAccess['readFile'];
}

const DIRECT_OUTPUT_PATH = 'output/direct_output.md';
const pad = (n: number) => String(n).padStart(3, '0');

/**
 * One agent run, start to end (SPEC §1):
 *   prepare → loop { model call → for each tool call: dispatch → result } until finish, cancel or failure.
 * Plain text instead of tool calls is saved and answered with a reminder; a spent budget gives one
 * wrap-up turn with only commit and finish. Every step is journaled before the next one depends on it.
 */
export async function runAgent(input: RunInput, deps: RunDependencies): Promise<RunOutcome> {
    const profile = input.profile;
    const now = deps.now ?? Date.now;
    const { storage, host, signal } = deps;
    const journal = new Journal(input.runId, storage, deps.sink, now);
    const record: RunRecord = {
        v: RECORD_VERSION,
        runId: input.runId,
        chatKey: input.chat.integrity,
        chatId: input.chat.chatId,
        profileId: profile.id,
        generationType: input.generationType,
        state: 'created',
        messageId: null,
        error: null,
        createdAt: now(),
        updatedAt: now(),
    };
    const foreground = profile.presentation === 'foreground';

    async function saveRecord(): Promise<void> {
        record.updatedAt = now();
        try {
            await storage.putRun({ ...record });
        } catch (error) {
            throw storageFailure(error);
        }
    }

    async function setState(to: RunState): Promise<void> {
        const from = record.state;
        record.state = to;
        await saveRecord();
        await journal.append('run-state', { from, to });
    }

    function checkCancelled(): void {
        if (signal.aborted) throw new RunFailure('run.cancelled', 'The run was stopped.');
    }

    let finished = false;
    let finishReason: string | null = null;

    try {
        await saveRecord();
        await journal.append('run-create', {
            chatKey: record.chatKey,
            chatId: record.chatId,
            profileId: record.profileId,
            generationType: record.generationType,
            foreground,
        });
        await setState('preparing');
        const workspace = new Workspace(input.runId, { visible: DEFAULT_ROOT_POLICY.visible, writable: profile.workspace.writableRoots }, storage, journal, now);
        await workspace.seed(await persistBase(input, storage));
        await workspace.writeHidden('input/prompt.json', JSON.stringify(input.prompt, null, 1));
        await workspace.writeHidden('input/chat.json', JSON.stringify({ chat: input.chat, prefix: input.prefix }, null, 1));
        await workspace.writeHidden('input/worldinfo.json', JSON.stringify(input.worldInfo, null, 1));

        const budget = new Budget(profile.tools);
        const skills: SkillAccess = { readFile: deps.skillFiles ?? (async () => undefined), charsRead: 0 };
        const dispatcher = new Dispatcher(deps.tools, profile, budget);
        const controls: RunControls = {
            foreground,
            hasCommitted: () => record.messageId !== null,
            async commit(request) {
                checkCancelled();
                await setState('awaiting_commit');
                const result = await host.commit({ runId: input.runId, ...request });
                if (!result.ok) {
                    const code = result.error.code === 'host.chat_changed' ? 'host.chat_changed' : 'host.commit_failed';
                    throw new RunFailure(code, result.error.message, result.error.detail);
                }
                record.messageId = result.value.messageId;
                await journal.append('commit', {
                    path: request.path,
                    mode: request.mode,
                    messageId: result.value.messageId,
                    chars: request.text.length,
                    reason: request.reason,
                });
                await setState('running');
                return result.value;
            },
            finish(reason) {
                finished = true;
                finishReason = reason;
            },
        };

        const messages: WireMessage[] = [
            { role: 'system', content: agentInstructions(input, profile, dispatcher.visibleTools(false).map((t) => t.alias)) },
            ...applyContextSettings(input.prompt, profile.context, input.worldInfo.entries).map((m) => ({ role: m.role, content: m.content ?? '' })),
        ];
        await setState('running');

        let reminders = 0;
        let wrapUp: 'maxRounds' | 'maxCallsPerRun' | null = null;
        for (let round = 1; !finished; round += 1) {
            checkCancelled();
            if (wrapUp === null) {
                wrapUp = budget.wrapUpReason();
                if (wrapUp) {
                    await journal.append('budget-wrap-up', { reason: wrapUp, rounds: budget.rounds, calls: budget.calls });
                    messages.push({ role: 'user', content: wrapUpNotice(wrapUp) });
                }
            } else {
                // The wrap-up turn has passed without a finish: a committed reply stands, otherwise the run fails.
                if (record.messageId !== null || !foreground) break;
                throw new RunFailure('model.tool_call_required', 'The agent used its whole budget without committing a reply.');
            }

            const turn = await callModel(round, wrapUp !== null);
            budget.rounds += 1;

            if (turn.toolCalls.length === 0) {
                await workspace.write(DIRECT_OUTPUT_PATH, turn.text, 'direct_output');
                messages.push({ role: 'assistant', content: turn.text, ...(turn.native.signature ? { signature: turn.native.signature } : {}) });
                if (reminders >= profile.maxToolReminders) {
                    throw new RunFailure(
                        'model.tool_call_required',
                        'The model answered in plain text instead of using tools. Its text is saved in output/direct_output.md.',
                    );
                }
                reminders += 1;
                await journal.append('model-reminder', { round, attempt: reminders, savedTo: DIRECT_OUTPUT_PATH });
                messages.push({ role: 'user', content: toolReminder(reminders, profile.maxToolReminders) });
                continue;
            }

            messages.push({
                role: 'assistant',
                content: turn.text || null,
                tool_calls: turn.toolCalls.map((call) => ({
                    id: call.id,
                    type: 'function',
                    function: { name: call.name, arguments: call.argumentsText },
                    ...(call.signature ? { signature: call.signature } : {}),
                })),
                ...(turn.native.signature ? { signature: turn.native.signature } : {}),
            });
            for (const call of turn.toolCalls) {
                if (finished) {
                    // Calls after an accepted finish in the same turn never run; the provider still needs an answer.
                    messages.push({ role: 'tool', tool_call_id: call.id, content: 'Not run: the run has already finished.' });
                    continue;
                }
                checkCancelled();
                const started = now();
                const argsPath = `tool-args/${call.id}.json`;
                const resultPath = `tool-results/${call.id}.json`;
                const probe = dispatcher.resolveName(call.name);
                await journal.append(
                    'tool-call-start',
                    { callId: call.id, name: call.name, canonical: probe, argsPath },
                    { files: [workspace.record(argsPath, call.argumentsText, 0)] },
                );
                const dispatched = await dispatcher.dispatch(call, { input, workspace, run: controls, skills, signal }, wrapUp !== null);
                const durationMs = now() - started;
                const content = toolResultText(dispatched.outcome);
                const resultFile = { files: [workspace.record(resultPath, JSON.stringify(dispatched.outcome), 0)] };
                if (dispatched.outcome.ok) {
                    await journal.append('tool-call-complete', { callId: call.id, name: call.name, durationMs, summary: content.slice(0, 200), resultPath }, resultFile);
                } else {
                    const { code, message, hint } = dispatched.outcome.error;
                    await journal.append('tool-call-fail', { callId: call.id, name: call.name, durationMs, code, message, hint, resultPath }, resultFile);
                }
                messages.push({ role: 'tool', tool_call_id: call.id, content });
            }
        }

        await setState('finishing');
        const persisted = workspace.filesUnder('persist');
        try {
            await storage.putPersistState({ v: RECORD_VERSION, runId: input.runId, chatKey: record.chatKey, files: persisted, at: now() });
        } catch (error) {
            throw storageFailure(error);
        }
        await journal.append('persist-promote', { files: Object.keys(persisted).length });
        await journal.append('run-finish', { reason: finishReason });
        await setState('completed');
        return { runId: input.runId, state: 'completed', messageId: record.messageId, error: null };

        async function callModel(round: number, wrapping: boolean): Promise<ModelTurn> {
            const tools = dispatcher.wireTools(wrapping);
            await journal.append('model-request', {
                round,
                messageCount: messages.length,
                tools: tools.map((t) => t.function.name),
                wrapUp: wrapping,
            });
            const reply = await requestWithRetry(
                (request) => host.requestModel(request),
                { runId: input.runId, round, messages, tools },
                input.retry,
                signal,
                (attempt, delayMs, failed) =>
                    journal.append('model-retry', { round, attempt, delayMs, status: failed.status, message: failed.message }).then(() => undefined),
            );
            if (!reply.ok) {
                if (reply.aborted || signal.aborted) throw new RunFailure('run.cancelled', 'The run was stopped.');
                throw new RunFailure('model.request_failed', `The model request failed: ${reply.message}`, `HTTP ${reply.status ?? '-'}`);
            }
            const stored = `model-responses/round-${pad(round)}.json`;
            const responseFile = { files: [workspace.record(stored, JSON.stringify(reply.raw), 0)] };
            const decoded = decodeModelResponse(reply.raw, { round, source: input.source });
            if (!decoded.ok) {
                // Keep what the model sent, for the timeline, before the run fails on it.
                await workspace.writeHidden(stored, responseFile.files[0]!.content);
                throw new RunFailure('model.malformed_response', 'The model\'s response could not be read.', decoded.message);
            }
            const turn = decoded.turn;
            await journal.append('model-response', {
                round,
                durationMs: reply.durationMs,
                usage: turn.usage,
                text: turn.text,
                reasoning: turn.reasoning,
                toolCalls: turn.toolCalls.map((c) => ({ id: c.id, name: c.name })),
                finishReason: turn.finishReason,
                stored,
            }, responseFile);
            return turn;
        }
    } catch (error) {
        const failure =
            error instanceof RunFailure
                ? error
                : new RunFailure('run.internal_error', 'Tavern Agent hit an internal error.', error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error));
        const cancelled = failure.code === 'run.cancelled';
        const from = record.state;
        record.error = { code: failure.code, message: failure.message };
        record.state = cancelled ? 'cancelled' : 'failed';
        // The record first: even when the journal cannot be written, the run must not look alive.
        await saveRecord().catch(() => undefined);
        try {
            if (cancelled) await journal.append('run-cancel', { reason: failure.message });
            else await journal.append('run-fail', { code: failure.code, message: failure.message, detail: failure.detail ?? null });
            await journal.append('run-state', { from, to: record.state });
        } catch {
            // Storage itself failed: the outcome below still tells the host what happened.
        }
        return { runId: input.runId, state: record.state, messageId: record.messageId, error: record.error };
    }
}

/**
 * persist/ follows the branch: the newest message of the prefix committed by a run that completed gives
 * the starting memory, so a swipe or regenerate never sees a discarded run's memory. A persist state
 * counts only once its run record says `completed`: that last write is what promotes it, so a run that
 * failed after storing its state never leaks it.
 */
async function persistBase(input: RunInput, storage: RunStorage): Promise<Record<string, string>> {
    for (let i = input.prefix.length - 1; i >= 0; i -= 1) {
        const runId = input.prefix[i]!.agentRunId;
        if (!runId) continue;
        const [run, state] = await Promise.all([
            storage.getRun(runId).catch(() => undefined),
            storage.getPersistState(runId).catch(() => undefined),
        ]);
        if (run?.state === 'completed' && state) return state.files;
    }
    return {};
}
