import { proxy, wrap, type Remote } from 'comlink';
import type { ScriptRequest, ScriptResult, ScriptRunner, ToolCallAnswer } from '../../contract/scripts';

/** The sandbox worker's API (src/sandbox-worker.ts), as the engine calls it. */
interface SandboxApi {
    run(request: ScriptRequest, wasmUrl: string, callTool: (name: string, args: unknown) => Promise<ToolCallAnswer>): Promise<ScriptResult>;
}

interface Slot {
    worker: Worker;
    api: Remote<SandboxApi>;
}

/** After its wall time, a script's worker has this long to answer before it is stopped for good. */
const GRACE_MS = 2_000;
/** Idle sandbox workers kept for the next script (each holds its loaded QuickJS). */
const KEEP_IDLE = 2;

/**
 * The engine's scripts (issue 35), each in a sandbox worker of its own: a script that spins never starves
 * the engine (its heartbeat, Stop, other sub-agents). A worker is started when a script first needs one and
 * kept for the next; one that outlives its script's time, or whose run is stopped, is terminated — the
 * last resort behind QuickJS's own interrupt handler.
 */
export function createSandboxPool(spawn: () => Worker, wasmUrl: () => string): ScriptRunner {
    const idle: Slot[] = [];
    const start = (): Slot => {
        const worker = spawn();
        return { worker, api: wrap<SandboxApi>(worker) };
    };
    return {
        async run(request, callTool, signal) {
            const slot = idle.pop() ?? start();
            let settled = false;
            let timer: ReturnType<typeof setTimeout> | undefined;
            let onAbort = () => undefined as void;
            let onError = (_event: Event) => undefined as void;
            const stopped = new Promise<ScriptResult>((resolve) => {
                const kill = (failure: 'timeout' | 'execution', message: string) => {
                    if (settled) return;
                    settled = true;
                    slot.worker.terminate();
                    resolve({ ok: false, failure, message, logs: [], console: '' });
                };
                timer = setTimeout(() => kill('timeout', `The script timed out after ${(request.limits.wallMs / 1000).toFixed(1)}s and was stopped.`), request.limits.wallMs + GRACE_MS);
                onAbort = () => kill('execution', 'The run was stopped.');
                onError = (event) => kill('execution', `The script sandbox failed: ${event instanceof ErrorEvent ? event.message : 'it could not start'}.`);
                if (signal.aborted) onAbort();
                signal.addEventListener('abort', onAbort, { once: true });
                slot.worker.addEventListener('error', onError);
            });
            try {
                return await Promise.race([slot.api.run(request, wasmUrl(), proxy(callTool)), stopped]);
            } finally {
                clearTimeout(timer);
                signal.removeEventListener('abort', onAbort);
                slot.worker.removeEventListener('error', onError);
                if (!settled) {
                    settled = true;
                    if (idle.length < KEEP_IDLE) idle.push(slot);
                    else slot.worker.terminate();
                }
            }
        },
    };
}

/**
 * The pool of this engine's worker: dist/sandbox.js beside dist/worker.js, and QuickJS's dist/quickjs.wasm.
 * Nothing is looked up or started until a script runs.
 */
export function workerSandboxPool(): ScriptRunner {
    const beside = (file: string) => new URL(file, globalThis.location.href);
    return createSandboxPool(
        () => new Worker(beside('sandbox.js'), { type: 'module', name: 'tavern-agent-sandbox' }),
        () => beside('quickjs.wasm').href,
    );
}
