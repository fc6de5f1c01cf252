// A scripted mock Text Completion server for end-to-end tests of the text tool protocol (SPEC §9): speaks
// llama.cpp's `/completion` and the OpenAI-style `/v1/completions` (SillyTavern's "generic" type), streaming
// or not as the request asks, and records every request body. Binds 127.0.0.1 only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TextRequest {
    path: string;
    body: Record<string, any>; // a backend's request body as SillyTavern sent it, read field by field in tests
}

export interface MockTextCompletion {
    /** Base URL (no trailing slash): SillyTavern's server URL for llama.cpp or the generic type. */
    url: string;
    /** Queues the texts of the next generations, in order; when none is queued the model says "Idle.". */
    enqueue(...texts: string[]): void;
    /** Generation requests (POST /completion, /v1/completions), in order. */
    generations(): TextRequest[];
    /**
     * Holds the next generation without answering: resolves `arrived` when it comes in, and `closed` when
     * the client (SillyTavern's backend, on Stop) drops the connection.
     */
    holdNext(): { arrived: Promise<void>; closed: Promise<void> };
    /**
     * Streams the next streamed generation's first `pieces` pieces, then holds the rest until
     * `releaseStreams()`: a test looks at a half-streamed turn without racing the clock.
     */
    holdStreamAfter(pieces: number): void;
    releaseStreams(): void;
    reset(): void;
    close(): Promise<void>;
}

function readBody(req: http.IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        req.on('error', reject);
    });
}

function sendJson(res: http.ServerResponse, data: unknown): void {
    const text = JSON.stringify(data);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
}

/** Splits text into small pieces, as a model streams it. */
const pieces = (text: string) => text.match(/[\s\S]{1,7}/g) ?? [];

export async function startMockTextCompletion(): Promise<MockTextCompletion> {
    let queue: string[] = [];
    let records: TextRequest[] = [];
    let hold: { arrived: () => void; closed: () => void } | null = null;
    const held = new Set<http.ServerResponse>();
    let streamHold: number | null = null;
    const releases = new Set<() => void>();
    const server = http.createServer(async (req, res) => {
        const raw = await readBody(req);
        const path = (req.url ?? '/').split('?')[0]!;
        let body: Record<string, any> = {};
        try {
            body = raw ? JSON.parse(raw) : {};
        } catch {
            body = {};
        }
        if (req.method === 'GET' && path.endsWith('/models')) return sendJson(res, { object: 'list', data: [{ id: 'mock-llama', object: 'model' }] });
        if (path === '/props') return sendJson(res, { default_generation_settings: { n_ctx: 8192 } });
        if (path === '/tokenize') return sendJson(res, { tokens: pieces(String(body.content ?? '')).map((_, i) => i) });
        if (path === '/detokenize') return sendJson(res, { content: '' });
        const llama = path === '/completion';
        if (req.method !== 'POST' || !(llama || path === '/v1/completions')) {
            res.writeHead(404).end();
            return;
        }
        records.push({ path, body });
        if (hold) {
            const { arrived, closed } = hold;
            hold = null;
            held.add(res);
            res.on('close', () => {
                held.delete(res);
                closed();
            });
            arrived();
            return;
        }
        const text = queue.shift() ?? 'Idle.';
        const promptTokens = Math.ceil(String(body.prompt ?? '').length / 4);
        const outputTokens = Math.ceil(text.length / 4);
        if (!body.stream) {
            return sendJson(
                res,
                llama
                    ? { content: text, stop: true, stopped_eos: true, tokens_evaluated: promptTokens, tokens_predicted: outputTokens }
                    : { object: 'text_completion', model: 'mock-llama', choices: [{ index: 0, text, finish_reason: 'stop' }], usage: { prompt_tokens: promptTokens, completion_tokens: outputTokens, total_tokens: promptTokens + outputTokens } },
            );
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const holdAt = streamHold;
        streamHold = null;
        for (const [i, piece] of pieces(text).entries()) {
            if (i === holdAt) {
                held.add(res);
                const gone = await new Promise<boolean>((resolve) => {
                    const release = () => resolve(false);
                    releases.add(release);
                    res.on('close', () => resolve(true));
                });
                held.delete(res);
                if (gone) return;
            }
            res.write(`data: ${JSON.stringify(llama ? { content: piece, stop: false } : { choices: [{ index: 0, text: piece, finish_reason: null }] })}\n\n`);
        }
        if (llama) {
            res.write(`data: ${JSON.stringify({ content: '', stop: true, stopped_eos: true, tokens_evaluated: promptTokens, tokens_predicted: outputTokens })}\n\n`);
        } else {
            res.write(`data: ${JSON.stringify({ choices: [{ index: 0, text: '', finish_reason: 'stop' }], usage: { prompt_tokens: promptTokens, completion_tokens: outputTokens } })}\n\n`);
            res.write('data: [DONE]\n\n');
        }
        res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
        url: `http://127.0.0.1:${port}`,
        enqueue: (...texts) => void queue.push(...texts),
        generations: () => [...records],
        holdNext() {
            let arrived!: () => void;
            let closed!: () => void;
            const result = { arrived: new Promise<void>((resolve) => (arrived = resolve)), closed: new Promise<void>((resolve) => (closed = resolve)) };
            hold = { arrived, closed };
            return result;
        },
        holdStreamAfter(count) {
            streamHold = count;
        },
        releaseStreams() {
            for (const release of [...releases]) release();
            releases.clear();
        },
        reset() {
            queue = [];
            records = [];
        },
        close: () =>
            new Promise<void>((resolve) => {
                for (const res of held) res.destroy();
                server.close(() => resolve());
            }),
    };
}
