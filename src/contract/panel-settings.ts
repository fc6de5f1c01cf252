// No zod here, as in agent-mode.ts: the settings are read on the page's startup path.
import { DEFAULT_PROFILE_ID } from './agent-mode';

/** The key under SillyTavern's extension settings that holds the panel's settings (not `tavern_agent`: profiles). */
export const PANEL_SETTINGS_KEY = 'tavern_agent_panel';

export const PANEL_WIDTH_MIN = 300;
export const PANEL_WIDTH_MAX = 1200;

/**
 * What the user sets in the Extensions drawer's Tavern Agent block (and by dragging the panel's edge). Per
 * SillyTavern user, not per chat. Retention settings (the storage part) get their own key beside this one.
 */
export interface PanelSettings {
    version: 1;
    /** The profile a chat runs with until the user picks one for it. */
    defaultProfileId: string;
    /** The Agent Mode badge beside SillyTavern's Send button. */
    sendIndicator: boolean;
    /** The panel's width in CSS pixels on wide screens; null: fit beside the chat column. */
    panelWidth: number | null;
}

const DEFAULT_SETTINGS: PanelSettings = { version: 1, defaultProfileId: DEFAULT_PROFILE_ID, sendIndicator: true, panelWidth: null };

/** Whether a stored value may stand for each field. */
const VALID: { [K in keyof PanelSettings]: (value: unknown) => boolean } = {
    version: (value) => value === 1,
    defaultProfileId: (value) => typeof value === 'string' && value.length > 0,
    sendIndicator: (value) => typeof value === 'boolean',
    panelWidth: (value) => value === null || (Number.isInteger(value) && (value as number) >= PANEL_WIDTH_MIN && (value as number) <= PANEL_WIDTH_MAX),
};

/** Reads the stored settings field by field: one broken value falls back to its default, not all of them. */
export function readPanelSettings(raw: unknown): PanelSettings {
    const result: Record<string, unknown> = { ...DEFAULT_SETTINGS };
    if (!raw || typeof raw !== 'object') return result as unknown as PanelSettings;
    const stored = raw as Record<string, unknown>;
    for (const key of Object.keys(VALID) as Array<keyof PanelSettings>) {
        if (stored[key] !== undefined && VALID[key](stored[key])) result[key] = stored[key];
    }
    return result as unknown as PanelSettings;
}

/** A width the panel can have: whole pixels within the limits. */
export function clampPanelWidth(width: number): number {
    return Math.round(Math.min(PANEL_WIDTH_MAX, Math.max(PANEL_WIDTH_MIN, width)));
}
