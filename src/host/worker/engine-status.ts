import { getEngine } from './worker-client';
import type { HealthReport } from '../../contract/wire';

/** Where the worker stands, as the panel's footer shows it. */
export type EngineStatus =
    | { phase: 'idle' }
    | { phase: 'starting' }
    | { phase: 'ready'; health: HealthReport }
    | { phase: 'error'; message: string };

let status: EngineStatus = { phase: 'idle' };
const listeners = new Set<(status: EngineStatus) => void>();

/** Told the engine's status now and at every change (src/runtime.ts passes it on to the panel). */
export function onEngineStatus(listener: (status: EngineStatus) => void): () => void {
    listeners.add(listener);
    listener(status);
    return () => listeners.delete(listener);
}

function report(next: EngineStatus): void {
    status = next;
    for (const listener of listeners) listener(next);
}

/** Starts the worker if needed and asks it for a health report, reporting the outcome to the listeners. */
export async function checkEngineHealth(): Promise<HealthReport> {
    if (status.phase === 'idle') report({ phase: 'starting' });
    try {
        const engine = await getEngine();
        const health = await engine.health();
        if (!health.ok) throw new Error(`${health.error.message} (${health.error.code})`);
        report({ phase: 'ready', health: health.value });
        return health.value;
    } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        report({ phase: 'error', message });
        throw error;
    }
}
