import * as z from 'zod';
import type { ToolCall } from '../../contract/model';
import { argumentsText, envelopeProblem, isObject, issueText, malformed, nonEmpty, num, str, type DecodeContext, type DecodeResult, type Json } from './decode-common';

const PartSchema = z.object(
    {
        text: z.string({ error: 'text is not a string' }).optional(),
        thought: z.unknown().optional(),
        thoughtSignature: z.unknown().optional(),
        functionCall: z
            .object(
                {
                    name: z.string({ error: 'functionCall has no name' }).min(1, 'functionCall has an empty name'),
                    args: z.unknown().optional(),
                },
                { error: 'functionCall is not an object' },
            )
            .optional(),
    },
    { error: 'part is not an object' },
);

/** ST's body carries `responseContent` (candidates[0].content); a raw generateContent body carries `candidates`. */
function locate(body: Json): { content: unknown; candidate: Json; where: string } | string {
    if ('responseContent' in body) return { content: body.responseContent, candidate: {}, where: 'responseContent' };
    if (!Array.isArray(body.candidates)) return 'response has no responseContent';
    const candidate = body.candidates[0];
    if (!isObject(candidate)) return 'response has no candidates';
    return { content: candidate.content ?? candidate.output, candidate, where: 'candidates[0].content' };
}

/**
 * Decodes what SillyTavern returns for 'makersuite' / 'vertexai': `{choices:[{message:{content}}], responseContent}`,
 * where `responseContent` is Gemini's `candidates[0].content` ({parts, role}). ST drops `usageMetadata` and
 * `finishReason`, so usage and finishReason are null unless present (a raw generateContent body).
 * Gemini gives function calls no ids: they get `gemini-r<round>-<n>` (n counts calls in this response), the same
 * on every decode of the same response.
 */
export function decodeGemini(raw: unknown, ctx: DecodeContext): DecodeResult {
    const problem = envelopeProblem(raw);
    if (problem) return malformed(`gemini: ${problem}`);
    const body = raw as Json;
    const located = locate(body);
    if (typeof located === 'string') return malformed(`gemini: ${located}`);
    const { content, candidate, where } = located;

    let parts: unknown[];
    if (typeof content === 'string') parts = [{ text: content }];
    else if (isObject(content) && Array.isArray(content.parts)) parts = content.parts;
    else return malformed(`gemini: ${where} has no parts`);

    let text = '';
    const reasoning: string[] = [];
    let signature: string | undefined;
    const toolCalls: ToolCall[] = [];

    for (const [i, rawPart] of parts.entries()) {
        const parsed = PartSchema.safeParse(rawPart);
        if (!parsed.success) return malformed(issueText(`gemini: ${where}.parts[${i}]`, parsed.error));
        const part = parsed.data;
        const partSignature = nonEmpty(part.thoughtSignature);
        if (part.functionCall) {
            toolCalls.push({
                id: `gemini-r${ctx.round}-${toolCalls.length}`,
                name: part.functionCall.name,
                argumentsText: argumentsText(part.functionCall.args),
                ...(partSignature ? { signature: partSignature } : {}),
            });
        } else if (part.text !== undefined) {
            if (part.thought === true) {
                if (part.text) reasoning.push(part.text);
            } else {
                text += part.text;
            }
            signature = partSignature ?? signature;
        }
    }

    const meta = isObject(body.usageMetadata) ? body.usageMetadata : {};
    const input = num(meta.promptTokenCount);
    return {
        ok: true,
        turn: {
            text,
            reasoning: reasoning.join('\n\n'),
            toolCalls,
            // Thinking tokens count as output, as they do in the other dialects' output counts.
            usage: input === undefined ? null : { input, output: (num(meta.candidatesTokenCount) ?? 0) + (num(meta.thoughtsTokenCount) ?? 0) },
            finishReason: str(candidate.finishReason) ?? null,
            native: signature ? { signature } : {},
        },
    };
}
