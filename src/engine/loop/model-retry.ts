import type { ModelReply, ModelRequest } from '../../contract/model';

export interface RetryPolicy {
    maxRetries: number;
    baseDelayMs: number;
}

type FailedReply = Extract<ModelReply, { ok: false }>;

/** No single wait is longer than this, whatever the server asks: a run should not sit silent for minutes. */
export const MAX_RETRY_DELAY_MS = 30_000;

/** SillyTavern forwards an upstream error of the generic path as HTTP 200 with its status text. */
const RETRYABLE_MESSAGE = /too many requests|rate limit|internal server error|bad gateway|service unavailable|gateway timeout|overloaded|timed? ?out|network|failed to fetch|\b(408|429|5\d\d)\b/i;

/** The one place that decides which failures are worth another try: rate limits, time-outs, server errors. */
export function isRetryable(reply: FailedReply): boolean {
    if (reply.aborted) return false;
    if (reply.status !== null && reply.status !== 200) return reply.status === 408 || reply.status === 429 || reply.status >= 500;
    return RETRYABLE_MESSAGE.test(reply.message);
}

/**
 * How long to wait before retry `attempt` (1-based): the server's Retry-After when it sent one, else
 * exponential backoff with jitter (half to full of base·2^(attempt-1)), capped either way.
 */
export function retryDelay(attempt: number, reply: FailedReply, policy: RetryPolicy, random: () => number = Math.random): number {
    if (reply.retryAfterMs !== undefined && reply.retryAfterMs >= 0) return Math.min(reply.retryAfterMs, MAX_RETRY_DELAY_MS);
    const backoff = Math.min(policy.baseDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS);
    return Math.round(backoff * (0.5 + random() / 2));
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

/** Calls the model, retrying what `isRetryable` allows. Cancellation ends a wait at once, as an aborted reply. */
export async function requestWithRetry(
    send: (request: ModelRequest) => Promise<ModelReply>,
    request: ModelRequest,
    policy: RetryPolicy,
    signal: AbortSignal,
    onRetry: (attempt: number, delayMs: number, reply: FailedReply) => Promise<void>,
    random?: () => number,
): Promise<ModelReply> {
    for (let attempt = 1; ; attempt += 1) {
        const reply = await send(request);
        if (reply.ok || !isRetryable(reply) || attempt > policy.maxRetries || signal.aborted) return reply;
        const delayMs = retryDelay(attempt, reply, policy, random);
        await onRetry(attempt, delayMs, reply);
        await sleep(delayMs, signal);
        if (signal.aborted) return { ok: false, status: null, message: 'Cancelled.', aborted: true };
    }
}
