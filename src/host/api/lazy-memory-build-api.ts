import type { MemoryBuildStatus } from '../../contract/memory-build';

/** The memory build's part of `TavernAgent.memory` (issue 37 §3); the namespace's other parts sit beside it. */
export interface TavernAgentMemoryBuildApi {
    /**
     * Starts building the open chat's memory from its messages in the background (or goes on with its unfinished
     * build unless `restart`); resolves with the build's status at once. `lore`: the lore keeper also runs on each chunk.
     */
    build(options?: { lore?: boolean; restart?: boolean }): Promise<MemoryBuildStatus>;
    /** The open chat's build (chunk n of m, the estimate, its state), or null when it has none. */
    buildStatus(): Promise<MemoryBuildStatus | null>;
    /** Stops this tab's build; `resumeBuild` goes on from the first chunk not done. */
    stopBuild(): Promise<MemoryBuildStatus>;
    resumeBuild(): Promise<MemoryBuildStatus>;
}

/** `TavernAgent.memory`'s build part for the lazy API of the page's start (no runtime code here): each call waits for the runtime that holds the build. */
export function lazyMemoryBuildApi(load: () => Promise<{ memory: TavernAgentMemoryBuildApi }>): TavernAgentMemoryBuildApi {
    return Object.freeze({
        build: async (options?: { lore?: boolean; restart?: boolean }) => (await load()).memory.build(options),
        buildStatus: async () => (await load()).memory.buildStatus(),
        stopBuild: async () => (await load()).memory.stopBuild(),
        resumeBuild: async () => (await load()).memory.resumeBuild(),
    });
}
