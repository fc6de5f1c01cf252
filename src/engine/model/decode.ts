import { decodeClaude } from './decode-claude';
import { envelopeProblem, isObject, malformed, type DecodeContext, type DecodeResult } from './decode-common';
import { decodeGemini } from './decode-gemini';
import { decodeOpenAi } from './decode-openai';
import { decodeText } from './decode-text';
import { TEXT_COMPLETION_SOURCE } from '../../contract/text-protocol/source';

export type { DecodeContext, DecodeResult } from './decode-common';
export { decodeClaude, decodeGemini, decodeOpenAi, decodeText };

export type Dialect = 'openai' | 'claude' | 'gemini' | 'text';

/** The dialect of a SillyTavern chat-completion source: only Claude and Gemini have their own response shape. */
export function dialectOfSource(source: string): Dialect {
    if (source === TEXT_COMPLETION_SOURCE) return 'text';
    if (source === 'claude') return 'claude';
    if (source === 'makersuite' || source === 'vertexai') return 'gemini';
    return 'openai';
}

/** The dialect a response looks like, or null. Claude is tested first: ST's Claude body also has `choices`. */
export function dialectOfShape(raw: unknown): Dialect | null {
    if (!isObject(raw)) return null;
    if (Array.isArray(raw.content) && raw.content.length > 0 && raw.content.every((b) => isObject(b) && typeof b.type === 'string')) return 'claude';
    if ('responseContent' in raw || Array.isArray(raw.candidates)) return 'gemini';
    if (Array.isArray(raw.choices) || isObject(raw.message)) return 'openai';
    return null;
}

const DECODERS = { openai: decodeOpenAi, claude: decodeClaude, gemini: decodeGemini, text: decodeText } as const;

/**
 * Turns the backend's JSON for one model request into a ModelTurn. The decoder is chosen by `source` (the
 * request's chat_completion_source) when given, else by the response's shape. A failure names what was wrong;
 * the run then fails with `model.malformed_response`.
 */
export function decodeModelResponse(raw: unknown, ctx: DecodeContext & { source?: string }): DecodeResult {
    const dialect = ctx.source ? dialectOfSource(ctx.source) : dialectOfShape(raw);
    if (dialect) return DECODERS[dialect](raw, { round: ctx.round });
    const problem = envelopeProblem(raw);
    if (problem) return malformed(problem);
    return malformed(`unrecognized response shape (keys: ${Object.keys(raw as object).slice(0, 8).join(', ') || 'none'})`);
}
