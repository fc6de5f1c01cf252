import type { LoreApi } from '../../contract/wire';
import { recordLoreDecision } from '../archive/lore-decisions';
import { withStorage, type EngineState } from './engine-state';

/** The lore facet: the user's answers to a run's lore proposals, journaled in that run. */
export function createLoreApi(state: EngineState): LoreApi {
    return {
        recordLoreDecision: (runId, decision) => withStorage(state, (s) => recordLoreDecision(s, runId, decision)),
    };
}
