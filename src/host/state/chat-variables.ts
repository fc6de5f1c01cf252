import type { StoredVariable } from '../../contract/state';
import { branchVariables, CHAT_STATE_META_KEY, liveValue, readMeta, readOps, recordWrite, replayPlan, type ChatOps, type ChatStateMeta } from '../../state/chat-log';
import { markedChatOps, writeChatOps } from '../sillytavern/message-marker';
import { stContext, type ChatMessage } from '../sillytavern/st-context';

/**
 * SillyTavern's chat variables on the page, made branch-aware (state/chat-log.ts holds the rules): the ops the
 * messages carry on their shown swipes, the metadata, and SillyTavern's own variable functions to set them
 * (so `{{getvar}}` and `/getvar` see them).
 */

interface VariablesApi {
    set(name: string, value: unknown): unknown;
    del(name: string): unknown;
}

function localVariables(): VariablesApi | null {
    const variables = (stContext() as unknown as { variables?: { local?: VariablesApi } }).variables; // ST 1.19 adds `variables` to the context
    return variables?.local ?? null;
}

export function liveChatTable(): Record<string, unknown> {
    const table = stContext().chatMetadata.variables;
    return table && typeof table === 'object' ? (table as Record<string, unknown>) : {};
}

function meta(): ChatStateMeta {
    return readMeta(stContext().chatMetadata[CHAT_STATE_META_KEY]);
}

function pathOps(messages: readonly ChatMessage[]): Array<ChatOps | null> {
    return messages.map((message) => readOps(markedChatOps(message)));
}

/** The chat variables as the branch up to (not including) `upTo` has them. */
export function chatVariablesBefore(upTo: number): Record<string, unknown> {
    return branchVariables(meta(), liveChatTable(), pathOps(stContext().chat.slice(0, upTo)));
}

function setVariable(key: string, value: StoredVariable): void {
    const api = localVariables();
    if (api) {
        if (value === null) api.del(key);
        else api.set(key, value);
        return;
    }
    const table = (stContext().chatMetadata.variables ??= {}) as Record<string, unknown>;
    if (value === null) delete table[key];
    else table[key] = value;
}

/**
 * Sets our variables to their values on the active path (after a swipe, a deletion, a chat opened, a reply);
 * a variable someone else changed is left to them. Saves the metadata when anything changed.
 */
export async function replayChatVariables(): Promise<boolean> {
    const context = stContext();
    const current = meta();
    if (!Object.keys(current.keys).length) return false;
    const plan = replayPlan(current, liveChatTable(), pathOps(context.chat));
    if (!plan.changed) return false;
    for (const [key, value] of Object.entries(plan.sets)) setVariable(key, value);
    context.chatMetadata[CHAT_STATE_META_KEY] = plan.meta;
    await context.saveMetadata();
    return true;
}

/** A reply's chat variable changes: its ops into its marker (shown swipe), the metadata, then the branch replayed. */
export async function writeChatVariables(message: ChatMessage, index: number, values: Readonly<Record<string, StoredVariable>>): Promise<void> {
    const context = stContext();
    const before = chatVariablesBefore(index);
    const beforeStored = Object.fromEntries(Object.keys(values).map((key) => [key, liveValue(before, key)]));
    const recorded = recordWrite(meta(), liveChatTable(), beforeStored, values);
    // A later commit of the same run replaces its ops: the marker holds the reply's state as a whole.
    writeChatOps(message, recorded.ops);
    context.chatMetadata[CHAT_STATE_META_KEY] = recorded.meta;
    if (!(await replayChatVariables())) await context.saveMetadata();
}
