import type { MemorySeed } from '../../contract/memory-seed';
import type { RunRequest } from '../../contract/run-input';

type PromptMessage = RunRequest['prompt'][number];

/** What a memory build's chunk run is given beyond a keeper's capture (issue 37 §3). */
export interface BuildChunkSpec {
    chunk: number;
    chunks: number;
    from: number;
    to: number;
    /** The memory the chunks done left, as a seed: the run starts from it. */
    seed: MemorySeed;
}

/**
 * A keeper's capture, turned into a chunk run's input. Its prefix ends with the chunk's last message and carries
 * no memory, so the run's persist/ starts from the build's memory so far (the seed), whatever the chat's own
 * messages carry. Its prompt keeps what SillyTavern puts before the chat history (the card, the scenario, the
 * lore) and leaves the history out: the chunk's messages follow as the run's last message (engine/run/build-run.ts),
 * and a dry run's history is the chat's newest messages, not the chunk's.
 */
export function buildChunkRequest(captured: RunRequest, spec: BuildChunkSpec): RunRequest {
    const { seed, ...build } = spec;
    return {
        ...captured,
        prefix: captured.prefix.map(({ memory: _memory, ...message }) => ({ ...message, agentRunId: null })),
        prompt: promptBeforeHistory(captured.prompt),
        memorySeed: seed,
        build,
    };
}

/** The leading system messages of an assembled prompt: everything SillyTavern puts before the first chat turn. */
export function promptBeforeHistory(prompt: readonly PromptMessage[]): PromptMessage[] {
    const first = prompt.findIndex((message) => message.role !== 'system');
    return prompt.slice(0, first < 0 ? prompt.length : first);
}
