import type { Page } from 'playwright-core';

/**
 * The used JS heap of the page's dedicated worker(s), after a full garbage collection, through CDP:
 * performance.measureUserAgentSpecificMemory needs cross-origin isolation, which the bench page lacks.
 * Workers are reached with Target.setAutoAttach on the page's session and messages sent to each one.
 */
export async function workerHeapBytes(page: Page): Promise<number[]> {
    const session = await page.context().newCDPSession(page);
    const workers: string[] = [];
    const replies = new Map<number, (result: unknown) => void>();
    session.on('Target.attachedToTarget', (event: { sessionId: string; targetInfo: { type: string } }) => {
        if (event.targetInfo.type === 'worker') workers.push(event.sessionId);
    });
    session.on('Target.receivedMessageFromTarget', (event: { message: string }) => {
        const message = JSON.parse(event.message) as { id?: number; result?: unknown };
        if (message.id !== undefined) replies.get(message.id)?.(message.result);
    });
    let nextId = 1;
    const send = (sessionId: string, method: string) =>
        new Promise<unknown>((resolve) => {
            const id = nextId++;
            replies.set(id, resolve);
            void session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method }) });
        });
    try {
        await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
        // Existing workers are reported as they attach.
        for (let i = 0; i < 50 && workers.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
        const heaps: number[] = [];
        for (const worker of workers) {
            await send(worker, 'HeapProfiler.enable');
            await send(worker, 'HeapProfiler.collectGarbage');
            const usage = (await send(worker, 'Runtime.getHeapUsage')) as { usedSize: number };
            heaps.push(usage.usedSize);
        }
        return heaps;
    } finally {
        await session.detach().catch(() => undefined);
    }
}
