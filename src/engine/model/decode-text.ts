import type { ToolCall } from '../../contract/model';
import { invalidCallHint, parseTextTurn } from '../../contract/text-protocol/parse';
import { envelopeProblem, isObject, malformed, num, str, usageOf, type DecodeContext, type DecodeResult, type Json } from './decode-common';

/**
 * The generated text of a Text Completion backend's JSON, as SillyTavern passes it on: OpenAI-style
 * `choices[0].text` (generic, KoboldCpp, Tabby, Ooba…), llama.cpp's `content`, Ollama's `response`.
 */
function generatedText(body: Json): string | undefined {
    if (Array.isArray(body.choices)) {
        const choice = body.choices.find((c) => isObject(c) && (c.index === 0 || c.index === undefined)) ?? body.choices[0];
        if (isObject(choice)) return str(choice.text) ?? (isObject(choice.message) ? str(choice.message.content) : undefined);
    }
    return str(body.content) ?? str(body.response);
}

function finishReasonOf(body: Json): string | null {
    if (Array.isArray(body.choices) && isObject(body.choices[0])) return str(body.choices[0].finish_reason) ?? null;
    // llama.cpp: stopped_limit means n_predict ran out; Ollama: done_reason.
    if (body.stopped_limit === true) return 'length';
    if (body.stopped_eos === true || body.stopped_word === true) return 'stop';
    return str(body.done_reason) ?? str(body.stop_type) ?? null;
}

/** Token counts where the backend reports them (OpenAI usage, llama.cpp tokens_*, Ollama eval counts). */
function usageOfBody(body: Json) {
    const usage = isObject(body.usage) ? body.usage : {};
    const timings = isObject(body.timings) ? body.timings : {};
    return (
        usageOf(usage.prompt_tokens, usage.completion_tokens) ??
        usageOf(body.tokens_evaluated, body.tokens_predicted) ??
        usageOf(timings.prompt_n, timings.predicted_n) ??
        usageOf(body.prompt_eval_count, body.eval_count) ??
        (num(body.tokens_predicted) !== undefined ? { input: 0, output: num(body.tokens_predicted)! } : null)
    );
}

/**
 * Reasoning models (Qwen 3, DeepSeek R1 distills) think inside `<think>…</think>` first: that is reasoning,
 * not narration, and a call written while thinking is not a call. An unclosed block at the start (the
 * template opened it) runs to the first `</think>`.
 */
function splitThinking(text: string): { reasoning: string; rest: string } {
    const parts: string[] = [];
    let rest = withoutThinkBlocks(text, parts);
    const orphan = rest.indexOf('</think>');
    if (orphan >= 0 && !rest.slice(0, orphan).includes('<tool_call>')) {
        parts.unshift(rest.slice(0, orphan).trim());
        rest = rest.slice(orphan + '</think>'.length);
    }
    return { reasoning: parts.filter(Boolean).join('\n\n'), rest };
}

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';

/**
 * The text without its closed `<think>…</think>` blocks (their insides go to `parts`), in one pass: once no
 * closing tag is left, the rest is text (a pattern here would rescan the rest for every unclosed opening).
 */
function withoutThinkBlocks(text: string, parts: string[]): string {
    const kept: string[] = [];
    let at = 0;
    for (;;) {
        const open = text.indexOf(THINK_OPEN, at);
        const close = open < 0 ? -1 : text.indexOf(THINK_CLOSE, open + THINK_OPEN.length);
        if (close < 0) break;
        kept.push(text.slice(at, open));
        parts.push(text.slice(open + THINK_OPEN.length, close).trim());
        at = close + THINK_CLOSE.length;
    }
    kept.push(text.slice(at));
    return kept.join('');
}

/**
 * Decodes a Text Completion response (SPEC §9 text tool protocol): the narration and the
 * `<tool_call>` blocks the model wrote. Repaired calls run and the repairs are named; unreadable ones
 * become invalid calls the dispatcher answers with `tool.invalid_arguments`.
 */
export function decodeText(raw: unknown, ctx: DecodeContext): DecodeResult {
    const problem = envelopeProblem(raw);
    if (problem) return malformed(`text: ${problem}`);
    const body = raw as Json;
    const text = generatedText(body);
    if (text === undefined) return malformed('text: response has no generated text (choices[0].text or content)');
    const { reasoning, rest } = splitThinking(text);
    const parsed = parseTextTurn(rest);
    const repairs: string[] = [];
    const toolCalls: ToolCall[] = parsed.calls.map((call, i) => {
        const id = `call-r${ctx.round}-${i}`;
        if (call.ok) {
            if (call.repairs.length > 0) repairs.push(`call ${i + 1} (${call.name}): ${call.repairs.join(', ')}`);
            return { id, name: call.name, argumentsText: JSON.stringify(call.arguments) };
        }
        // An empty name marks the call as the model wrote it, so it is shown back verbatim.
        return { id, name: '', argumentsText: call.raw, invalid: { message: `Tool call ${i + 1} could not be read: ${call.message}.`, hint: invalidCallHint(call.name) } };
    });
    return {
        ok: true,
        turn: {
            text: parsed.text,
            reasoning,
            toolCalls,
            usage: usageOfBody(body),
            finishReason: finishReasonOf(body),
            native: {},
            ...(repairs.length > 0 ? { repairs } : {}),
        },
    };
}
