import type { MemoryBuildStatus } from '../../contract/memory-build';
import type { Result } from '../../contract/result';
import { TavernAgentError } from '../../contract/tavern-agent-error';
import type { TavernAgentMemoryBuildApi } from './lazy-memory-build-api';
import { memoryBuildStatus, resumeMemoryBuild, startMemoryBuild, stopMemoryBuild } from '../memory/memory-build';

async function unwrap(result: Promise<Result<MemoryBuildStatus>>): Promise<MemoryBuildStatus> {
    const settled = await result;
    if (!settled.ok) throw new TavernAgentError(settled.error.code, settled.error.message);
    return settled.value;
}

/** `TavernAgent.memory`'s build part: the host's results, a refusal thrown as a TavernAgentError with its code. */
export const memoryBuildApi: TavernAgentMemoryBuildApi = Object.freeze({
    build: (options?: { lore?: boolean; restart?: boolean }) => unwrap(startMemoryBuild({ lore: options?.lore === true, restart: options?.restart === true })),
    buildStatus: () => memoryBuildStatus(),
    stopBuild: () => unwrap(stopMemoryBuild()),
    resumeBuild: () => unwrap(resumeMemoryBuild()),
});
