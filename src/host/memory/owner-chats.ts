import type { ChatFileRequest } from '../../contract/chat-markers';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { stContext } from '../sillytavern/st-context';

/** The open chat's owner, as SillyTavern's chat endpoints name it: a character's avatar file, or a group's id. */
export type ChatOwner = { kind: 'character'; avatar: string; name: string } | { kind: 'group'; groupId: string };

/** One chat of the owner, as SillyTavern's chat list gives it. */
export interface OwnerChat {
    /** The chat's file name without `.jsonl`: what `/agent memory from` takes. */
    fileName: string;
    messages: number;
    /** When its last message was sent, as SillyTavern stores it (a date string or a number). */
    lastMessage: string;
}

export function openChatOwner(): ChatOwner | null {
    const context = stContext();
    if (context.groupId) return { kind: 'group', groupId: String(context.groupId) };
    const character = context.characterId === undefined ? undefined : context.characters[Number(context.characterId)];
    return character?.avatar ? { kind: 'character', avatar: character.avatar, name: character.name ?? '' } : null;
}

/**
 * The owner's chats, through SillyTavern's own chat list (`/api/chats/search` with no query, as its Chat
 * History window asks it). Newest first.
 */
export async function listOwnerChats(owner: ChatOwner): Promise<Result<OwnerChat[]>> {
    let answer: unknown;
    try {
        const response = await fetch('/api/chats/search', {
            method: 'POST',
            headers: stContext().getRequestHeaders(),
            body: JSON.stringify({ query: '', avatar_url: owner.kind === 'character' ? owner.avatar : null, group_id: owner.kind === 'group' ? owner.groupId : null }),
            cache: 'no-cache',
        });
        if (!response.ok) return fail('memory.chat_not_found', `${t`SillyTavern could not list this character's chats.`} (HTTP ${response.status})`);
        answer = await response.json();
    } catch (error) {
        return fail('memory.chat_not_found', t`SillyTavern could not list this character's chats.`, error instanceof Error ? error.message : String(error));
    }
    const chats = (Array.isArray(answer) ? answer : []).flatMap((item: unknown): OwnerChat[] => {
        if (!item || typeof item !== 'object') return [];
        const { file_name: fileName, message_count: messages, last_mes: lastMessage } = item as Record<string, unknown>;
        if (typeof fileName !== 'string' || !fileName) return [];
        return [{ fileName: fileName.replace(/\.jsonl$/, ''), messages: typeof messages === 'number' ? messages : 0, lastMessage: String(lastMessage ?? '') }];
    });
    return ok(chats.sort((a, b) => timeOf(b.lastMessage) - timeOf(a.lastMessage)));
}

/** SillyTavern's `last_mes` is a number, a date string or a humanized "2024-5-3@14h22m10s": unknown dates sort last. */
function timeOf(value: string): number {
    const number = Number(value);
    if (Number.isFinite(number) && value !== '') return number;
    const humanized = /^(\d{4})-(\d{1,2})-(\d{1,2})\s*@(\d{1,2})h\s*(\d{1,2})m\s*(\d{1,2})s/.exec(value);
    if (humanized) {
        const [, y, mo, d, h, mi, s] = humanized.map(Number);
        return new Date(y!, mo! - 1, d!, h!, mi!, s!).getTime();
    }
    const parsed = Date.parse(value);
    return Number.isFinite(parsed) ? parsed : 0;
}

/** How the worker asks SillyTavern for one chat of the owner. */
export function chatFileRequest(owner: ChatOwner, fileName: string): ChatFileRequest {
    const headers = stContext().getRequestHeaders();
    return owner.kind === 'group'
        ? { url: '/api/chats/group/get', body: { id: fileName }, headers }
        : { url: '/api/chats/get', body: { ch_name: owner.name, file_name: fileName, avatar_url: owner.avatar }, headers };
}
