import { STATE_COMMITTED_EVENT, type StateWrite } from '../../contract/state';
import { MVU_KEYS } from '../../state/state-view';
import { stillAt } from '../sillytavern/chat-identity';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { loadedStateSystems } from '../sillytavern/state-systems';
import { writeChatVariables } from './chat-variables';
import { isMvuSnapshot, messageTable, setMessageTable } from './message-variables';

/**
 * Writes a run's staged state into the chat (issue 36), each scope the way its own system expects, into the
 * reply at `index` (its shown swipe): chat variables as ops in its marker, replayed along the branch; global
 * variables through SillyTavern (the user approved each change); Tavern Helper's table of the reply's swipe;
 * MVU's snapshot there when MVU is not loaded (its update block is already in the text, so MVU's own replay
 * computes the same). Then `tavern_agent_state_committed` per scope. The caller saves the chat. False when
 * the message left the open chat (another chat opened) before every scope was written.
 */
export async function applyStateWrites(message: ChatMessage, index: number, writes: readonly StateWrite[]): Promise<boolean> {
    const context = stContext();
    for (const write of writes) {
        // Each scope's event runs other code (and chat variables wait for SillyTavern): when another chat was
        // opened meanwhile, nothing more is written, into it least of all.
        if (!stillAt(message, index)) return false;
        switch (write.scope) {
            case 'chat':
                await writeChatVariables(message, index, write.values);
                break;
            case 'global': {
                const api = (context as unknown as { variables?: { global?: { set(k: string, v: unknown): unknown; del(k: string): unknown } } }).variables?.global; // ST 1.19's context API
                for (const [key, value] of Object.entries(write.values)) {
                    if (value === null) api?.del(key);
                    else api?.set(key, value);
                }
                break;
            }
            case 'message': {
                // MVU's keys in the reply's table stay as MVU (or our mvu write) left them.
                const own = Object.fromEntries(Object.entries(messageTable(message) ?? {}).filter(([key]) => MVU_KEYS.has(key)));
                setMessageTable(message, { ...write.variables, ...own });
                break;
            }
            case 'mvu':
                if (!loadedStateSystems().mvu) writeMvuSnapshot(message, index, write.statData);
                break;
        }
        await context.eventSource.emit(STATE_COMMITTED_EVENT, { scope: write.scope, messageId: index, swipeId: message.swipe_id ?? 0, ops: write.ops });
    }
    return stillAt(message, index);
}

/** MVU's snapshot of the reply, as MVU would compute it: the last snapshot before it, with the new stat_data. */
function writeMvuSnapshot(message: ChatMessage, index: number, statData: Record<string, unknown>): void {
    const chat = stContext().chat;
    let base: Record<string, unknown> = {};
    for (let i = index - 1; i >= 0; i--) {
        const table = messageTable(chat[i]!);
        if (isMvuSnapshot(table)) {
            base = structuredClone(table);
            break;
        }
    }
    const current = messageTable(message) ?? {};
    setMessageTable(message, { ...current, ...base, stat_data: statData });
}

/** The reply's text with the run's MVU update block at its end (replacing the one an earlier commit appended). */
export function withMvuBlock(text: string, writes: readonly StateWrite[] | undefined, previous: string | null): { text: string; block: string | null } {
    const stripped = previous ? stripBlock(text, previous) : text;
    const block = writes?.find((write) => write.scope === 'mvu')?.block ?? null;
    if (!block) return { text: stripped, block: null };
    return { text: `${stripped.replace(/\s+$/, '')}\n\n${block}`, block };
}

/** The text without a block we appended (its last occurrence: the model may quote an earlier one). */
export function stripBlock(text: string, block: string): string {
    const at = text.lastIndexOf(block);
    return at < 0 ? text : (text.slice(0, at).replace(/\s+$/, '') + text.slice(at + block.length)).replace(/\s+$/, '');
}
