import { engineState } from '../ui/state';
import { getEngine } from './worker-client';
import type { HealthReport } from '../contract/wire';

/** Starts the worker if needed and asks it for a health report, mirroring the outcome in the panel. */
export async function checkEngineHealth(): Promise<HealthReport> {
    if (engineState.value.phase === 'idle') engineState.value = { phase: 'starting' };
    try {
        const engine = await getEngine();
        const health = await engine.health();
        if (!health.ok) throw new Error(`${health.error.message} (${health.error.code})`);
        engineState.value = { phase: 'ready', health: health.value };
        return health.value;
    } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        engineState.value = { phase: 'error', message };
        throw error;
    }
}
