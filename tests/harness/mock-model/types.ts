// Public types of the scripted mock LLM server (re-exported by ../mock-model.ts).

/** One tool call. `arguments`: an object (JSON-encoded for OpenAI), or a raw string sent verbatim (non-JSON test). */
export type MockToolCall = { name: string; arguments: unknown; id?: string };

export type MockTurn = {
  /** Assistant text. */
  text?: string;
  /** Thinking text (Claude: thinking block + signature 'sig-<n>'; Gemini: thought part + thoughtSignature; OpenAI: reasoning_content). */
  reasoning?: string;
  toolCalls?: MockToolCall[];
  /** Answer with this HTTP error status (e.g. 429, 500) in the provider's error shape instead of a completion. */
  status?: number;
  /** Error message for `status`. */
  error?: string;
  /** Wait this long before answering; abortable (a client disconnect stops the wait and records `aborted: true`). */
  delayMs?: number;
  /** Answer only once this settles (in-process scripts only): a test acts mid-run without racing a timer. */
  waitFor?: Promise<unknown>;
  usage?: { input: number; output: number };
  /**
   * Streaming only: after this many SSE events, hold the rest until `releaseStreams()` (or the client goes
   * away), so a test can look at a half-streamed answer without racing the clock.
   */
  streamHoldAfter?: number;
};

export type Dialect = 'openai' | 'claude' | 'gemini';

export interface RecordedRequest {
  seq: number;
  at: number;
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
  dialect: Dialect | null;
  kind: 'generate' | 'models' | 'other';
  aborted?: boolean;
  answeredWith?: MockTurn;
  /** When the answer was fully sent, or the client went away (ms since epoch): [at, endedAt] is the time in flight. */
  endedAt?: number;
}

/** Answers the requests `when` matches, with `turns` in order (the last one again once they run out, if `repeat`). */
export interface MockRoute {
  when: (req: RecordedRequest) => boolean;
  turns: MockTurn[];
  repeat?: boolean;
}

export interface MockModel {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  /** `${url}/v1`: what SillyTavern's custom_url is set to. */
  openaiBaseUrl: string;
  enqueue(...turns: MockTurn[]): void;
  /**
   * Consulted before the queue: the first route whose `when` matches and has a turn left answers. For runs
   * where several agents ask at once (a parent and its sub-agents), so each gets its own script.
   */
  route(route: MockRoute): void;
  /** Consulted when the queue is empty. */
  setResponder(fn: ((req: RecordedRequest) => MockTurn | undefined) | null): void;
  /** Every request, in order. */
  requests(): RecordedRequest[];
  /** Only model generation requests. */
  generations(): RecordedRequest[];
  waitForGenerations(n: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /**
   * Resolves once `condition` holds, checked now and again whenever a request arrives or a response ends
   * (is sent, aborted, and logged); rejects after `timeoutMs` naming `what`.
   */
  waitUntil(condition: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Lets every held stream (see MockTurn.streamHoldAfter) go on to its end. */
  releaseStreams(): void;
  /** Clears queue, routes, records, responder. */
  reset(): void;
  close(): Promise<void>;
}
