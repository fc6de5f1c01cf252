import type { ModelReply, ModelRequest } from '../../../contract/model';
import { grammarFields, toTextMessages, withProtocolStops, type TextPromptMessage } from '../../../contract/text-protocol/index';
import { stContext } from '../../sillytavern/st-context';
import { importInstructModule, importScriptModule, importTextGenModule } from '../../sillytavern/st-internals';
import { readTextStream } from './read-sse';
import { textPartial } from './text-partial';
import { textStreamPayload } from '../connection-stream';
import type { ModelStreamDelta } from '../../../contract/model-stream';

/** Hears a streamed call's progress (cumulative), for the live view. */
type OnPartial = (partial: Omit<ModelStreamDelta, 'runId' | 'requestId' | 'round'>) => void;

const GENERATE_URL = '/api/backends/text-completions/generate';

/** A Connection Manager profile's fields the text route reads (SillyTavern's own keys). */
export interface TextConnection {
    id: string;
    api: string;
    instruct?: string;
    'instruct-state'?: string;
}

/** Names the instruct template puts on turns: the persona for user turns, the character for the agent's. */
function withNames(messages: TextPromptMessage[]): TextPromptMessage[] {
    const { name1, name2 } = stContext();
    return messages.map((m) => (m.role === 'user' ? { ...m, name: name1 } : m.role === 'assistant' ? { ...m, name: name2 } : m));
}

/**
 * The prompt string in SillyTavern's own formatting: the instruct template when instruct mode is on
 * (TextCompletionService.constructPrompt, which ends with the assistant's prefix), else the plain
 * "Name: text" chat SillyTavern uses without one.
 */
function formatPrompt(messages: TextPromptMessage[], instruct: unknown | null): string {
    const named = withNames(messages);
    if (instruct) {
        const formatted = stContext().TextCompletionService.constructPrompt(named, instruct);
        if (typeof formatted === 'string') return formatted;
    }
    const { name2 } = stContext();
    const lines = named.map((m) => (m.role === 'system' ? `${m.content}\n` : `${m.name ?? m.role}: ${m.content}\n`));
    return `${lines.join('\n')}\n${name2}:`;
}

/**
 * Adds the protocol's stops, and the tool-call grammar where the backend takes one and the profile allows it,
 * in the backend's own field (`grammarFields`); the fields it leaves unset are removed from the body.
 */
export function applyProtocol(data: Record<string, unknown>, request: Pick<ModelRequest, 'grammar' | 'tools'>, apiType: string): void {
    data.stop = withProtocolStops(data.stop);
    data.stopping_strings = withProtocolStops(data.stopping_strings ?? data.stop);
    const fields = request.grammar === false ? null : grammarFields(apiType, request.tools);
    if (fields) {
        for (const [field, value] of Object.entries(fields)) {
            if (value === undefined) delete data[field];
            else data[field] = value;
        }
    } else if (!data.grammar) {
        delete data.grammar;
    }
}

async function send(data: Record<string, unknown>, signal: AbortSignal, started: number, onPartial?: OnPartial): Promise<ModelReply> {
    try {
        const response = await fetch(GENERATE_URL, {
            method: 'POST',
            headers: stContext().getRequestHeaders(),
            cache: 'no-cache',
            body: JSON.stringify(data),
            signal,
        });
        if (!response.ok) {
            const text = await response.text();
            return { ok: false, status: response.status, message: text.slice(0, 200) || response.statusText, aborted: false };
        }
        const onText = onPartial ? (text: string) => onPartial(textPartial(text)) : undefined;
        const body: unknown = data.stream ? await readTextStream(response, onText) : await response.json();
        const error = body && typeof body === 'object' ? (body as { error?: unknown; response?: unknown; status?: unknown }) : null;
        if (error?.error) {
            const detail = typeof error.response === 'string' ? error.response.slice(0, 200) : typeof error.error === 'string' ? error.error : 'see the SillyTavern server log';
            return { ok: false, status: typeof error.status === 'number' ? error.status : null, message: `The Text Completion backend returned an error: ${detail}`, aborted: false };
        }
        return { ok: true, raw: body, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
        const aborted = signal.aborted || (error instanceof DOMException && error.name === 'AbortError');
        return { ok: false, status: null, message: error instanceof Error ? error.message : String(error), aborted };
    }
}

/**
 * One agent model call on the user's current Text Completion connection (SPEC §9): the conversation in
 * the text tool protocol, formatted by the selected instruct template, sent with the user's samplers and
 * stop strings (getTextGenGenerationData) through SillyTavern's backend, streaming as the connection says.
 */
export async function requestTextModel(request: ModelRequest, signal: AbortSignal, onPartial?: OnPartial): Promise<ModelReply> {
    const started = performance.now();
    try {
        const [textgen, script] = await Promise.all([importTextGenModule(), importScriptModule()]);
        const instruct = stContext().powerUserSettings.instruct;
        const prompt = formatPrompt(toTextMessages(request.messages, request.tools), instruct?.enabled ? instruct : null);
        const data = await textgen.getTextGenGenerationData(prompt, Number(script.amount_gen) || 512, false, false, null, 'quiet');
        data.stream = Boolean(textgen.textgenerationwebui_settings.streaming);
        applyProtocol(data, request, String(data.api_type ?? textgen.textgenerationwebui_settings.type));
        return await send(data, signal, started, onPartial);
    } catch (error) {
        const aborted = signal.aborted || (error instanceof DOMException && error.name === 'AbortError');
        return { ok: false, status: null, message: error instanceof Error ? error.message : String(error), aborted };
    }
}

/**
 * The same through a Connection Manager profile on a Text Completion API: its instruct template formats
 * the prompt, its completion preset gives the samplers (SillyTavern's TextCompletionService builds the
 * body), its server URL and type route it. Streamed when the profile streams (its completion preset's
 * "Streaming", else the user's), built as SillyTavern's ConnectionManagerRequestService builds it but read
 * here, so `onPartial` sees the turn arrive and the signal aborts it.
 */
export async function requestTextModelWithConnection(request: ModelRequest, connection: TextConnection, apiType: string, signal: AbortSignal, onPartial?: OnPartial): Promise<ModelReply> {
    const started = performance.now();
    try {
        const context = stContext();
        const [instructModule, script] = await Promise.all([importInstructModule(), importScriptModule()]);
        const instructOn = connection['instruct-state'] !== 'false' && Boolean(connection.instruct);
        const presets = (context as unknown as { getPresetManager(api: string): { getCompletionPresetByName(name: string): unknown } | undefined }).getPresetManager('instruct');
        const preset = instructOn ? presets?.getCompletionPresetByName(String(connection.instruct)) : undefined;
        const prompt = formatPrompt(toTextMessages(request.messages, request.tools), preset ?? null);
        const overrides: Record<string, unknown> = {
            stop: preset ? instructModule.getInstructStoppingSequences({ customInstruct: preset, useStopStrings: false }) : [],
        };
        applyProtocol(overrides, request, apiType);
        const maxTokens = Number(script.amount_gen) || 512;
        const streamed = await textStreamPayload(connection.id, apiType, prompt, maxTokens, overrides).catch(() => null);
        if (streamed) {
            // The profile's sampler preset was merged over the overrides: its own grammar or JSON schema goes again.
            applyProtocol(streamed, request, apiType);
            return await send(streamed, signal, started, onPartial);
        }
        const raw = await (context.ConnectionManagerRequestService.sendRequest as unknown as (
            id: string,
            prompt: string,
            maxTokens: number,
            custom: Record<string, unknown>,
            override: Record<string, unknown>,
        ) => Promise<unknown>)(connection.id, prompt, maxTokens, { stream: false, signal, extractData: false, includePreset: true, includeInstruct: false }, overrides);
        const error = raw && typeof raw === 'object' ? (raw as { error?: unknown }).error : undefined;
        if (error) return { ok: false, status: null, message: `The Text Completion backend returned an error: ${String(error)}`, aborted: false };
        return { ok: true, raw, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
        const aborted = signal.aborted || (error instanceof DOMException && error.name === 'AbortError');
        const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
        return { ok: false, status: null, message: `${error instanceof Error ? error.message : String(error)}${cause}`, aborted };
    }
}
