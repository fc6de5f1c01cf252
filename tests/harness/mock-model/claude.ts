// Anthropic Messages dialect (SillyTavern source 'claude' with a reverse proxy: POST ${proxy}/messages).
import { argsJson, argsValue, lastUserTextIn, MODEL_IDS, pieces, type DialectImpl, type ReplyCtx, type SseEvent } from './common';
import type { MockTurn } from './types';

const toolId = (turn: MockTurn, ctx: ReplyCtx, i: number): string => turn.toolCalls?.[i]?.id ?? `toolu_mock_${ctx.seq}_${i}`;
const signature = (ctx: ReplyCtx): string => `sig-${ctx.seq}`;
const stopReason = (turn: MockTurn): string => (turn.toolCalls?.length ? 'tool_use' : 'end_turn');

const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  529: 'overloaded_error',
};

export const claude: DialectImpl = {
  name: 'claude',
  sseEol: '\n\n',

  lastUserText: (body) => lastUserTextIn(body?.messages, 'user', 'content'),

  completion(turn, ctx) {
    const content: unknown[] = [];
    if (turn.reasoning !== undefined) content.push({ type: 'thinking', thinking: turn.reasoning, signature: signature(ctx) });
    if (turn.text !== undefined || !turn.toolCalls?.length) content.push({ type: 'text', text: turn.text ?? '' });
    (turn.toolCalls ?? []).forEach((c, i) => content.push({ type: 'tool_use', id: toolId(turn, ctx, i), name: c.name, input: argsValue(c.arguments) }));
    return {
      id: `msg_mock_${ctx.seq}`,
      type: 'message',
      role: 'assistant',
      model: ctx.model,
      content,
      stop_reason: stopReason(turn),
      stop_sequence: null,
      usage: { input_tokens: ctx.usage.input, output_tokens: ctx.usage.output },
    };
  },

  streamEvents(turn, ctx) {
    const ev = (event: string, data: object): SseEvent => ({ event, data: { type: event, ...data } });
    const events: SseEvent[] = [
      ev('message_start', {
        message: {
          id: `msg_mock_${ctx.seq}`, type: 'message', role: 'assistant', model: ctx.model, content: [],
          stop_reason: null, stop_sequence: null, usage: { input_tokens: ctx.usage.input, output_tokens: 1 },
        },
      }),
      ev('ping', {}),
    ];
    let index = 0;
    if (turn.reasoning !== undefined) {
      events.push(ev('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }));
      for (const p of pieces(turn.reasoning)) events.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: p } }));
      events.push(ev('content_block_delta', { index, delta: { type: 'signature_delta', signature: signature(ctx) } }));
      events.push(ev('content_block_stop', { index }));
      index++;
    }
    if (turn.text !== undefined || !turn.toolCalls?.length) {
      events.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const p of pieces(turn.text ?? '')) events.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text: p } }));
      events.push(ev('content_block_stop', { index }));
      index++;
    }
    (turn.toolCalls ?? []).forEach((c, i) => {
      events.push(ev('content_block_start', { index, content_block: { type: 'tool_use', id: toolId(turn, ctx, i), name: c.name, input: {} } }));
      for (const p of pieces(argsJson(c.arguments), 16)) events.push(ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: p } }));
      events.push(ev('content_block_stop', { index }));
      index++;
    });
    events.push(ev('message_delta', { delta: { stop_reason: stopReason(turn), stop_sequence: null }, usage: { output_tokens: ctx.usage.output } }));
    events.push(ev('message_stop', {}));
    return events;
  },

  error(status, message) {
    return { type: 'error', error: { type: ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message } };
  },

  models() {
    const data = MODEL_IDS.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
    return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
  },
};
