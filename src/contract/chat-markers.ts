/** The key of Tavern Agent's marker in a chat message's `extra` (host/sillytavern/message-marker.ts reads and writes it). */
export const MESSAGE_MARKER_KEY = 'tavern_agent';

/**
 * A chat file asked of SillyTavern's own endpoints (`/api/chats/get`, `/api/chats/group/get`): the worker fetches
 * and parses it, so a long chat never holds the page up.
 */
export interface ChatFileRequest {
    url: '/api/chats/get' | '/api/chats/group/get';
    body: Record<string, string>;
    /** SillyTavern's request headers (its CSRF token), from the page. */
    headers: Record<string, string>;
}

/**
 * What memory needs of another chat, and no more: each message's Tavern Agent marker (messages without one are
 * empty objects, so indexes stay the chat's) and its metadata's memory seed, unchecked (the page validates both).
 */
export interface ChatMarkers {
    messages: Array<{ extra?: Record<string, unknown> }>;
    seed: unknown;
    bytes: number;
}

/** Another chat read for its memory is bounded: the first this many bytes, or nothing. */
export const CHAT_READ_MAX_BYTES = 16 * 1024 * 1024;
