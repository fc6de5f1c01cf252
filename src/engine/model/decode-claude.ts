import * as z from 'zod';
import type { ToolCall } from '../../contract/model';
import { argumentsText, envelopeProblem, idFor, isObject, issueText, malformed, nonEmpty, num, str, usageOf, type DecodeContext, type DecodeResult, type Json } from './decode-common';

const BlockSchema = z.object({ type: z.string({ error: 'block has no type' }) }, { error: 'block is not an object' });
const TextSchema = z.object({ text: z.string({ error: 'text block has no text' }) });
const ThinkingSchema = z.object({ thinking: z.string({ error: 'thinking block has no thinking' }), signature: z.unknown().optional() });
const ToolUseSchema = z.object({
    id: z.unknown().optional(),
    name: z.string({ error: 'tool_use has no name' }).min(1, 'tool_use has an empty name'),
    input: z.unknown().optional(),
});

/**
 * Decodes what SillyTavern returns for source 'claude': `{choices:[{message:{content}}], content:[...]}` where
 * `content` is Anthropic's block list, untouched. ST drops `usage` and `stop_reason`; they are read when present
 * (a raw Messages API body). `redacted_thinking` blocks are skipped: ModelTurn has no place for them and ST's
 * Claude converter never sends thinking back.
 */
export function decodeClaude(raw: unknown, ctx: DecodeContext): DecodeResult {
    const problem = envelopeProblem(raw);
    if (problem) return malformed(`claude: ${problem}`);
    const body = raw as Json;
    if (!Array.isArray(body.content)) return malformed('claude: response has no content array');

    let text = '';
    const reasoning: string[] = [];
    let signature: string | undefined;
    const toolCalls: ToolCall[] = [];
    const seen = new Set<string>();

    for (const [i, block] of body.content.entries()) {
        const where = `claude: content[${i}]`;
        const head = BlockSchema.safeParse(block);
        if (!head.success) return malformed(issueText(where, head.error));
        if (head.data.type === 'text') {
            const parsed = TextSchema.safeParse(block);
            if (!parsed.success) return malformed(issueText(where, parsed.error));
            text += parsed.data.text;
        } else if (head.data.type === 'thinking') {
            const parsed = ThinkingSchema.safeParse(block);
            if (!parsed.success) return malformed(issueText(where, parsed.error));
            if (parsed.data.thinking) reasoning.push(parsed.data.thinking);
            signature = nonEmpty(parsed.data.signature) ?? signature;
        } else if (head.data.type === 'tool_use') {
            const parsed = ToolUseSchema.safeParse(block);
            if (!parsed.success) return malformed(issueText(where, parsed.error));
            toolCalls.push({
                id: idFor(parsed.data.id, seen, `toolu-r${ctx.round}-${toolCalls.length}`),
                name: parsed.data.name,
                argumentsText: argumentsText(parsed.data.input),
            });
        }
    }

    const usage = isObject(body.usage) ? body.usage : {};
    const cached = (num(usage.cache_creation_input_tokens) ?? 0) + (num(usage.cache_read_input_tokens) ?? 0);
    const counted = usageOf(usage.input_tokens, usage.output_tokens);
    return {
        ok: true,
        turn: {
            text,
            reasoning: reasoning.join('\n\n'),
            toolCalls,
            usage: counted && { input: counted.input + cached, output: counted.output },
            finishReason: str(body.stop_reason) ?? null,
            native: signature ? { signature } : {},
        },
    };
}
