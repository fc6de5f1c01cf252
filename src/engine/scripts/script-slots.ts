/**
 * At most `size` scripts of one run at once (issue 35); the others wait their turn, in order. A waiter whose
 * run is cancelled stops waiting.
 */
export class ScriptSlots {
    private busy = 0;
    private readonly waiting: Array<() => void> = [];

    constructor(private readonly size: number) {}

    async take(signal: AbortSignal): Promise<() => void> {
        if (this.busy >= this.size) {
            await new Promise<void>((resolve, reject) => {
                const onAbort = () => {
                    const index = this.waiting.indexOf(go);
                    if (index >= 0) this.waiting.splice(index, 1);
                    reject(signal.reason);
                };
                const go = () => {
                    signal.removeEventListener('abort', onAbort);
                    resolve();
                };
                this.waiting.push(go);
                signal.addEventListener('abort', onAbort, { once: true });
            });
        }
        this.busy += 1;
        let released = false;
        return () => {
            if (released) return;
            released = true;
            this.busy -= 1;
            this.waiting.shift()?.();
        };
    }
}
