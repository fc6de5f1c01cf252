// Scripted mock LLM server for end-to-end tests and the `npm start` demo.
// Speaks three provider dialects as SillyTavern 1.18 and 1.19 call them: OpenAI-compatible ('custom' source),
// Anthropic Messages ('claude' + reverse proxy) and Google AI Studio ('makersuite' + reverse proxy).
// Binds 127.0.0.1 only. CLI: `node --import tsx tests/harness/mock-model.ts --port 5005 [--log file.jsonl]`.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { classify } from './mock-model/classify';
import { claude } from './mock-model/claude';
import { usageOf, type DialectImpl, type ReplyCtx } from './mock-model/common';
import { gemini } from './mock-model/gemini';
import { openai } from './mock-model/openai';
import type { Dialect, MockModel, MockRoute, MockTurn, RecordedRequest } from './mock-model/types';

export type { Dialect, MockModel, MockRoute, MockToolCall, MockTurn, RecordedRequest } from './mock-model/types';

const DIALECTS: Record<Dialect, DialectImpl> = { openai, claude, gemini };
// Every wait is for something that must happen (none expects a timeout), so the bound only decides how long a
// real failure takes to show. On CI's two loaded cores a run's first request (SillyTavern assembling its prompt,
// the worker preparing) took over 5 s once; 20 s keeps such a wait from failing on load alone.
const DEFAULT_WAIT_MS = 20_000;

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseBody(raw: string): any {
  if (!raw) return null;
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

function sendJson(res: http.ServerResponse, status: number, data: unknown): void {
  const text = JSON.stringify(data);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function flatHeaders(h: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k] = Array.isArray(v) ? v.join(', ') : (v ?? '');
  return out;
}

const isTurn = (t: unknown): t is MockTurn => typeof t === 'object' && t !== null && !Array.isArray(t);

export async function startMockModel(opts: { port?: number; logFile?: string } = {}): Promise<MockModel> {
  let queue: MockTurn[] = [];
  let routes: Array<MockRoute & { next: number }> = [];
  let responder: ((req: RecordedRequest) => MockTurn | undefined) | null = null;
  let records: RecordedRequest[] = [];
  let seq = 0;
  let generationCount = 0;
  const waiters = new Set<() => void>();

  const generations = () => records.filter((r) => r.kind === 'generate');
  const notify = () => [...waiters].forEach((w) => w());
  const log = (rec: RecordedRequest) => {
    if (opts.logFile) fs.appendFileSync(opts.logFile, JSON.stringify(rec) + '\n');
  };

  function reset(): void {
    queue = [];
    routes = [];
    records = [];
    responder = null;
    seq = 0;
    generationCount = 0;
  }

  function routedTurn(rec: RecordedRequest): MockTurn | undefined {
    for (const route of routes) {
      if (route.next >= route.turns.length && !route.repeat) continue;
      if (!route.when(rec)) continue;
      const turn = route.turns[Math.min(route.next, route.turns.length - 1)];
      route.next += 1;
      if (turn) return turn;
    }
    return undefined;
  }

  function chooseTurn(rec: RecordedRequest, impl: DialectImpl, n: number): MockTurn {
    const routed = routedTurn(rec);
    if (routed) return routed;
    const queued = queue.shift();
    if (queued) return queued;
    const fromResponder = responder?.(rec);
    if (fromResponder) return fromResponder;
    return { text: `MOCK_REPLY#${n}: ${impl.lastUserText(rec.body).slice(0, 60)}` };
  }

  const heldStreams = new Set<() => void>();

  /** Resolves true on releaseStreams(), or false as soon as the client has gone away. */
  function hold(res: http.ServerResponse, gone: () => boolean): Promise<boolean> {
    if (gone()) return Promise.resolve(false);
    return new Promise((resolve) => {
      const release = () => {
        heldStreams.delete(release);
        res.off('close', onClose);
        resolve(true);
      };
      const onClose = () => {
        heldStreams.delete(release);
        resolve(false);
      };
      heldStreams.add(release);
      res.once('close', onClose);
      notify();
    });
  }

  /** Resolves true after `ms`, or false as soon as the client has gone away. */
  function wait(ms: number, res: http.ServerResponse, gone: () => boolean): Promise<boolean> {
    if (gone()) return Promise.resolve(false);
    return new Promise((resolve) => {
      const onClose = () => {
        clearTimeout(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        res.off('close', onClose);
        resolve(true);
      }, ms);
      res.once('close', onClose);
    });
  }

  function handleControl(method: string, url: URL, body: any, res: http.ServerResponse): void {
    const route = `${method} ${url.pathname.replace(/\/+$/, '')}`;
    if (route === 'POST /__mock/enqueue') {
      const turns: unknown[] = Array.isArray(body) ? body : [body];
      if (!turns.every(isTurn)) return sendJson(res, 400, { error: 'body must be a MockTurn object or an array of them' });
      queue.push(...turns);
      return sendJson(res, 200, { ok: true, queued: queue.length });
    }
    if (route === 'GET /__mock/requests') {
      const kind = url.searchParams.get('kind');
      return sendJson(res, 200, kind ? records.filter((r) => r.kind === kind) : records);
    }
    if (route === 'POST /__mock/reset') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    sendJson(res, 404, { error: `mock-model: no control route ${route}` });
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let clientGone = false;
    let rec: RecordedRequest | undefined;
    res.on('close', () => {
      if (!res.writableFinished) clientGone = true;
      if (!rec) return;
      rec.endedAt = Date.now();
      if (clientGone) rec.aborted = true;
      log(rec);
      notify();
    });

    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const body = parseBody(await readBody(req));
    if (url.pathname.startsWith('/__mock/')) return handleControl(method, url, body, res);

    const headers = flatHeaders(req.headers);
    const cls = classify(method, url, headers, body);
    rec = { seq: ++seq, at: Date.now(), method, path: req.url ?? '/', headers, body, dialect: cls.dialect, kind: cls.kind };
    records.push(rec);

    if (cls.kind === 'other' || !cls.dialect) {
      return sendJson(res, 404, { error: { message: `mock-model: no route for ${method} ${url.pathname}`, type: 'invalid_request_error', code: 'not_found' } });
    }
    const impl = DIALECTS[cls.dialect];
    if (cls.kind === 'models') return sendJson(res, 200, impl.models());

    const turn = chooseTurn(rec, impl, ++generationCount);
    rec.answeredWith = turn;
    notify();

    if (turn.delayMs && turn.delayMs > 0) {
      const done = await wait(turn.delayMs, res, () => clientGone);
      if (!done) return; // recorded as aborted by the close handler
    }
    if (turn.waitFor) await turn.waitFor.catch(() => undefined);
    if (clientGone) return;

    if (turn.status && turn.status >= 400) {
      return sendJson(res, turn.status, impl.error(turn.status, turn.error ?? `mock-model: scripted HTTP ${turn.status}`));
    }

    const ctx: ReplyCtx = { seq: rec.seq, model: cls.pathModel ?? String(body?.model ?? 'mock-model'), usage: usageOf(turn, body) };
    if (!cls.stream) return sendJson(res, 200, impl.completion(turn, ctx));

    const events = impl.streamEvents(turn, ctx);
    if (!cls.sse) return sendJson(res, 200, events.map((e) => e.data)); // Gemini streamGenerateContent without alt=sse
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    for (const [i, e] of events.entries()) {
      if (i === turn.streamHoldAfter && !(await hold(res, () => clientGone))) return; // recorded as aborted
      const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
      res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${data}${impl.sseEol}`);
    }
    res.end();
  }

  /** Resolves once `condition` holds: checked now and on every notify(), never by polling. */
  function waitUntil(condition: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        let holds: boolean;
        try {
          holds = condition();
        } catch (error) {
          // A test's condition must not break the request that notified it.
          cleanup();
          reject(error);
          return;
        }
        if (!holds) return;
        cleanup();
        resolve();
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`mock-model: waited ${timeoutMs} ms for ${what()}`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: `mock-model internal error: ${String(err)}`, type: 'server_error', code: null } });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    openaiBaseUrl: `${url}/v1`,
    enqueue: (...turns) => void queue.push(...turns),
    route: (route) => void routes.push({ ...route, next: 0 }),
    setResponder: (fn) => void (responder = fn),
    requests: () => [...records],
    generations,
    async waitForGenerations(n, timeoutMs = DEFAULT_WAIT_MS) {
      await waitUntil(() => generations().length >= n, timeoutMs, () => `${n} generation request(s), got ${generations().length}`);
      return generations();
    },
    waitUntil: (condition, what, timeoutMs = DEFAULT_WAIT_MS) => waitUntil(condition, timeoutMs, () => what),
    releaseStreams: () => [...heldStreams].forEach((release) => release()),
    reset,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function isMain(): boolean {
  const arg = process.argv[1];
  if (!arg) return false;
  try {
    return fs.realpathSync(arg) === fs.realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

function argValue(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.findIndex((a) => a === name || a.startsWith(`${name}=`));
  if (i < 0) return undefined;
  const a = args[i] ?? '';
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[i + 1];
}

if (isMain()) {
  const port = Number(argValue('--port') ?? 0);
  const logFile = argValue('--log');
  const mock = await startMockModel({ port, ...(logFile ? { logFile } : {}) });
  console.log(`MOCK_MODEL_LISTENING ${mock.url}`);
  const stop = () => void mock.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
