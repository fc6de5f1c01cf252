import { signal } from '@preact/signals';
import { DEFAULT_PIPELINE, type AgentStatus } from '../contract/agent-mode';
import { readPanelSettings, type PanelSettings } from '../contract/panel-settings';
import type { HealthReport } from '../contract/wire';

/**
 * The panel's state: small signals read by the components. What the host knows (the open chat's Agent Mode
 * state, the run going on, the engine's status) is set here by src/index.ts and src/runtime.ts from the host's reports.
 */
export const panelOpen = signal(false);

/** The open chat's Agent Mode state and the run going on (`run`): the host's, mirrored. */
export const chatStatus = signal<AgentStatus>({ enabled: false, chatId: null, profileId: 'writer', pipeline: DEFAULT_PIPELINE, run: null });

type EngineState =
    | { phase: 'idle' }
    | { phase: 'starting' }
    | { phase: 'ready'; health: HealthReport }
    | { phase: 'error'; message: string };

export const engineState = signal<EngineState>({ phase: 'idle' });

/**
 * Bumped by the host whenever the open chat's messages may have changed (sent, received, deleted, swiped,
 * edited, another chat opened): what the panel derives from the chat's last message reads it to follow.
 */
export const chatRevision = signal(0);

/** True while a switch change is being saved, so a double click cannot race the chat save. */
export const savingAgentMode = signal(false);


/** The user's panel settings (Extensions drawer, dragged width): the host's, mirrored by src/index.ts. */
export const panelSettingsState = signal<PanelSettings>(readPanelSettings(undefined));
