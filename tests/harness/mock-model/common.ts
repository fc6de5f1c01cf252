// Shared helpers and the interface each provider dialect implements.
import type { Dialect, MockTurn } from './types';

/** What a dialect needs to build one answer. */
export interface ReplyCtx {
  /** Request sequence number (used for ids and signatures). */
  seq: number;
  /** Model id from the request (body.model, or the Gemini path). */
  model: string;
  usage: { input: number; output: number };
}

/** One SSE event; `data` is JSON-encoded unless it is a string (e.g. '[DONE]'). */
export interface SseEvent { event?: string; data: unknown }

export interface DialectImpl {
  name: Dialect;
  /** Line ending used between SSE events. */
  sseEol: string;
  lastUserText(body: any): string;
  completion(turn: MockTurn, ctx: ReplyCtx): unknown;
  streamEvents(turn: MockTurn, ctx: ReplyCtx): SseEvent[];
  error(status: number, message: string): unknown;
  models(): unknown;
}

/** Model ids every model list advertises. */
export const MODEL_IDS = ['mock-model', 'gpt-4o-mini', 'claude-sonnet-4-5', 'gemini-2.5-flash'];

/** Splits text into small pieces (streaming). */
export function pieces(s: string, size = 8): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

/** Tool arguments as a string: raw strings verbatim, anything else JSON-encoded. */
export function argsJson(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}

/** Tool arguments as a value: objects as is; strings parsed as JSON when possible, else kept raw. */
export function argsValue(args: unknown): unknown {
  if (typeof args !== 'string') return args ?? {};
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

export function estimateTokens(s: string): number {
  return Math.max(1, Math.ceil(s.length / 4));
}

/** Default usage of a turn: rough chars/4 estimate of the request and of the answer. */
export function usageOf(turn: MockTurn, body: unknown): { input: number; output: number } {
  if (turn.usage) return turn.usage;
  const out = (turn.text ?? '') + (turn.reasoning ?? '') + (turn.toolCalls ?? []).map((c) => c.name + argsJson(c.arguments)).join('');
  return { input: estimateTokens(JSON.stringify(body ?? '')), output: estimateTokens(out) };
}

/** Text of a message content: a string, or an array of parts/blocks with `text` (tool results etc. are skipped). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p) => p && typeof p === 'object' && typeof p.text === 'string' && p.type !== 'tool_result' && !p.thought)
    .map((p) => p.text as string)
    .join('\n');
}

/** Text of the last user-role entry that has any text (tool-result-only entries are skipped). */
export function lastUserTextIn(list: unknown, userRole: string, contentKey: string): string {
  if (!Array.isArray(list)) return '';
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i];
    if (!m || typeof m !== 'object' || m.role !== userRole) continue;
    const text = textOf(m[contentKey]);
    if (text) return text;
  }
  return '';
}
