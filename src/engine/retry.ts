import type { ModelReply, ModelRequest } from '../contract/model';

export interface RetryPolicy {
    maxRetries: number;
    baseDelayMs: number;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
        if (signal.aborted) return resolve();
        const timer = setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
        function done() {
            clearTimeout(timer);
            signal.removeEventListener('abort', done);
            resolve();
        }
    });
}

/**
 * Calls the model, retrying rate limits and server errors with exponential backoff (base, 2×base, 4×base…).
 * Cancellation ends the wait at once and is reported as an aborted reply.
 */
export async function requestWithRetry(
    send: (request: ModelRequest) => Promise<ModelReply>,
    request: ModelRequest,
    policy: RetryPolicy,
    signal: AbortSignal,
    onRetry: (attempt: number, delayMs: number, reply: Extract<ModelReply, { ok: false }>) => Promise<void>,
): Promise<ModelReply> {
    for (let attempt = 0; ; attempt += 1) {
        const reply = await send(request);
        if (reply.ok || reply.aborted || !reply.retryable || attempt >= policy.maxRetries || signal.aborted) return reply;
        const delayMs = policy.baseDelayMs * 2 ** attempt;
        await onRetry(attempt + 1, delayMs, reply);
        await sleep(delayMs, signal);
        if (signal.aborted) return { ok: false, status: null, message: 'Cancelled.', retryable: false, aborted: true };
    }
}
