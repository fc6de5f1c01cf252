import { CHAT_READ_MAX_BYTES } from '../../contract/chat-markers';
import { MemorySeedSchema, type MemorySeed } from '../../contract/memory-seed';
import { fail, ok, type Result } from '../../contract/result';
import { t } from '../../i18n/t';
import { openChatIdentity } from '../sillytavern/chat-identity';
import { getEngine } from '../worker/worker-client';
import { foreignChatMemory } from './foreign-chat-memory';
import { chatFileRequest, listOwnerChats, openChatOwner } from './owner-chats';
import type { ChatWithMemory, SeedSummary } from '../../contract/memory-view';
import { writeMemorySeed } from './seed-store';

/** *Bring memory from…* checks the newest chats only, each read within a bound: a long list never floods the server. */
export const MAX_CHATS_CHECKED = 12;
const LIST_READ_MAX_BYTES = 4 * 1024 * 1024;

/** A name as a user types it: SillyTavern's file name, with or without `.jsonl`. */
function chatName(text: string): string {
    return text.trim().replace(/\.jsonl$/i, '');
}

/**
 * The open character's (or group's) other chats that carry memory, newest first: the newest MAX_CHATS_CHECKED,
 * each read by the worker up to LIST_READ_MAX_BYTES (a longer one is passed over, but can still be named).
 */
export async function chatsWithMemory(): Promise<Result<ChatWithMemory[]>> {
    const identity = openChatIdentity();
    const owner = openChatOwner();
    if (!identity || !owner) return fail('host.no_chat', t`Open a chat first.`);
    const listed = await listOwnerChats(owner);
    if (!listed.ok) return listed;
    const engine = await getEngine();
    const found: ChatWithMemory[] = [];
    for (const chat of listed.value.filter((c) => c.fileName !== identity.chatId).slice(0, MAX_CHATS_CHECKED)) {
        const read = await engine.readChatMarkers(chatFileRequest(owner, chat.fileName), LIST_READ_MAX_BYTES);
        const files = read.ok ? await foreignChatMemory(read.value) : null;
        if (files) found.push({ ...chat, files: Object.keys(files).length });
    }
    return ok(found);
}

/**
 * Copies the latest memory of another chat of the open character (or group) into the open chat's metadata as its
 * memory seed (issue 37 §2). Only a chat SillyTavern lists for this owner can be named (`memory.chat_not_found`
 * otherwise, this chat included); one with no memory is refused (`memory.no_memory`). The seed is written only
 * into the chat open when it was asked for (`memory.chat_changed`).
 */
export async function seedFromChat(fileName: string): Promise<Result<SeedSummary>> {
    const identity = openChatIdentity();
    const owner = openChatOwner();
    if (!identity || !owner) return fail('host.no_chat', t`Open a chat first.`);
    const name = chatName(String(fileName ?? ''));
    if (!name || name === identity.chatId) return fail('memory.chat_not_found', name ? t`That is this chat: name another chat of this character.` : t`Name a chat of this character.`);
    const listed = await listOwnerChats(owner);
    if (!listed.ok) return listed;
    if (!listed.value.some((chat) => chat.fileName === name)) return fail('memory.chat_not_found', `${t`This character has no chat named:`} "${name}"`);
    const engine = await getEngine();
    const read = await engine.readChatMarkers(chatFileRequest(owner, name), CHAT_READ_MAX_BYTES);
    if (!read.ok) return read;
    const files = await foreignChatMemory(read.value);
    if (!files) return fail('memory.no_memory', `${t`That chat carries no memory:`} "${name}"`);
    const seed: MemorySeed = { v: 1, source: { kind: 'chat', chat: name }, at: new Date().toISOString(), files };
    // A seed that would not read back (a path past the seed's bound) would be ignored later without a word: refuse it now.
    if (!MemorySeedSchema.safeParse(seed).success) return fail('memory.seed_too_large', `${t`The memory of that chat has a file path over 300 characters, more than a memory seed holds:`} "${name}"`);
    const written = await writeMemorySeed(identity, seed);
    if (!written.ok) return written;
    return ok({ chat: name, at: seed.at, paths: Object.keys(files).sort(), bytes: written.value.bytes });
}
