// zod/mini, as agent-mode.ts: this schema ships in the startup bundle.
import * as z from 'zod/mini';
import { DEFAULT_PROFILE_ID } from './agent-mode';

/** The key under SillyTavern's extension settings that holds the panel's settings (not `tavern_agent`: profiles). */
export const PANEL_SETTINGS_KEY = 'tavern_agent_panel';

export const PANEL_WIDTH_MIN = 300;
export const PANEL_WIDTH_MAX = 1200;

/**
 * What the user sets in the Extensions drawer's Tavern Agent block (and by dragging the panel's edge). Per
 * SillyTavern user, not per chat. Retention settings (the storage part) get their own key beside this one.
 */
export const PanelSettingsSchema = z.object({
    version: z._default(z.literal(1), 1),
    /** The profile a chat runs with until the user picks one for it. */
    defaultProfileId: z._default(z.string().check(z.minLength(1)), DEFAULT_PROFILE_ID),
    /** The Agent Mode badge beside SillyTavern's Send button. */
    sendIndicator: z._default(z.boolean(), true),
    /** The panel's width in CSS pixels on wide screens; null: fit beside the chat column. */
    panelWidth: z._default(z.nullable(z.number().check(z.int(), z.gte(PANEL_WIDTH_MIN), z.lte(PANEL_WIDTH_MAX))), null),
});

export type PanelSettings = z.infer<typeof PanelSettingsSchema>;

/** Reads the stored settings field by field: one broken value falls back to its default, not all of them. */
export function readPanelSettings(raw: unknown): PanelSettings {
    const defaults = PanelSettingsSchema.parse({});
    if (!raw || typeof raw !== 'object') return defaults;
    const stored = raw as Record<string, unknown>;
    const result: Record<string, unknown> = { ...defaults };
    for (const key of Object.keys(defaults) as Array<keyof PanelSettings>) {
        const parsed = PanelSettingsSchema.safeParse({ ...defaults, [key]: stored[key] });
        if (parsed.success) result[key] = parsed.data[key];
    }
    return result as PanelSettings;
}

/** A width the panel can have: whole pixels within the limits. */
export function clampPanelWidth(width: number): number {
    return Math.round(Math.min(PANEL_WIDTH_MAX, Math.max(PANEL_WIDTH_MIN, width)));
}
