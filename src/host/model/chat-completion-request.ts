import type { ModelReply, ModelRequest } from '../../contract/model';
import { stContext } from '../sillytavern/st-context';
import { importOpenAiModule } from '../sillytavern/st-internals';
import { runGenerationParameters } from './generation-parameters';
import { createStreamAccumulator, parseSse, type StreamAccumulator } from './stream-accumulate';

/** Post-processing modes that keep tool calls and tool turns intact (SILLYTAVERN-API.md §2). */
const TOOL_SAFE_POST_PROCESSING: Record<string, string> = {
    '': '',
    merge: 'merge_tools',
    semi: 'semi_tools',
    strict: 'strict_tools',
    merge_tools: 'merge_tools',
    semi_tools: 'semi_tools',
    strict_tools: 'strict_tools',
    single: '',
};

/** Retry-After as seconds or an HTTP date, in milliseconds; whether to retry is the engine's call. */
function retryAfterMs(response: Response): number | undefined {
    const header = response.headers.get('retry-after');
    if (!header) return undefined;
    const seconds = Number(header);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const date = Date.parse(header);
    return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function errorMessage(body: unknown): string | null {
    if (!body || typeof body !== 'object' || !('error' in body)) return null;
    const error = (body as { error: unknown }).error;
    if (error === true) return 'The model provider returned an error (see the SillyTavern server log).';
    if (typeof error === 'string') return error;
    if (error && typeof error === 'object' && 'message' in error) return String((error as { message: unknown }).message);
    return 'The model provider returned an error.';
}

/** Turns a thrown request error into a reply (aborted or not); the engine decides what to retry. */
function replyFromError(error: unknown, signal: AbortSignal): ModelReply {
    const aborted = signal.aborted || (error instanceof DOMException && error.name === 'AbortError');
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : '';
    const message = [error instanceof Error ? error.message : String(error), cause].filter(Boolean).join(': ');
    return { ok: false, status: null, message, aborted };
}

/**
 * Sends one agent model call through a SillyTavern Connection Manager profile: the agent gets its own model
 * while the user's active connection stays as it is. A profile that no longer exists is an error, never a
 * silent switch to another model.
 */
export async function requestModelWithConnection(request: ModelRequest, connectionId: string, signal: AbortSignal): Promise<ModelReply> {
    const started = performance.now();
    try {
        const context = stContext();
        const openai = await importOpenAiModule();
        const maxTokens = Number(openai.oai_settings.openai_max_tokens ?? 1024) || 1024;
        const raw = await context.ConnectionManagerRequestService.sendRequest(
            connectionId,
            request.messages,
            maxTokens,
            { stream: false, signal, extractData: false, includePreset: true },
            { tools: request.tools, tool_choice: 'auto' },
        );
        const message = errorMessage(raw);
        if (message !== null) return { ok: false, status: null, message, aborted: false };
        return { ok: true, raw, durationMs: Math.round(performance.now() - started) };
    } catch (error) {
        return replyFromError(error, signal);
    }
}

/**
 * Reads a streamed response to its end: each SSE event goes into the accumulator, what has arrived so far
 * goes to `onPartial` (at most once per chunk read), and the result is the provider's non-streamed shape.
 * An abort rejects the read, as a non-streamed fetch would.
 */
async function readStream(
    response: Response,
    source: string,
    onPartial: ((partial: ReturnType<StreamAccumulator['partial']>) => void) | undefined,
): Promise<{ body: unknown; events: number; error: string | null; text: string }> {
    const accumulator = createStreamAccumulator(source);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    let count = 0;
    let error: string | null = null;
    /** The first of the text, for a response that turns out not to be SSE. */
    let text = '';
    for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        if (count === 0 && text.length < 1_000_000) text += value;
        const parsed = parseSse(buffer + value);
        buffer = parsed.rest;
        for (const event of parsed.events) {
            count += 1;
            // The backend reports an upstream failure inside the stream as an error object.
            const message = errorMessage(event);
            if (message !== null) error = message;
            else accumulator.push(event);
        }
        if (parsed.events.length > 0 && onPartial) onPartial(accumulator.partial());
    }
    const tail = parseSse(`${buffer}\n\n`);
    for (const event of tail.events) {
        count += 1;
        const message = errorMessage(event);
        if (message !== null) error = message;
        else accumulator.push(event);
    }
    return { body: accumulator.result(), events: count, error, text };
}

/** SillyTavern pipes the provider's stream without its content type: a 200 that is not JSON is the stream. */
export function isStreamResponse(response: Response): boolean {
    return response.ok && response.body !== null && !(response.headers.get('content-type') ?? '').includes('application/json');
}

/** A streamed response read to its end, as a reply: the accumulated body, the error the stream reported, or a one-piece answer. */
export async function replyFromStream(
    response: Response,
    source: string,
    onPartial: ((partial: ReturnType<StreamAccumulator['partial']>) => void) | undefined,
    started: number,
): Promise<ModelReply> {
    const streamed = await readStream(response, source, onPartial);
    const durationMs = Math.round(performance.now() - started);
    if (streamed.error !== null) return { ok: false, status: null, message: streamed.error, aborted: false };
    if (streamed.events > 0) return { ok: true, raw: streamed.body, durationMs };
    // No SSE at all: a provider that answered in one piece after all.
    let whole: unknown = null;
    try {
        whole = JSON.parse(streamed.text);
    } catch {
        whole = null;
    }
    const message = errorMessage(whole);
    if (whole === null || message !== null) return { ok: false, status: response.status, message: message ?? (streamed.text.slice(0, 200) || 'The stream ended without any data.'), aborted: false };
    return { ok: true, raw: whole, durationMs };
}

/**
 * Sends one agent model call with the user's current Chat Completion connection, through SillyTavern's
 * backend (API keys stay on the server). OpenAI-format tools; the backend converts them for Claude, Gemini
 * and the rest, and returns each provider's own response shape, decoded in the worker. When the connection
 * streams (SillyTavern's "Streaming" setting), so does the call: long calls stay clear of proxy time-outs,
 * and `onPartial` sees the text, reasoning and tool arguments as they arrive.
 */
export async function requestModel(
    request: ModelRequest,
    signal: AbortSignal,
    onPartial?: (partial: ReturnType<StreamAccumulator['partial']>) => void,
): Promise<ModelReply> {
    const started = performance.now();
    try {
        const openai = await importOpenAiModule();
        const settings = openai.oai_settings;
        const data = await runGenerationParameters(openai, request.runId, request.messages);
        const source = String(settings.chat_completion_source ?? '');
        const streaming = Boolean(settings.stream_openai);
        data.stream = streaming;
        data.tools = request.tools;
        data.tool_choice = 'auto';
        data.custom_prompt_post_processing = TOOL_SAFE_POST_PROCESSING[String(data.custom_prompt_post_processing ?? '')] ?? '';
        return await postChatCompletion(data, source, signal, streaming ? onPartial : null, started);
    } catch (error) {
        return replyFromError(error, signal);
    }
}

/**
 * Sends a built request body to SillyTavern's chat-completions backend and reads the answer: the stream when
 * `onPartial` is given and the backend streams, else the JSON body, its error, and any Retry-After.
 */
export async function postChatCompletion(
    data: Record<string, unknown>,
    source: string,
    signal: AbortSignal,
    onPartial: ((partial: ReturnType<StreamAccumulator['partial']>) => void) | null | undefined,
    started: number,
): Promise<ModelReply> {
    try {
        const response = await fetch('/api/backends/chat-completions/generate', {
            method: 'POST',
            headers: stContext().getRequestHeaders(),
            cache: 'no-cache',
            body: JSON.stringify(data),
            signal,
        });
        if (onPartial !== null && isStreamResponse(response)) return await replyFromStream(response, source, onPartial ?? undefined, started);
        const text = await response.text();
        let body: unknown = null;
        try {
            body = JSON.parse(text);
        } catch {
            body = null;
        }
        const durationMs = Math.round(performance.now() - started);
        const message = errorMessage(body);
        if (!response.ok || message !== null || body === null) {
            const why = message ?? (text.slice(0, 200) || response.statusText || 'no response body');
            const wait = retryAfterMs(response);
            return { ok: false, status: response.status, message: why, aborted: false, ...(wait === undefined ? {} : { retryAfterMs: wait }) };
        }
        return { ok: true, raw: body, durationMs };
    } catch (error) {
        return replyFromError(error, signal);
    }
}
