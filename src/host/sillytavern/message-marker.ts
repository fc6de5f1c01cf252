import { MESSAGE_MARKER_KEY } from '../../contract/chat-markers';
import { MemoryPayloadSchema, type MemoryPayload } from '../../contract/memory';
import { BRIEF_MAX_CHARS } from '../../contract/run-input';
import type { ChatMessage } from './st-context';

/**
 * The marker a message carries in `extra.tavern_agent`. The one place the marker is read and written. A
 * marker edited by hand or written by someone else is read as no run (a run id that is not a non-empty
 * string), no memory or no brief (not well-formed), never trusted. It holds, each part independent:
 * - on a reply Tavern Agent committed: the run that wrote it (`runId`), so memory, history, resume and fix can
 *   find their run;
 * - on any reply: the memory (persist/) that travels with the chat (SPEC §4), per swipe. On a reply no run
 *   wrote (SillyTavern's own, issue 34) a keeper after it leaves its memory there, with its own run id
 *   (`memoryRunId`) as the name later memory deltas use for it;
 * - on a turn's user message: the brief a director made for it (issue 34), which a swipe or regenerate of
 *   the reply to that message reuses.
 * The key itself is in contract/chat-markers.ts: the worker picks markers out of a chat read from the server.
 */

export interface MessageMarker {
    runId: string;
    memory?: MemoryPayload;
}

/** A director's brief for the user message it was made for. */
export interface TurnBrief {
    text: string;
    /** The `before` profile that made it: a brief is reused only while the pipeline names the same one. */
    profileId: string;
    runId: string;
}

/** What a marker is read from: a chat message, or the `swipe_info` entry of one of its swipes. */
export interface MarkerHolder {
    extra?: Record<string, unknown>;
}

type RawMarker = { runId?: unknown; memory?: unknown; memoryRunId?: unknown; brief?: unknown; state?: unknown; textHash?: unknown };

function rawMarker(holder: MarkerHolder | undefined): RawMarker | null {
    const marker = holder?.extra?.[MESSAGE_MARKER_KEY];
    return marker && typeof marker === 'object' ? (marker as RawMarker) : null;
}

const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/** The run whose reply this is, or null. Cheap: finding a run's reply reads it for every message of a chat. */
export function markedRunId(holder: MarkerHolder | undefined): string | null {
    const runId = rawMarker(holder)?.runId;
    return nonEmpty(runId) ? runId : null;
}

/**
 * The run whose memory the message carries, by the name memory deltas use: the run that wrote the reply, or
 * the keeper that left its memory in a reply no run wrote. Null when neither.
 */
export function markedMemoryRunId(holder: MarkerHolder | undefined): string | null {
    const marker = rawMarker(holder);
    if (nonEmpty(marker?.runId)) return marker.runId;
    return nonEmpty(marker?.memoryRunId) ? marker.memoryRunId : null;
}

/** The memory the message carries, if it is well-formed (validated: call it for the messages that need it). */
export function markedMemory(holder: MarkerHolder | undefined): MemoryPayload | undefined {
    const raw = rawMarker(holder)?.memory;
    if (raw === undefined) return undefined;
    const parsed = MemoryPayloadSchema.safeParse(raw);
    return parsed.success ? parsed.data : undefined;
}

/** The brief made for this message, if well-formed. */
export function markedBrief(holder: MarkerHolder | undefined): TurnBrief | null {
    const brief = rawMarker(holder)?.brief as Partial<TurnBrief> | undefined;
    if (!brief || typeof brief !== 'object' || typeof brief.text !== 'string' || brief.text.length > BRIEF_MAX_CHARS) return null;
    if (!nonEmpty(brief.profileId) || !nonEmpty(brief.runId)) return null;
    return { text: brief.text, profileId: brief.profileId, runId: brief.runId };
}

/** Sets the message's marker, in place, and that of its current swipe. */
function putMarker(message: ChatMessage, marker: Record<string, unknown>): void {
    // In place: saveReply keeps writing to this same `extra` object after it has returned control to us.
    if (!message.extra || typeof message.extra !== 'object') message.extra = {};
    message.extra[MESSAGE_MARKER_KEY] = marker;
    // SillyTavern restores `extra` from swipe_info when the user swipes back and forth: each swipe keeps its own.
    const swipeInfo = (message as { swipe_info?: Array<{ extra?: Record<string, unknown> }> }).swipe_info;
    const info = message.swipe_id !== undefined ? swipeInfo?.[message.swipe_id] : undefined;
    if (info) info.extra = { ...(info.extra ?? {}), [MESSAGE_MARKER_KEY]: marker };
}

/**
 * The parts of a marker that outlive a new marker of the reply: the brief made for the message, and the state
 * changes it carries (issue 36; stamped with their swipe, so a copy SillyTavern carried into a new swipe is
 * never read as that swipe's).
 */
function keptBrief(message: ChatMessage): Record<string, unknown> {
    const { brief, state } = rawMarker(message) ?? {};
    return { ...(brief === undefined ? {} : { brief }), ...(state === undefined ? {} : { state }) };
}

/** The state changes (issue 36) the message carries for its shown swipe: chat variable ops; null when none. */
export function markedChatOps(message: ChatMessage): unknown {
    const state = rawMarker(message)?.state as { swipe?: unknown; chat?: unknown } | undefined;
    if (!state || typeof state !== 'object' || state.swipe !== (message.swipe_id ?? 0)) return null;
    return state.chat ?? null;
}

/** Stores the chat variable ops of the message's shown swipe, keeping the rest of its marker. */
export function writeChatOps(message: ChatMessage, chat: Record<string, unknown>): void {
    putMarker(message, { ...(rawMarker(message) ?? {}), state: { swipe: message.swipe_id ?? 0, chat } });
}

/** After a swipe was deleted, SillyTavern renumbered the rest: each swipe's state is stamped with its new number. */
export function restampSwipeState(message: ChatMessage): void {
    const swipeInfo = (message as { swipe_info?: Array<{ extra?: Record<string, unknown> }> }).swipe_info ?? [];
    swipeInfo.forEach((info, index) => {
        const state = rawMarker(info)?.state as { swipe?: unknown } | undefined;
        if (state && typeof state === 'object') state.swipe = index;
    });
    // The shown swipe's marker is a copy of its swipe_info entry's: it follows that one.
    const shown = rawMarker(message);
    if (!shown) return;
    const fromInfo = rawMarker(swipeInfo[message.swipe_id ?? 0])?.state;
    if (fromInfo === undefined) delete shown.state;
    else shown.state = structuredClone(fromInfo);
}

/** Marks a message as a run's reply (with the memory it carries, if any), replacing the reply's marker. */
export function writeMarker(message: ChatMessage, marker: MessageMarker): void {
    // The same run marking its reply again (its memory) keeps the hash of the text it committed.
    const textHash = markedRunId(message) === marker.runId ? rawMarker(message)?.textHash : undefined;
    putMarker(message, { ...keptBrief(message), ...marker, ...(textHash === undefined ? {} : { textHash }) });
}

/** cyrb53: a short hash of the text, enough to tell an edit (not a secret: the text is in the chat beside it). */
function textHash(text: string): string {
    let h1 = 0xdeadbeef;
    let h2 = 0x41c6ce57;
    for (let i = 0; i < text.length; i++) {
        const ch = text.charCodeAt(i);
        h1 = Math.imul(h1 ^ ch, 2654435761);
        h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36);
}

/**
 * Remembers the text a run's commit left in its reply (issue 39 §6): a run resumed after a reload can then
 * tell that the user edited the reply since, and its next commit is refused as a live run's would be.
 */
export function markCommittedText(message: ChatMessage): void {
    const marker = rawMarker(message);
    if (!marker || !nonEmpty(marker.runId)) return;
    putMarker(message, { ...marker, textHash: textHash(message.mes ?? '') });
}

/** Whether the reply's text differs from what its run last committed (known only for commits that kept the hash). */
export function editedSinceCommit(message: ChatMessage): boolean {
    const kept = rawMarker(message)?.textHash;
    return typeof kept === 'string' && kept !== textHash(message.mes ?? '');
}

/**
 * A keeper's memory (issue 34) into the reply it follows: the reply's run id stays (it is still that run's
 * reply, and deltas name it); a reply no run wrote keeps the name a keeper gave it before, or takes this one's.
 */
export function writeKeeperMemory(message: ChatMessage, keeperRunId: string, memory: MemoryPayload): void {
    const marker = rawMarker(message);
    const runId = markedRunId(message);
    const owner = runId ? { runId } : { memoryRunId: nonEmpty(marker?.memoryRunId) ? marker.memoryRunId : keeperRunId };
    putMarker(message, { ...keptBrief(message), ...owner, memory });
}

/**
 * A user's edit of the chat's memory (issue 37 §1, the panel's Memory view) into the message whose memory it
 * edits: every other part of the marker stays (its owner, so the run id later deltas name is unchanged; brief,
 * state, text hash), only the memory is replaced, in full. False when the message names no memory owner.
 */
export function replaceMarkedMemory(message: ChatMessage, memory: MemoryPayload): boolean {
    const marker = rawMarker(message);
    if (!marker || markedMemoryRunId(message) === null) return false;
    putMarker(message, { ...marker, memory });
    return true;
}

/**
 * Drops a reply marker the message carried over from another swipe: SillyTavern keeps `extra` when it
 * generates a new swipe, so its own swipe of an agent's reply would otherwise claim that run and its memory.
 */
export function clearReplyMarker(message: ChatMessage): void {
    const marker = rawMarker(message);
    if (!marker || (marker.runId === undefined && marker.memory === undefined && marker.memoryRunId === undefined)) return;
    const brief = keptBrief(message);
    if (Object.keys(brief).length) putMarker(message, brief);
    else {
        delete message.extra![MESSAGE_MARKER_KEY];
        const swipeInfo = (message as { swipe_info?: Array<{ extra?: Record<string, unknown> }> }).swipe_info;
        const info = message.swipe_id !== undefined ? swipeInfo?.[message.swipe_id] : undefined;
        if (info?.extra) delete info.extra[MESSAGE_MARKER_KEY];
    }
}

/** Stores the brief made for this message (the turn's user message), keeping the rest of its marker. */
export function writeBrief(message: ChatMessage, brief: TurnBrief): void {
    putMarker(message, { ...(rawMarker(message) ?? {}), brief });
}
