import * as z from 'zod';
import type { ToolCall } from '../../contract/model';
import { argumentsText, envelopeProblem, idFor, isObject, issueText, malformed, nonEmpty, str, usageOf, type DecodeContext, type DecodeResult, type Json } from './decode-common';

const ToolCallSchema = z.object({
    id: z.unknown().optional(),
    function: z.object(
        {
            name: z.string({ error: 'tool call has no name' }).min(1, 'tool call has an empty name'),
            arguments: z.unknown().optional(),
        },
        { error: 'tool call has no function' },
    ),
});

const ReasoningDetailSchema = z.object({ type: z.literal('reasoning.encrypted'), data: z.string().min(1), id: z.unknown().optional() });

/** `content` as a string, null, or an array of parts (`{type:'text',text}`; Mistral/Cohere `thinking` parts are reasoning). */
function readContent(content: unknown): { text: string; reasoning: string[] } | string {
    if (content === undefined || content === null) return { text: '', reasoning: [] };
    if (typeof content === 'string') return { text: content, reasoning: [] };
    if (!Array.isArray(content)) return `content is a ${typeof content}`;
    let text = '';
    const reasoning: string[] = [];
    for (const part of content) {
        if (typeof part === 'string') text += part;
        else if (!isObject(part)) continue;
        else if (part.type === 'thinking') {
            const thinking = Array.isArray(part.thinking) ? part.thinking.map((t) => (isObject(t) ? (str(t.text) ?? '') : '')).join('') : (str(part.thinking) ?? '');
            if (thinking) reasoning.push(thinking);
        } else if ((part.type === undefined || part.type === 'text') && typeof part.text === 'string') text += part.text;
    }
    return { text, reasoning };
}

/**
 * Decodes what SillyTavern returns for OpenAI-compatible sources (the provider's JSON unchanged):
 * `choices[0].message` with `content`, `tool_calls`, `reasoning_content`/`reasoning`, plus `usage` and `finish_reason`.
 * Cohere's v2 body (`message` at the top level, no `choices`) is read the same way.
 */
export function decodeOpenAi(raw: unknown, ctx: DecodeContext): DecodeResult {
    const problem = envelopeProblem(raw);
    if (problem) return malformed(`openai: ${problem}`);
    const body = raw as Json;

    let choice: Json;
    if (Array.isArray(body.choices)) {
        const found = body.choices.find((c) => isObject(c) && c.index === 0) ?? body.choices[0];
        if (!isObject(found)) return malformed('openai: response has no choices');
        choice = found;
    } else if (isObject(body.message)) {
        choice = { message: body.message, finish_reason: body.finish_reason };
    } else {
        return malformed('openai: response has no choices');
    }
    const message = choice.message;
    if (!isObject(message)) return malformed('openai: choices[0] has no message');

    const content = readContent(message.content);
    if (typeof content === 'string') return malformed(`openai: choices[0].message.${content}`);

    const reasoning = [nonEmpty(message.reasoning_content) ?? nonEmpty(message.reasoning) ?? '', ...content.reasoning, str(message.tool_plan) ?? '']
        .filter((r) => r !== '')
        .join('\n\n');

    // OpenRouter: encrypted reasoning for a tool call carries that call's id; the rest is the turn's signature.
    const encrypted = (Array.isArray(message.reasoning_details) ? message.reasoning_details : [])
        .map((d) => ReasoningDetailSchema.safeParse(d))
        .flatMap((r) => (r.success ? [r.data] : []));
    const callSignature = (id: string) => encrypted.find((d) => d.id === id)?.data;
    const turnSignature = encrypted.filter((d) => !(typeof d.id === 'string' && /^(tool_|call_)/.test(d.id))).at(-1)?.data;

    const rawCalls = message.tool_calls === undefined || message.tool_calls === null ? [] : Array.isArray(message.tool_calls) ? message.tool_calls : [message.tool_calls];
    const toolCalls: ToolCall[] = [];
    const seen = new Set<string>();
    for (const [i, rawCall] of rawCalls.entries()) {
        const parsed = ToolCallSchema.safeParse(rawCall);
        if (!parsed.success) return malformed(issueText(`openai: tool_calls[${i}]`, parsed.error));
        const id = idFor(parsed.data.id, seen, `call-r${ctx.round}-${i}`);
        const signature = typeof parsed.data.id === 'string' ? callSignature(parsed.data.id) : undefined;
        toolCalls.push({
            id,
            name: parsed.data.function.name,
            argumentsText: argumentsText(parsed.data.function.arguments),
            ...(signature ? { signature } : {}),
        });
    }

    const usage = isObject(body.usage) ? body.usage : {};
    const cohereTokens = isObject(usage.tokens) ? usage.tokens : {};
    return {
        ok: true,
        turn: {
            text: content.text,
            reasoning,
            toolCalls,
            usage: usageOf(usage.prompt_tokens, usage.completion_tokens) ?? usageOf(cohereTokens.input_tokens, cohereTokens.output_tokens),
            finishReason: str(choice.finish_reason) ?? null,
            native: turnSignature ? { signature: turnSignature } : {},
        },
    };
}
