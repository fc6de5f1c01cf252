import zlib from 'node:zlib';
import type { Page, Request } from 'playwright-core';

export interface TurnMeasure {
    /** Click on Send → SillyTavern idle again (body[data-generating] removed for the last time), in the page's clock. */
    wallMs: number;
    /** POST /api/chats/save requests from the click until the turn was over (plus a quiet period). */
    saves: number;
    /** Their JSON bodies, uncompressed (SillyTavern may gzip large saves). */
    saveBytes: number;
    /** The same bodies as sent over the wire. */
    saveWireBytes: number;
    messagesAdded: number;
}

const QUIET_MS = 250;

function bodyBytes(request: Request): { raw: number; wire: number } {
    const buffer = request.postDataBuffer();
    if (!buffer) return { raw: 0, wire: 0 };
    const encoding = request.headers()['content-encoding'] ?? '';
    if (/gzip/i.test(encoding)) {
        try {
            return { raw: zlib.gunzipSync(buffer).length, wire: buffer.length };
        } catch {
            /* not gzip after all */
        }
    }
    return { raw: buffer.length, wire: buffer.length };
}

/**
 * Sends one user message the way the Send button does and measures the turn: wall time in the page,
 * whole-chat saves and their bytes from Playwright's request events, messages added to the chat.
 */
export async function measureTurn(page: Page, text: string, timeoutMs = 60_000): Promise<TurnMeasure> {
    const saves: Array<{ raw: number; wire: number }> = [];
    const onRequest = (request: Request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/chats/save') saves.push(bodyBytes(request));
    };
    const before = await page.evaluate(() => SillyTavern!.getContext().chat.length);
    page.on('request', onRequest);
    try {
        await page.evaluate((message) => {
            const state = globalThis as unknown as { __benchTurn?: { start: number; idleAt: number; observer: MutationObserver } };
            state.__benchTurn?.observer.disconnect();
            const turn = { start: 0, idleAt: 0, observer: new MutationObserver(() => undefined) };
            // The last time SillyTavern leaves its generating state is the end of the turn (tool recursion
            // keeps the state on between rounds).
            turn.observer = new MutationObserver(() => {
                if (document.body.dataset.generating === undefined) turn.idleAt = performance.now();
            });
            turn.observer.observe(document.body, { attributes: true, attributeFilter: ['data-generating'] });
            state.__benchTurn = turn;
            const textarea = document.getElementById('send_textarea') as HTMLTextAreaElement;
            textarea.value = message;
            textarea.dispatchEvent(new Event('input', { bubbles: true }));
            turn.start = performance.now();
            (document.getElementById('send_but') as HTMLElement).click();
        }, text);
        await page.waitForFunction(
            (n) => {
                const stop = document.querySelector('#mes_stop');
                const send = document.querySelector('#send_but');
                return (
                    SillyTavern!.getContext().chat.length > n &&
                    document.body.dataset.generating === undefined &&
                    !!stop &&
                    getComputedStyle(stop).display === 'none' &&
                    !!send &&
                    !send.classList.contains('displayNone')
                );
            },
            before,
            { timeout: timeoutMs, polling: 50 },
        );
        // Saves that trail the turn (debounced) count too.
        await page.waitForTimeout(QUIET_MS);
        const result = await page.evaluate(() => {
            const turn = (globalThis as unknown as { __benchTurn: { start: number; idleAt: number; observer: MutationObserver } }).__benchTurn;
            turn.observer.disconnect();
            return { wallMs: turn.idleAt - turn.start, after: SillyTavern!.getContext().chat.length };
        });
        return {
            wallMs: result.wallMs,
            saves: saves.length,
            saveBytes: saves.reduce((sum, s) => sum + s.raw, 0),
            saveWireBytes: saves.reduce((sum, s) => sum + s.wire, 0),
            messagesAdded: result.after - before,
        };
    } finally {
        page.off('request', onRequest);
    }
}
