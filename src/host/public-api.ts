import type { AgentStatus } from '../contract/agent-mode';
import type { HealthReport } from '../contract/wire';
import { ENGINE_VERSION } from '../contract/version';
import { agentStatus, setAgentMode } from './agent-mode';
import { checkEngineHealth } from './engine-status';
import { activeRun, cancelActiveRun } from './run-controller';

/** The API other extensions and scripts use: `globalThis.TavernAgent`. Grows with the runtime. */
export interface TavernAgentApi {
    readonly version: string;
    status(): AgentStatus;
    /** Stops the running agent run, if any. */
    stop(): Promise<boolean>;
    setEnabled(enabled: boolean): Promise<AgentStatus>;
    health(): Promise<HealthReport>;
}

export function createPublicApi(): TavernAgentApi {
    return {
        version: ENGINE_VERSION,
        status: () => agentStatus(activeRun()),
        async setEnabled(enabled) {
            const result = await setAgentMode(enabled);
            if (!result.ok) throw new Error(result.error.message);
            return agentStatus();
        },
        health: checkEngineHealth,
        stop: () => cancelActiveRun('Stopped through the API.'),
    };
}

declare global {
    // eslint-disable-next-line no-var
    var TavernAgent: TavernAgentApi | undefined;
}
