import type { MemoryCarrier } from '../../contract/memory-chain';
import { markedMemory, markedMemoryRunId, type MarkerHolder } from '../sillytavern/message-marker';

/** What each message of a chat (open or read from the server) says about memory: its owner's run id and the memory it carries. */
export function memoryCarriers(messages: readonly MarkerHolder[]): MemoryCarrier[] {
    return messages.map((message) => {
        const memory = markedMemory(message);
        return { runId: markedMemoryRunId(message), ...(memory ? { memory } : {}) };
    });
}
