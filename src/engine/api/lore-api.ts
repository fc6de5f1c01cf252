import type { LoreApi } from '../../contract/wire';
import { claimLoreProposal, recordLoreDecision, releaseLoreClaim } from '../archive/lore-decisions';
import { withStorage, type EngineState } from './engine-state';

/** The lore facet: the user's answers to a run's lore proposals, journaled in that run. */
export function createLoreApi(state: EngineState): LoreApi {
    return {
        claimLoreProposal: (runId, proposalId) => withStorage(state, (s) => claimLoreProposal(s, runId, proposalId)),
        releaseLoreClaim: (runId, proposalId, token) => withStorage(state, (s) => releaseLoreClaim(s, runId, proposalId, token)),
        recordLoreDecision: (runId, decision, claimToken) => withStorage(state, (s) => recordLoreDecision(s, runId, decision, claimToken)),
    };
}
