import type { EngineApi } from '../contract/wire';
import { createArchiveApi } from './api/archive-api';
import { newEngineState } from './api/engine-state';
import { createLoreApi } from './api/lore-api';
import { createMemoryApi } from './api/memory-api';
import { createProfilesApi } from './api/profiles-api';
import { createRunsApi } from './api/runs-api';
import { createSkillApi } from './api/skills-api';
import { createStorageApi } from './api/storage-api';
import { createSweeper } from './tabs/sweep';

/**
 * The worker's engine: the intersection of its facets (contract/wire.ts), each built by its own factory over
 * one shared state (the user's database, the runs this engine works on, the live channel to other tabs).
 * The sweep of cut-off runs (tabs/protocol.ts) runs when the database opens, runs are listed or resumed.
 */
export function createEngine(): EngineApi {
    const state = newEngineState();
    const sweep = createSweeper(
        () => state.storage,
        (runId) => state.running.has(runId),
    );
    return {
        ...createStorageApi(state, sweep),
        ...createRunsApi(state, sweep),
        ...createArchiveApi(state),
        ...createProfilesApi(),
        ...createSkillApi(() => state.skillCache),
        ...createLoreApi(state),
        ...createMemoryApi(state),
    };
}
