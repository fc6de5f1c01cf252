// What `npm start` sets up around SillyTavern, shared with the e2e test that plays the demo: Tavern Agent
// and the demo's own small extension linked in, a chat with Seraphina to open on, and a Demo profile (the
// Writer plus dice and the demo extension's tool) as the default, so every scenario of the demo model works.
import fs from 'node:fs';
import path from 'node:path';
import { WRITER_PROFILE, type Profile } from '../src/contract/profile';
import type { StartSillyTavernOptions } from '../tests/harness/st-server';

/** The demo extension's tool, as a profile names it. */
export const DEMO_EXT_TOOL_NAME = 'ext.GladeLanterns';

export const DEMO_PROFILE: Profile = {
    ...WRITER_PROFILE,
    id: 'demo',
    displayName: 'Demo',
    description: 'The Writer, plus dice and the demo extension\'s lantern tool (it asks before each call): every feature of the demo in one profile.',
    tools: { ...WRITER_PROFILE.tools, allow: [...WRITER_PROFILE.tools.allow, 'dice.*', DEMO_EXT_TOOL_NAME] },
    extTools: { askBeforeCall: true },
};

/** Tavern Agent (this folder) and the demo extension, as SillyTavern's third-party extensions. */
export function demoExtensions(root: string): NonNullable<StartSillyTavernOptions['linkExtensions']> {
    return [
        { folder: 'tavern-agent', dir: root },
        { folder: 'tavern-agent-demo', dir: path.join(root, 'scripts/demo-extension') },
    ];
}

type Settings = Record<string, any>; // SillyTavern's settings.json, as its own loader reads it

/** The Demo profile among the user's profiles, unless one of that id is there already. */
export function addDemoProfile(settings: Settings): boolean {
    settings.extension_settings ??= {};
    const store = (settings.extension_settings.tavern_agent ??= { profiles: {} });
    store.profiles ??= {};
    if (store.profiles[DEMO_PROFILE.id]) return false;
    store.profiles[DEMO_PROFILE.id] = structuredClone(DEMO_PROFILE);
    return true;
}

/**
 * The first start's settings: open on a chat with Seraphina (SillyTavern's own auto-load of the last
 * character: no hunting in Character Management), and run the Demo profile by default. Later starts keep
 * what the user chose.
 */
export function patchDemoSettings(settings: Settings): void {
    settings.active_character = 'default_Seraphina.png';
    settings.power_user ??= {};
    settings.power_user.auto_load_chat = true;
    addDemoProfile(settings);
    settings.extension_settings.tavern_agent_panel = { version: 1, defaultProfileId: DEMO_PROFILE.id, sendIndicator: true, panelWidth: null };
}

/** A demo folder made before the Demo profile existed gets it (not as its default: the user may have chosen one). */
export function addDemoProfileToRunDir(runDir: string): void {
    const file = path.join(runDir, 'data/default-user/settings.json');
    if (!fs.existsSync(file)) return;
    const settings = JSON.parse(fs.readFileSync(file, 'utf8')) as Settings;
    if (addDemoProfile(settings)) fs.writeFileSync(file, JSON.stringify(settings, null, 4));
}
