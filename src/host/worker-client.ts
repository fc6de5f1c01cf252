import { wrap, type Remote } from 'comlink';
import type { EngineApi } from '../contract/wire';
import { currentUserHandle } from './st-context';
import { requestPersistentStorage, retentionSettings } from './storage-settings';

let engine: Promise<Remote<EngineApi>> | null = null;

/**
 * The worker (and with it zod's parsers, idb and the engine) loads on first need: the first run or the
 * first time the panel opens, never at page load. The database opened is the current user's.
 */
export function getEngine(): Promise<Remote<EngineApi>> {
    engine ??= startEngine().catch((error: unknown) => {
        engine = null;
        throw error;
    });
    return engine;
}

async function startEngine(): Promise<Remote<EngineApi>> {
    const worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module', name: 'tavern-agent' });
    const remote = wrap<EngineApi>(worker);
    const opened = await remote.open(await currentUserHandle());
    if (!opened.ok) {
        worker.terminate();
        throw new Error(`${opened.error.message} (${opened.error.code}: ${opened.error.detail ?? ''})`);
    }
    void remote.setRetention(retentionSettings());
    void requestPersistentStorage();
    return remote;
}
