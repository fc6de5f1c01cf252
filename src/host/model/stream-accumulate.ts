import type { ModelStreamDelta } from '../../contract/model-stream';

/**
 * Builds, from the chunks of one streamed response (as SillyTavern's backend forwards the provider's SSE),
 * the provider's non-streamed response shape, so the worker's decoders read a streamed call exactly as any
 * other. Meanwhile it reports what has arrived so far (text, reasoning, tool-call arguments) for the timeline.
 */
export interface StreamAccumulator {
    push(chunk: unknown): void;
    /** What has arrived so far, cumulative. */
    partial(): Omit<ModelStreamDelta, 'runId' | 'requestId' | 'round'>;
    /** The whole response, in the provider's non-streamed shape. */
    result(): unknown;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** OpenAI chat.completion.chunk (and the OpenAI-compatible sources). */
function openAiAccumulator(): StreamAccumulator {
    let content = '';
    let reasoning = '';
    let finishReason: unknown = null;
    let usage: unknown;
    const calls: Array<{ id: string; name: string; args: string }> = [];
    /** OpenRouter's encrypted reasoning (thought signatures), sent back with the calls they belong to. */
    const reasoningDetails: unknown[] = [];
    return {
        push(chunk) {
            if (!isObject(chunk)) return;
            if (isObject(chunk.usage)) usage = chunk.usage;
            const choice = Array.isArray(chunk.choices) && isObject(chunk.choices[0]) ? chunk.choices[0] : null;
            if (!choice) return;
            if (choice.finish_reason) finishReason = choice.finish_reason;
            const delta = isObject(choice.delta) ? choice.delta : isObject(choice.message) ? choice.message : {};
            content += str(delta.content);
            reasoning += str(delta.reasoning_content) || str(delta.reasoning);
            if (Array.isArray(delta.reasoning_details)) reasoningDetails.push(...delta.reasoning_details);
            for (const call of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
                if (!isObject(call)) continue;
                const fn = isObject(call.function) ? call.function : {};
                // Without an index (some OpenAI-compatible APIs), a piece with neither id nor name continues the last call.
                const continues = calls.length > 0 && !str(call.id) && !str(fn.name);
                const index = typeof call.index === 'number' ? call.index : continues ? calls.length - 1 : calls.length;
                const slot = (calls[index] ??= { id: '', name: '', args: '' });
                if (str(call.id)) slot.id = str(call.id);
                if (str(fn.name)) slot.name += str(fn.name);
                slot.args += str(fn.arguments);
            }
        },
        partial: () => ({ text: content, reasoning, toolCalls: calls.filter(Boolean).map((c) => ({ name: c.name, arguments: c.args })) }),
        result() {
            const toolCalls = calls.filter(Boolean).map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
            const message: Json = { role: 'assistant', content: content || (toolCalls.length ? null : '') };
            if (reasoning) message.reasoning_content = reasoning;
            if (toolCalls.length) message.tool_calls = toolCalls;
            if (reasoningDetails.length) message.reasoning_details = reasoningDetails;
            return { object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finishReason }], ...(usage ? { usage } : {}) };
        },
    };
}

/** Anthropic Messages events: message_start, content_block_start/delta/stop, message_delta. */
function claudeAccumulator(): StreamAccumulator {
    const blocks: Json[] = [];
    const partialJson: string[] = [];
    let stopReason: unknown = null;
    const usage: Json = {};
    return {
        push(event) {
            if (!isObject(event)) return;
            if (event.type === 'message_start' && isObject(event.message) && isObject(event.message.usage)) Object.assign(usage, event.message.usage);
            if (event.type === 'message_delta') {
                if (isObject(event.delta) && event.delta.stop_reason) stopReason = event.delta.stop_reason;
                if (isObject(event.usage)) Object.assign(usage, event.usage);
            }
            const index = typeof event.index === 'number' ? event.index : -1;
            if (event.type === 'content_block_start' && index >= 0 && isObject(event.content_block)) {
                blocks[index] = { ...event.content_block };
                partialJson[index] = '';
            }
            if (event.type === 'content_block_delta' && index >= 0 && isObject(event.delta)) {
                const block = (blocks[index] ??= { type: 'text', text: '' });
                const delta = event.delta;
                if (delta.type === 'text_delta') block.text = str(block.text) + str(delta.text);
                if (delta.type === 'thinking_delta') block.thinking = str(block.thinking) + str(delta.thinking);
                if (delta.type === 'signature_delta') block.signature = str(block.signature) + str(delta.signature);
                if (delta.type === 'input_json_delta') partialJson[index] = (partialJson[index] ?? '') + str(delta.partial_json);
            }
        },
        partial() {
            const list = blocks.filter(Boolean);
            return {
                text: list.filter((b) => b.type === 'text').map((b) => str(b.text)).join(''),
                reasoning: list.filter((b) => b.type === 'thinking').map((b) => str(b.thinking)).join(''),
                toolCalls: blocks.flatMap((b, i) => (b?.type === 'tool_use' ? [{ name: str(b.name), arguments: partialJson[i] ?? '' }] : [])),
            };
        },
        result() {
            const content = blocks.flatMap((block, i) => {
                if (!block) return [];
                if (block.type !== 'tool_use') return [block];
                let input: unknown = block.input ?? {};
                const text = partialJson[i] ?? '';
                if (text.trim()) {
                    try {
                        input = JSON.parse(text);
                    } catch {
                        input = text; // the decoder passes text through; the dispatcher reports it as invalid JSON
                    }
                }
                return [{ ...block, input }];
            });
            return { type: 'message', role: 'assistant', content, stop_reason: stopReason, usage };
        },
    };
}

/** Gemini streamGenerateContent chunks: candidates[0].content.parts, merged. */
function geminiAccumulator(): StreamAccumulator {
    const parts: Json[] = [];
    let finishReason: unknown = null;
    let usageMetadata: unknown;
    return {
        push(chunk) {
            if (!isObject(chunk)) return;
            if (isObject(chunk.usageMetadata)) usageMetadata = chunk.usageMetadata;
            const candidate = Array.isArray(chunk.candidates) && isObject(chunk.candidates[0]) ? chunk.candidates[0] : null;
            if (!candidate) return;
            if (candidate.finishReason) finishReason = candidate.finishReason;
            const incoming = isObject(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
            for (const part of incoming) {
                if (!isObject(part)) continue;
                const last = parts.at(-1);
                // Text pieces of the same kind (thought or not) join; calls and signatures stay their own parts.
                if (typeof part.text === 'string' && !part.functionCall && last && typeof last.text === 'string' && Boolean(last.thought) === Boolean(part.thought) && !last.thoughtSignature) {
                    last.text = str(last.text) + part.text;
                    if (part.thoughtSignature) last.thoughtSignature = part.thoughtSignature;
                } else {
                    parts.push({ ...part });
                }
            }
        },
        partial: () => ({
            text: parts.filter((p) => typeof p.text === 'string' && !p.thought).map((p) => str(p.text)).join(''),
            reasoning: parts.filter((p) => typeof p.text === 'string' && p.thought).map((p) => str(p.text)).join(''),
            toolCalls: parts.flatMap((p) => (isObject(p.functionCall) ? [{ name: str(p.functionCall.name), arguments: JSON.stringify(p.functionCall.args ?? {}) }] : [])),
        }),
        result: () => ({ candidates: [{ content: { role: 'model', parts }, finishReason }], ...(usageMetadata ? { usageMetadata } : {}) }),
    };
}

/**
 * Cohere v2 chat events (SillyTavern forwards them as Cohere sends them): message-start, content-start/delta
 * (text, or thinking on reasoning models), tool-plan-delta, tool-call-start/delta, message-end. The result is
 * Cohere's non-streamed body: `message` at the top level, which the OpenAI decoder reads.
 */
function cohereAccumulator(): StreamAccumulator {
    let id: unknown;
    let text = '';
    let thinking = '';
    let toolPlan = '';
    let finishReason: unknown = null;
    let usage: unknown;
    const calls: Array<{ id: string; name: string; args: string }> = [];
    return {
        push(event) {
            if (!isObject(event)) return;
            const delta = isObject(event.delta) ? event.delta : {};
            const message = isObject(delta.message) ? delta.message : {};
            const index = typeof event.index === 'number' ? event.index : calls.length;
            if (event.type === 'message-start') id = event.id;
            if (event.type === 'content-start' || event.type === 'content-delta') {
                const content = isObject(message.content) ? message.content : {};
                text += str(content.text);
                thinking += str(content.thinking);
            }
            if (event.type === 'tool-plan-delta') toolPlan += str(message.tool_plan);
            if (event.type === 'tool-call-start' || event.type === 'tool-call-delta') {
                const call = isObject(message.tool_calls) ? message.tool_calls : {};
                const fn = isObject(call.function) ? call.function : {};
                const slot = (calls[index] ??= { id: '', name: '', args: '' });
                if (str(call.id)) slot.id = str(call.id);
                if (str(fn.name)) slot.name += str(fn.name);
                slot.args += str(fn.arguments);
            }
            if (event.type === 'message-end') {
                if (delta.finish_reason) finishReason = delta.finish_reason;
                if (isObject(delta.usage)) usage = delta.usage;
            }
        },
        // The tool plan is Cohere's reasoning before its calls (the decoder reads it as reasoning too).
        partial: () => ({ text, reasoning: [thinking, toolPlan].filter(Boolean).join('\n\n'), toolCalls: calls.filter(Boolean).map((c) => ({ name: c.name, arguments: c.args })) }),
        result() {
            const content: Json[] = [];
            if (thinking) content.push({ type: 'thinking', thinking });
            if (text) content.push({ type: 'text', text });
            const message: Json = { role: 'assistant', content };
            if (toolPlan) message.tool_plan = toolPlan;
            const toolCalls = calls.filter(Boolean).map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: c.args } }));
            if (toolCalls.length) message.tool_calls = toolCalls;
            return { ...(id === undefined ? {} : { id }), finish_reason: finishReason, message, ...(usage ? { usage } : {}) };
        },
    };
}

/**
 * The accumulator for a chat completion source: Claude, Gemini and Cohere have their own shapes; the rest
 * (AI21 included: its /chat/completions streams OpenAI chunks) are OpenAI-shaped.
 */
export function createStreamAccumulator(source: string): StreamAccumulator {
    if (source === 'claude') return claudeAccumulator();
    if (source === 'cohere') return cohereAccumulator();
    if (source === 'makersuite' || source === 'vertexai') return geminiAccumulator();
    return openAiAccumulator();
}

/**
 * Splits SSE text into the JSON of its `data:` fields, event by event; returns the unfinished tail to keep.
 * `[DONE]` and non-JSON data are skipped.
 */
export function parseSse(buffer: string): { events: unknown[]; rest: string } {
    const events: unknown[] = [];
    const blocks = buffer.split(/\r?\n\r?\n/);
    const rest = blocks.pop() ?? '';
    for (const block of blocks) {
        const data = block
            .split(/\r?\n/)
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).replace(/^ /, ''))
            .join('\n');
        if (!data || data === '[DONE]') continue;
        try {
            events.push(JSON.parse(data));
        } catch {
            // A keep-alive comment or a provider's non-JSON line: nothing to accumulate.
        }
    }
    return { events, rest };
}
