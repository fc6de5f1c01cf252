// Google AI Studio (Gemini) dialect (SillyTavern source 'makersuite' with a reverse proxy:
// POST ${proxy}/v1beta/models/<model>:generateContent?key=… or :streamGenerateContent?key=…&alt=sse; GET ${proxy}/v1beta/models).
import { argsValue, lastUserTextIn, MODEL_IDS, pieces, type DialectImpl, type ReplyCtx, type SseEvent } from './common';
import type { MockTurn } from './types';

const signature = (ctx: ReplyCtx): string => `sig-${ctx.seq}`;

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

function usageMetadata(turn: MockTurn, ctx: ReplyCtx) {
  const meta: Record<string, number> = {
    promptTokenCount: ctx.usage.input,
    candidatesTokenCount: ctx.usage.output,
    totalTokenCount: ctx.usage.input + ctx.usage.output,
  };
  if (turn.reasoning !== undefined) meta.thoughtsTokenCount = Math.max(1, Math.ceil(turn.reasoning.length / 4));
  return meta;
}

/**
 * Function-call parts have no ids (Gemini has none). With reasoning, the thought part and (as real Gemini does)
 * the first functionCall part carry `thoughtSignature`.
 */
function callParts(turn: MockTurn, ctx: ReplyCtx): object[] {
  return (turn.toolCalls ?? []).map((c, i) => ({
    functionCall: { name: c.name, args: argsValue(c.arguments) },
    ...(i === 0 && turn.reasoning !== undefined ? { thoughtSignature: signature(ctx) } : {}),
  }));
}

const thoughtPart = (turn: MockTurn, ctx: ReplyCtx, text: string) => ({ text, thought: true, thoughtSignature: signature(ctx) });

export const gemini: DialectImpl = {
  name: 'gemini',
  sseEol: '\r\n\r\n',

  lastUserText: (body) => lastUserTextIn(body?.contents, 'user', 'parts'),

  completion(turn, ctx) {
    const parts: object[] = [];
    if (turn.reasoning !== undefined) parts.push(thoughtPart(turn, ctx, turn.reasoning));
    if (turn.text !== undefined || !turn.toolCalls?.length) parts.push({ text: turn.text ?? '' });
    parts.push(...callParts(turn, ctx));
    return {
      candidates: [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: usageMetadata(turn, ctx),
      modelVersion: ctx.model,
      responseId: `mock-${ctx.seq}`,
    };
  },

  streamEvents(turn, ctx) {
    const chunk = (parts: object[], last = false): SseEvent => ({
      data: {
        candidates: [{ content: { parts, role: 'model' }, ...(last ? { finishReason: 'STOP' } : {}), index: 0 }],
        usageMetadata: usageMetadata(turn, ctx),
        modelVersion: ctx.model,
        responseId: `mock-${ctx.seq}`,
      },
    });
    const groups: object[][] = [];
    for (const p of pieces(turn.reasoning ?? '')) groups.push([{ text: p, thought: true }]);
    // The signature arrives with the last thought chunk.
    if (groups.length) groups[groups.length - 1] = [thoughtPart(turn, ctx, (groups[groups.length - 1]![0] as { text: string }).text)];
    for (const p of pieces(turn.text ?? '')) groups.push([{ text: p }]);
    const calls = callParts(turn, ctx);
    if (calls.length) groups.push(calls);
    if (!groups.length) groups.push([{ text: '' }]);
    return groups.map((g, i) => chunk(g, i === groups.length - 1));
  },

  error(status, message) {
    return { error: { code: status, message, status: STATUS_NAMES[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } };
  },

  models() {
    return {
      models: MODEL_IDS.map((id) => ({
        name: `models/${id}`,
        version: '001',
        displayName: id,
        description: 'Mock model',
        inputTokenLimit: 1048576,
        outputTokenLimit: 65536,
        supportedGenerationMethods: ['generateContent', 'countTokens'],
      })),
    };
  },
};
