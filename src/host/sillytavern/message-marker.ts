import { MemoryPayloadSchema, type MemoryPayload } from '../../contract/memory';
import type { ChatMessage } from './st-context';

/**
 * The marker a message Tavern Agent committed carries in `extra.tavern_agent`: the run that wrote it, so
 * memory, history, resume and fix can find their run, and the memory (persist/) that travels with the chat
 * (SPEC §4). The one place the marker is read and written. A marker edited by hand or written by someone
 * else is read as no run (a run id that is not a non-empty string) or no memory (not well-formed), never
 * trusted.
 */
const MESSAGE_MARKER_KEY = 'tavern_agent';

export interface MessageMarker {
    runId: string;
    memory?: MemoryPayload;
}

/** What a marker is read from: a chat message, or the `swipe_info` entry of one of its swipes. */
export interface MarkerHolder {
    extra?: Record<string, unknown>;
}

function rawMarker(holder: MarkerHolder | undefined): { runId?: unknown; memory?: unknown } | null {
    const marker = holder?.extra?.[MESSAGE_MARKER_KEY];
    return marker && typeof marker === 'object' ? (marker as { runId?: unknown; memory?: unknown }) : null;
}

/** The run whose reply this is, or null. Cheap: finding a run's reply reads it for every message of a chat. */
export function markedRunId(holder: MarkerHolder | undefined): string | null {
    const runId = rawMarker(holder)?.runId;
    return typeof runId === 'string' && runId ? runId : null;
}

/** The memory the message carries, if it is well-formed (validated: call it for the messages that need it). */
export function markedMemory(holder: MarkerHolder | undefined): MemoryPayload | undefined {
    const raw = rawMarker(holder)?.memory;
    if (raw === undefined) return undefined;
    const parsed = MemoryPayloadSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
}

/** Marks a message as a run's reply (with the memory it carries, if any), replacing any marker it had. */
export function writeMarker(message: ChatMessage, marker: MessageMarker): void {
    // In place: saveReply keeps writing to this same `extra` object after it has returned control to us.
    if (!message.extra || typeof message.extra !== 'object') message.extra = {};
    message.extra[MESSAGE_MARKER_KEY] = marker;
    // SillyTavern restores `extra` from swipe_info when the user swipes back and forth: each swipe keeps its own.
    const swipeInfo = (message as { swipe_info?: Array<{ extra?: Record<string, unknown> }> }).swipe_info;
    const info = message.swipe_id !== undefined ? swipeInfo?.[message.swipe_id] : undefined;
    if (info) info.extra = { ...(info.extra ?? {}), [MESSAGE_MARKER_KEY]: marker };
}
