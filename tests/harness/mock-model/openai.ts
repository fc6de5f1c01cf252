// OpenAI Chat Completions dialect (SillyTavern source 'custom': POST ${custom_url}/chat/completions, GET ${custom_url}/models).
import { argsJson, lastUserTextIn, MODEL_IDS, pieces, type DialectImpl, type ReplyCtx, type SseEvent } from './common';
import type { MockTurn } from './types';

const callId = (turn: MockTurn, ctx: ReplyCtx, i: number): string => turn.toolCalls?.[i]?.id ?? `call_mock_${ctx.seq}_${i}`;

function usage(ctx: ReplyCtx) {
  return { prompt_tokens: ctx.usage.input, completion_tokens: ctx.usage.output, total_tokens: ctx.usage.input + ctx.usage.output };
}

const finishReason = (turn: MockTurn): string => (turn.toolCalls?.length ? 'tool_calls' : 'stop');

const ERROR_TYPES: Record<number, [string, string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
};

export const openai: DialectImpl = {
  name: 'openai',
  sseEol: '\n\n',

  lastUserText: (body) => lastUserTextIn(body?.messages, 'user', 'content'),

  completion(turn, ctx) {
    const calls = turn.toolCalls ?? [];
    const message: Record<string, unknown> = {
      role: 'assistant',
      content: turn.text ?? (calls.length ? null : ''),
    };
    if (turn.reasoning !== undefined) message.reasoning_content = turn.reasoning;
    if (calls.length) {
      message.tool_calls = calls.map((c, i) => ({
        id: callId(turn, ctx, i),
        type: 'function',
        function: { name: c.name, arguments: argsJson(c.arguments) },
      }));
    }
    return {
      id: `chatcmpl-mock-${ctx.seq}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: ctx.model,
      choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason(turn) }],
      usage: usage(ctx),
    };
  },

  streamEvents(turn, ctx) {
    const base = { id: `chatcmpl-mock-${ctx.seq}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: ctx.model };
    const chunk = (delta: unknown, finish: string | null = null, extra: object = {}): SseEvent => ({
      data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra },
    });
    const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
    for (const p of pieces(turn.reasoning ?? '')) events.push(chunk({ reasoning_content: p }));
    for (const p of pieces(turn.text ?? '')) events.push(chunk({ content: p }));
    (turn.toolCalls ?? []).forEach((c, index) => {
      events.push(chunk({ tool_calls: [{ index, id: callId(turn, ctx, index), type: 'function', function: { name: c.name, arguments: '' } }] }));
      for (const p of pieces(argsJson(c.arguments), 16)) events.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
    });
    events.push(chunk({}, finishReason(turn), { usage: usage(ctx) }));
    events.push({ data: '[DONE]' });
    return events;
  },

  error(status, message) {
    const [type, code] = ERROR_TYPES[status] ?? (status >= 500 ? ['server_error', null] : ['invalid_request_error', null]);
    return { error: { message, type, param: null, code } };
  },

  models() {
    return { object: 'list', data: MODEL_IDS.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'mock' })) };
  },
};
