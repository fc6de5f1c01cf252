import type { AgentStatus } from '../../contract/agent-mode';
import { chatPipeline } from '../settings/agent-mode';
import { ENGINE_VERSION } from '../../contract/version';
import type { TavernAgentApi, TavernAgentPipelineApi, TavernAgentSkillsApi } from './public-api';
import { TavernAgentError } from '../../contract/tavern-agent-error';
import { lazyMemoryBuildApi } from './lazy-memory-build-api';
import type { TavernAgentMemoryApi } from './memory-public-api';
import { openSeedSummary } from '../memory/seed-summary';

/**
 * `globalThis.TavernAgent` from the page's start, while the code behind it (runs, skills, the engine) loads
 * on the first call: each method waits for the full API and hands the call over unchanged. `status()` and
 * `subscribe()` stay synchronous, as the contract has them.
 */
export function createLazyPublicApi(load: () => Promise<TavernAgentApi>, status: () => AgentStatus): TavernAgentApi {
    const skills: TavernAgentSkillsApi = Object.freeze({
        list: async () => (await load()).skills.list(),
        preview: async (...args: Parameters<TavernAgentSkillsApi['preview']>) => (await load()).skills.preview(...args),
        import: async (...args: Parameters<TavernAgentSkillsApi['import']>) => (await load()).skills.import(...args),
        export: async (...args: Parameters<TavernAgentSkillsApi['export']>) => (await load()).skills.export(...args),
        delete: async (...args: Parameters<TavernAgentSkillsApi['delete']>) => (await load()).skills.delete(...args),
    });
    // get() reads the chat's metadata, as status() does: no need to load anything for it.
    const pipeline: TavernAgentPipelineApi = Object.freeze({
        get: () => chatPipeline(),
        set: async (change: Parameters<TavernAgentPipelineApi['set']>[0]) => (await load()).pipeline.set(change),
    });
    const memory: TavernAgentMemoryApi = Object.freeze({
        ...lazyMemoryBuildApi(load),
        seedFrom: async (chatFileName: string) => (await load()).memory.seedFrom(chatFileName),
        // Reads the chat's metadata, as status() does: no need to load anything for it.
        seed: openSeedSummary,
    });
    return {
        version: ENGINE_VERSION,
        skills,
        pipeline,
        memory,
        status,
        stop: async () => (await load()).stop(),
        setEnabled: async (enabled) => (await load()).setEnabled(enabled),
        health: async () => (await load()).health(),
        resume: async (runId) => (await load()).resume(runId),
        continueRun: async (runId, rounds) => (await load()).continueRun(runId, rounds),
        run: async (options) => (await load()).run(options),
        cancel: async (runId) => (await load()).cancel(runId),
        events: async (runId, options) => (await load()).events(runId, options),
        files: async (runId) => (await load()).files(runId),
        readFile: async (runId, path) => (await load()).readFile(runId, path),
        runs: async (options) => (await load()).runs(options),
        subscribe(runId, listener, options) {
            if (typeof listener !== 'function') throw new TavernAgentError('run.invalid_input', 'subscribe() needs a listener function.');
            // No run of this tab can publish before the full API exists (runs start there), and the
            // subscription replays stored events from `fromSeq` first, so subscribing late loses nothing.
            let off: (() => void) | null = null;
            let closed = false;
            void load().then((api) => {
                if (!closed) off = api.subscribe(runId, listener, options);
            });
            return () => {
                closed = true;
                off?.();
            };
        },
    };
}
