import { signal } from '@preact/signals';
import type { AgentStatus } from '../contract/agent-mode';
import type { HealthReport } from '../contract/wire';

/** The panel's state: small signals fed by SillyTavern events and the worker, read by the components. */
export const panelOpen = signal(false);

export const chatStatus = signal<AgentStatus>({ enabled: false, chatId: null, profileId: 'writer', run: null });

type EngineState =
    | { phase: 'idle' }
    | { phase: 'starting' }
    | { phase: 'ready'; health: HealthReport }
    | { phase: 'error'; message: string };

export const engineState = signal<EngineState>({ phase: 'idle' });

/** True while a switch change is being saved, so a double click cannot race the chat save. */
export const savingAgentMode = signal(false);

