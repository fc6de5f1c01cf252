import { ok } from '../../contract/result';
import type { PrefixMessage } from '../../contract/run-input';
import type { MemoryApi } from '../../contract/wire';
import { journalMemoryEdit } from '../memory/journal-memory-edit';
import { readChatMarkers } from '../memory/read-chat-markers';
import { memoryBase } from '../run/memory-base';
import { withStorage, type EngineState } from './engine-state';

/** The memory facet: the panel's Memory view reads the chat's memory as a run would, and journals the user's edits. */
export function createMemoryApi(state: EngineState): MemoryApi {
    return {
        resolveMemory: (messages, seed) =>
            withStorage(state, async (s) => {
                // memoryBase reads only who names each message's memory and what it carries: the rest stays empty.
                const prefix: PrefixMessage[] = messages.map((message, index) => ({
                    index,
                    role: 'assistant',
                    name: '',
                    text: '',
                    hidden: false,
                    agentRunId: message.runId,
                    ...(message.memory ? { memory: message.memory } : {}),
                }));
                const base = await memoryBase(prefix, s, seed);
                return ok({ files: base.files, runId: base.runId });
            }),
        journalMemoryEdit: (edit) => withStorage(state, (s) => journalMemoryEdit(s, edit)),
        // No storage needed: another chat is read from SillyTavern, not from this browser.
        readChatMarkers: (request, maxBytes) => readChatMarkers(request, maxBytes),
    };
}
