/** Replaced at build time by build.mjs from package.json, so the bundles and the manifest agree. */
declare const __TAVERN_AGENT_VERSION__: string;

export const ENGINE_VERSION: string =
    typeof __TAVERN_AGENT_VERSION__ === 'string' ? __TAVERN_AGENT_VERSION__ : '0.0.0-dev';
