/**
 * Lets the worker handle its messages (a Stop among them) in the middle of a long tool: a loop that never
 * awaits keeps cancelRun queued until it ends. Call it every few tens of milliseconds, then check the signal.
 */
export function yieldToEvents(): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, 0));
}

/** A loop's pacer: `due()` is true once `everyMs` passed since the last yield. */
export function yieldPacer(everyMs = 50): { due(): boolean; yield(): Promise<void> } {
    let last = Date.now();
    return {
        due: () => Date.now() - last >= everyMs,
        async yield() {
            await yieldToEvents();
            last = Date.now();
        },
    };
}
