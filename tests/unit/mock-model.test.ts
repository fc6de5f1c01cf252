// Unit test of the scripted mock LLM server, with real fetch against the running server.
// Run: node --import tsx --test tests/unit/mock-model.test.ts
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startMockModel, type MockModel } from '../harness/mock-model';

let mock: MockModel;
const logFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mock-model-test-')), 'mock.jsonl');

before(async () => {
  mock = await startMockModel({ logFile });
});
after(async () => {
  await mock.close();
  fs.rmSync(path.dirname(logFile), { recursive: true, force: true });
});
beforeEach(() => mock.reset());

const json = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});
const userMsg = (content: string) => ({ messages: [{ role: 'system', content: 'sys' }, { role: 'user', content }], model: 'mock-model' });
const claudeHeaders = { 'x-api-key': 'pw', 'anthropic-version': '2023-06-01' };
const claudeBody = (text: string, stream = false) => ({ model: 'claude-sonnet-4-5', max_tokens: 64, stream, messages: [{ role: 'user', content: [{ type: 'text', text }] }] });
const geminiBody = (text: string) => ({ contents: [{ role: 'user', parts: [{ text }] }], generationConfig: { candidateCount: 1 } });
const geminiUrl = (method: string, query = '?key=pw') => `${mock.url}/v1beta/models/gemini-2.5-flash:${method}${query}`;

/** Parses an SSE body into events (event name + parsed JSON data, or the raw string such as '[DONE]'). */
async function readSse(res: Response): Promise<{ event?: string; data: any }[]> {
  assert.equal(res.headers.get('content-type'), 'text/event-stream');
  const text = await res.text();
  return text
    .split(/\r\n\r\n|\n\n/)
    .filter((b) => b.trim())
    .map((block) => {
      const lines = block.split(/\r\n|\n/);
      const event = lines.find((l) => l.startsWith('event: '))?.slice(7);
      const data = lines.filter((l) => l.startsWith('data: ')).map((l) => l.slice(6)).join('\n');
      return { ...(event ? { event } : {}), data: data === '[DONE]' ? data : JSON.parse(data) };
    });
}

describe('openai dialect', () => {
  it('non-streaming text reply with reasoning and usage', async () => {
    mock.enqueue({ text: 'hello there', reasoning: 'pondering', usage: { input: 11, output: 3 } });
    const res = await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg('hi')));
    assert.equal(res.status, 200);
    const data: any = await res.json();
    assert.equal(data.object, 'chat.completion');
    const choice = data.choices.find((c: any) => c.index === 0); // ToolManager looks the choice up by index 0
    assert.equal(choice.message.role, 'assistant');
    assert.equal(choice.message.content, 'hello there');
    assert.equal(choice.message.reasoning_content, 'pondering');
    assert.equal(choice.finish_reason, 'stop');
    assert.equal(choice.message.tool_calls, undefined);
    assert.deepEqual(data.usage, { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 });
    const [g] = mock.generations();
    assert.equal(g?.dialect, 'openai');
    assert.equal(g?.kind, 'generate');
    assert.equal(g?.path, '/v1/chat/completions');
    assert.equal(g?.body.messages[1].content, 'hi');
  });

  it('non-streaming tool calls: ids, JSON-string arguments, raw arguments verbatim', async () => {
    mock.enqueue({ toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }, { name: 'raw', arguments: 'not json{', id: 'call_fixed' }] });
    const data: any = await (await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg('use tools')))).json();
    const msg = data.choices[0].message;
    assert.equal(msg.content, null);
    assert.equal(data.choices[0].finish_reason, 'tool_calls');
    assert.equal(msg.tool_calls.length, 2);
    assert.match(msg.tool_calls[0].id, /^call_/);
    assert.equal(msg.tool_calls[0].type, 'function');
    assert.deepEqual(msg.tool_calls[0].function, { name: 'lookup', arguments: '{"q":"x"}' });
    assert.deepEqual(msg.tool_calls[1], { id: 'call_fixed', type: 'function', function: { name: 'raw', arguments: 'not json{' } });
  });

  it('streaming: text in small chunks and tool-call deltas reassemble; ends with [DONE]', async () => {
    const text = 'A streamed reply that is longer than one chunk.';
    mock.enqueue({ text, reasoning: 'hmm', toolCalls: [{ name: 'fn_a', arguments: { a: 1, b: 'two' } }, { name: 'fn_b', arguments: {} }] });
    const events = await readSse(await fetch(`${mock.openaiBaseUrl}/chat/completions`, json({ ...userMsg('go'), stream: true })));
    assert.equal(events.at(-1)?.data, '[DONE]');
    const chunks = events.slice(0, -1).map((e) => e.data);
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
    let content = '';
    let reasoning = '';
    const calls: { id?: string; type?: string; name: string; arguments: string }[] = [];
    for (const c of chunks) {
      const d = c.choices[0].delta;
      content += d.content ?? '';
      reasoning += d.reasoning_content ?? '';
      for (const t of d.tool_calls ?? []) {
        const slot = (calls[t.index] ??= { name: '', arguments: '' });
        if (t.id) slot.id = t.id;
        if (t.type) slot.type = t.type;
        slot.name += t.function?.name ?? '';
        slot.arguments += t.function?.arguments ?? '';
      }
    }
    assert.ok(chunks.filter((c) => c.choices[0].delta.content).length > 3, 'text arrives in several pieces');
    assert.equal(content, text);
    assert.equal(reasoning, 'hmm');
    assert.equal(calls.length, 2);
    assert.equal(calls[0]?.type, 'function');
    assert.match(calls[0]?.id ?? '', /^call_/);
    assert.deepEqual(JSON.parse(calls[0]?.arguments ?? ''), { a: 1, b: 'two' });
    assert.equal(calls[1]?.name, 'fn_b');
    assert.equal(calls[1]?.arguments, '{}');
    assert.equal(chunks.at(-1).choices[0].finish_reason, 'tool_calls');
    assert.ok(chunks.at(-1).usage.total_tokens > 0);
  });

  it('GET /v1/models returns an OpenAI model list (recorded as kind models)', async () => {
    const data: any = await (await fetch(`${mock.openaiBaseUrl}/models`, { headers: { authorization: 'Bearer ' } })).json();
    assert.equal(data.object, 'list');
    assert.ok(data.data.some((m: any) => m.id === 'mock-model'));
    const [r] = mock.requests();
    assert.equal(r?.kind, 'models');
    assert.equal(r?.dialect, 'openai');
    assert.equal(mock.generations().length, 0);
  });
});

describe('turn selection', () => {
  it('queue order, then responder, then the default reply (never a tool call)', async () => {
    mock.enqueue({ text: 'first' }, { text: 'second' });
    const send = async (content: string) => (await (await fetch(`${mock.openaiBaseUrl}/chat/completions`, json({ ...userMsg(content), tools: [{ type: 'function', function: { name: 't' } }] }))).json()) as any;
    assert.equal((await send('a')).choices[0].message.content, 'first');
    assert.equal((await send('b')).choices[0].message.content, 'second');
    const long = 'x'.repeat(50) + 'y'.repeat(50);
    const def = (await send(long)).choices[0];
    assert.equal(def.message.content, `MOCK_REPLY#3: ${long.slice(0, 60)}`);
    assert.equal(def.message.tool_calls, undefined);
    assert.equal(def.finish_reason, 'stop');

    mock.setResponder((req) => (req.body?.messages?.at(-1)?.content === 'ask' ? { text: 'from responder' } : undefined));
    mock.enqueue({ text: 'queued wins' });
    assert.equal((await send('ask')).choices[0].message.content, 'queued wins');
    assert.equal((await send('ask')).choices[0].message.content, 'from responder');
    assert.equal((await send('other')).choices[0].message.content, 'MOCK_REPLY#6: other');
    assert.deepEqual(mock.generations().map((g) => g.answeredWith?.text), ['first', 'second', `MOCK_REPLY#3: ${long.slice(0, 60)}`, 'queued wins', 'from responder', 'MOCK_REPLY#6: other']);
    assert.deepEqual(mock.generations().map((g) => g.seq), [1, 2, 3, 4, 5, 6]);
  });

  it('routes answer the requests they match, before the queue, each from its own script; every request records when it ended', async () => {
    const send = async (content: string) => (await (await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg(content)))).json()) as any;
    mock.route({ when: (req) => JSON.stringify(req.body).includes('child'), turns: [{ text: 'child 1' }, { text: 'child 2' }], repeat: true });
    mock.route({ when: (req) => JSON.stringify(req.body).includes('parent'), turns: [{ text: 'parent 1' }] });
    mock.enqueue({ text: 'queued' });
    assert.equal((await send('parent')).choices[0].message.content, 'parent 1');
    assert.equal((await send('child')).choices[0].message.content, 'child 1');
    assert.equal((await send('parent')).choices[0].message.content, 'queued', 'a route without turns left gives way');
    assert.equal((await send('child')).choices[0].message.content, 'child 2');
    assert.equal((await send('child')).choices[0].message.content, 'child 2', 'repeat: the last turn again');
    for (const g of mock.generations()) assert.ok(typeof g.endedAt === 'number' && g.endedAt >= g.at);
    mock.reset();
    assert.match((await send('child')).choices[0].message.content, /^MOCK_REPLY/, 'reset clears routes');
  });

  it('waitForGenerations resolves on arrival and rejects on timeout', async () => {
    const waiting = mock.waitForGenerations(2, 1000);
    await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg('one')));
    await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg('two')));
    assert.equal((await waiting).length, 2);
    await assert.rejects(mock.waitForGenerations(3, 30), /waited 30 ms for 3 generation/);
  });
});

describe('errors and delays', () => {
  it('HTTP 429/500 turns use each provider error shape (also for stream requests)', async () => {
    mock.enqueue({ status: 429, error: 'slow down' }, { status: 500, error: 'boom' }, { status: 429, error: 'quota' }, { status: 500 });
    const a = await fetch(`${mock.openaiBaseUrl}/chat/completions`, json({ ...userMsg('x'), stream: true }));
    assert.equal(a.status, 429);
    assert.match(a.headers.get('content-type') ?? '', /application\/json/);
    assert.deepEqual(((await a.json()) as any).error, { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' });
    const b = await fetch(`${mock.url}/v1/messages`, json(claudeBody('x'), claudeHeaders));
    assert.equal(b.status, 500);
    assert.deepEqual(await b.json(), { type: 'error', error: { type: 'api_error', message: 'boom' } });
    const c = await fetch(geminiUrl('generateContent'), json(geminiBody('x')));
    assert.equal(c.status, 429);
    assert.deepEqual(await c.json(), { error: { code: 429, message: 'quota', status: 'RESOURCE_EXHAUSTED' } });
    const d = await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg('x')));
    assert.equal(d.status, 500);
    assert.equal(((await d.json()) as any).error.type, 'server_error');
  });

  it('a delayed turn aborted by the client is recorded as aborted, and the next turn is answered', async () => {
    mock.enqueue({ text: 'too late', delayMs: 5000 });
    const ctrl = new AbortController();
    const request = fetch(`${mock.openaiBaseUrl}/chat/completions`, { ...json(userMsg('wait')), signal: ctrl.signal });
    // Abort once the mock holds the request (it is waiting out the delay), not after a guessed time.
    await mock.waitForGenerations(1);
    ctrl.abort();
    await assert.rejects(request, { name: 'AbortError' });
    await mock.waitUntil(() => mock.generations()[0]?.aborted === true, 'the request to be recorded as aborted');
    assert.equal(mock.generations()[0]?.answeredWith?.text, 'too late');
    mock.enqueue({ text: 'quick', delayMs: 20 });
    const ok: any = await (await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg('next')))).json();
    assert.equal(ok.choices[0].message.content, 'quick');
    assert.equal(mock.generations()[1]?.aborted, undefined);
  });
});

describe('claude dialect', () => {
  it('non-streaming text with a thinking block', async () => {
    mock.enqueue({ text: 'Claude says hi', reasoning: 'let me think' });
    const res = await fetch(`${mock.url}/v1/messages`, json(claudeBody('hello claude'), claudeHeaders));
    const data: any = await res.json();
    assert.equal(data.type, 'message');
    assert.equal(data.role, 'assistant');
    assert.deepEqual(data.content[0], { type: 'thinking', thinking: 'let me think', signature: 'sig-1' });
    // SillyTavern: extractMessageFromData joins text blocks; extractReasoningFromData joins thinking blocks
    assert.equal(data.content.filter((p: any) => p.type === 'text').map((p: any) => p.text).join('\n\n'), 'Claude says hi');
    assert.equal(data.stop_reason, 'end_turn');
    assert.ok(data.usage.input_tokens > 0 && data.usage.output_tokens > 0);
    const [g] = mock.generations();
    assert.equal(g?.dialect, 'claude');
    assert.equal(g?.headers['x-api-key'], 'pw');
  });

  it('non-streaming tool_use and the default reply reads the last user text block', async () => {
    mock.enqueue({ toolCalls: [{ name: 'lookup', arguments: { q: 'x' } }] });
    const data: any = await (await fetch(`${mock.url}/v1/messages`, json(claudeBody('call it'), claudeHeaders))).json();
    assert.equal(data.stop_reason, 'tool_use');
    const tools = data.content.filter((c: any) => c.type === 'tool_use');
    assert.equal(tools.length, 1);
    assert.match(tools[0].id, /^toolu_/);
    assert.equal(tools[0].name, 'lookup');
    assert.deepEqual(tools[0].input, { q: 'x' });
    const body = { ...claudeBody('x'), messages: [{ role: 'user', content: [{ type: 'text', text: 'original ask' }] }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'lookup', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'result' }] }] };
    const def: any = await (await fetch(`${mock.url}/v1/messages`, json(body, claudeHeaders))).json();
    assert.equal(def.content[0].text, 'MOCK_REPLY#2: original ask');
  });

  it('streaming Anthropic events reassemble', async () => {
    mock.enqueue({ text: 'streamed claude text', reasoning: 'deep thought', toolCalls: [{ name: 'fn', arguments: { k: [1, 2] } }] });
    const events = await readSse(await fetch(`${mock.url}/v1/messages`, json(claudeBody('go', true), claudeHeaders)));
    assert.equal(events[0]?.event, 'message_start');
    assert.equal(events.at(-1)?.event, 'message_stop');
    assert.ok(events.every((e) => e.event === e.data.type));
    const text = events.map((e) => e.data.delta?.text ?? '').join('');
    const thinking = events.map((e) => e.data.delta?.thinking ?? '').join('');
    const json2 = events.map((e) => e.data.delta?.partial_json ?? '').join('');
    assert.equal(text, 'streamed claude text');
    assert.equal(thinking, 'deep thought');
    assert.equal(events.find((e) => e.data.delta?.type === 'signature_delta')?.data.delta.signature, 'sig-1');
    assert.deepEqual(JSON.parse(json2), { k: [1, 2] });
    const start = events.find((e) => e.data.content_block?.type === 'tool_use');
    assert.equal(start?.data.content_block.name, 'fn');
    assert.match(start?.data.content_block.id, /^toolu_/);
    assert.equal(events.find((e) => e.event === 'message_delta')?.data.delta.stop_reason, 'tool_use');
  });
});

describe('gemini dialect', () => {
  it('GET /v1beta/models returns the Google model list', async () => {
    const data: any = await (await fetch(`${mock.url}/v1beta/models?key=pw&pageSize=1000`)).json();
    assert.ok(data.models.length > 0);
    assert.ok(data.models.every((m: any) => m.name.startsWith('models/') && m.supportedGenerationMethods.includes('generateContent')));
    assert.equal(data.nextPageToken, undefined);
    assert.equal(mock.requests()[0]?.dialect, 'gemini');
    assert.equal(mock.requests()[0]?.kind, 'models');
  });

  it('non-streaming text with a thought part, and the default reply', async () => {
    mock.enqueue({ text: 'Gemini text', reasoning: 'thinking...' });
    const data: any = await (await fetch(geminiUrl('generateContent'), json(geminiBody('hi gemini')))).json();
    const parts = data.candidates[0].content.parts;
    assert.equal(data.candidates[0].content.role, 'model');
    assert.equal(data.candidates[0].finishReason, 'STOP');
    assert.deepEqual(parts[0], { text: 'thinking...', thought: true, thoughtSignature: 'sig-1' });
    // SillyTavern's backend: parts.filter(p => !p.thought).map(p => p.text).join('\n\n')
    assert.equal(parts.filter((p: any) => !p.thought).map((p: any) => p.text).join('\n\n'), 'Gemini text');
    assert.ok(data.usageMetadata.promptTokenCount > 0);
    const g = mock.generations()[0];
    assert.equal(g?.dialect, 'gemini');
    assert.equal(g?.path, '/v1beta/models/gemini-2.5-flash:generateContent?key=pw');
    const def: any = await (await fetch(geminiUrl('generateContent'), json(geminiBody('hi gemini')))).json();
    assert.equal(def.candidates[0].content.parts[0].text, 'MOCK_REPLY#2: hi gemini');
  });

  it('functionCall parts carry name/args and no ids', async () => {
    mock.enqueue({ toolCalls: [{ name: 'lookup', arguments: { q: 'x' }, id: 'ignored' }, { name: 'other', arguments: '{"n":2}' }] });
    const data: any = await (await fetch(geminiUrl('generateContent'), json(geminiBody('tools')))).json();
    const calls = data.candidates[0].content.parts.filter((p: any) => p.functionCall);
    assert.deepEqual(calls.map((p: any) => p.functionCall), [{ name: 'lookup', args: { q: 'x' } }, { name: 'other', args: { n: 2 } }]);
    assert.ok(!JSON.stringify(data).includes('"id"'), 'Gemini has no tool-call ids');
  });

  it('streamGenerateContent?alt=sse sends candidate chunks', async () => {
    mock.enqueue({ text: 'a streamed gemini reply', toolCalls: [{ name: 'fn', arguments: { z: true } }] });
    const events = await readSse(await fetch(geminiUrl('streamGenerateContent', '?key=pw&alt=sse'), json(geminiBody('s'))));
    const parts = events.flatMap((e) => e.data.candidates[0].content.parts);
    assert.equal(parts.filter((p: any) => typeof p.text === 'string').map((p: any) => p.text).join(''), 'a streamed gemini reply');
    assert.deepEqual(parts.find((p: any) => p.functionCall)?.functionCall, { name: 'fn', args: { z: true } });
    assert.equal(events.at(-1)?.data.candidates[0].finishReason, 'STOP');
  });
});

describe('control API, log file, CLI', () => {
  it('POST /__mock/enqueue, GET /__mock/requests, POST /__mock/reset', async () => {
    const q: any = await (await fetch(`${mock.url}/__mock/enqueue`, json([{ text: 'ctl one' }, { text: 'ctl two' }]))).json();
    assert.deepEqual(q, { ok: true, queued: 2 });
    await fetch(`${mock.url}/__mock/enqueue`, json({ text: 'ctl three' }));
    assert.equal((await fetch(`${mock.url}/__mock/enqueue`, json('nope'))).status, 400);
    for (const expected of ['ctl one', 'ctl two', 'ctl three']) {
      const r: any = await (await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg('c')))).json();
      assert.equal(r.choices[0].message.content, expected);
    }
    await fetch(`${mock.openaiBaseUrl}/models`);
    const all: any = await (await fetch(`${mock.url}/__mock/requests`)).json();
    assert.equal(all.length, 4, 'control calls are not recorded');
    const gens: any = await (await fetch(`${mock.url}/__mock/requests?kind=generate`)).json();
    assert.deepEqual(gens.map((g: any) => g.answeredWith.text), ['ctl one', 'ctl two', 'ctl three']);
    mock.enqueue({ text: 'dropped' });
    assert.deepEqual(await (await fetch(`${mock.url}/__mock/reset`, { method: 'POST' })).json(), { ok: true });
    assert.equal(mock.requests().length, 0);
    const r: any = await (await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg('after reset')))).json();
    assert.equal(r.choices[0].message.content, 'MOCK_REPLY#1: after reset');
  });

  it('appends each request to the log file as a JSON line', async () => {
    const logged = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : []);
    await fetch(`${mock.openaiBaseUrl}/chat/completions`, json(userMsg('logged line')));
    // The mock logs a request when its response has ended, which may be after the client has read it.
    await mock.waitUntil(() => logged().some((l) => l.body?.messages?.[1]?.content === 'logged line'), 'the request to be logged');
    const lines = logged();
    const last = lines.at(-1);
    assert.equal(last.body.messages[1].content, 'logged line');
    assert.equal(last.dialect, 'openai');
    assert.equal(last.answeredWith.text, 'MOCK_REPLY#1: logged line');
  });

  it('runs as a CLI and prints MOCK_MODEL_LISTENING', async () => {
    const script = fileURLToPath(new URL('../harness/mock-model.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', script, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          if (out.includes('\n')) resolve(out.trim());
        });
        child.once('exit', (code) => reject(new Error(`CLI exited early with ${code}`)));
      });
      const m = /^MOCK_MODEL_LISTENING (http:\/\/127\.0\.0\.1:(\d+))$/.exec(line);
      assert.ok(m, line);
      const data: any = await (await fetch(`${m[1]}/v1/chat/completions`, json(userMsg('cli')))).json();
      assert.equal(data.choices[0].message.content, 'MOCK_REPLY#1: cli');
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
    }
  });
});
