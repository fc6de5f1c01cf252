import { t } from '../../i18n/t';
import { bindReply, locateBoundReply, type BoundReply } from '../chat/keeper-memory';
import { findCommitted } from '../chat/find-committed';
import { activeRun } from '../run/active-run';
import { launchKeeper } from '../run/new-run';
import { currentChatAgentState } from '../settings/agent-mode';
import { untilNotGenerating } from '../sillytavern/generating-state';
import { clearReplyMarker, markedRunId } from '../sillytavern/message-marker';
import { stContext } from '../sillytavern/st-context';
import type { AgentReplyListener } from './turn-takeover';
import { turnBefore } from './turn';

/**
 * SillyTavern's replies that count as a reply landing (MESSAGE_RECEIVED's type): a normal, regenerate, swipe
 * or continue generation (`append`/`appendFinal` are a continue's, unstreamed). Quiet generations save no
 * message, impersonate fills the input box, and the greeting, commands and other extensions' messages are
 * no reply to anything.
 */
const LANDING_TYPES: ReadonlySet<string> = new Set(['normal', 'regenerate', 'swipe', 'continue', 'append', 'appendFinal']);

/**
 * The after phase (issue 34 §3): when a reply lands, each keeper of the chat's pipeline runs once, in order,
 * in the background, bound to that reply (that swipe). Keepers run one at a time across replies, so one
 * sees what the one before it left in the chat's memory; a keeper whose reply is gone by its turn is not run.
 * Returns what the takeover calls when an agent's reply landed (SillyTavern's are seen here as they land).
 */
export function watchReplies(): AgentReplyListener {
    const context = stContext();
    context.eventSource.on(context.eventTypes.MESSAGE_RECEIVED!, (index: unknown, type: unknown) => sillyTavernReplyLanded(Number(index), String(type)));
    return (outcome, turn) => {
        const keepers = chatKeepers();
        const index = keepers.length ? findCommitted(outcome.runId) : null;
        if (index !== null) queueKeepers(index, keepers, turn.turnId);
    };
}

/** The open chat's keepers, when Agent Mode is on. */
function chatKeepers(): string[] {
    const state = currentChatAgentState();
    return state.enabled ? state.pipeline.after : [];
}

function sillyTavernReplyLanded(index: number, type: string): void {
    if (!LANDING_TYPES.has(type)) return;
    const keepers = chatKeepers();
    if (keepers.length === 0) return;
    const chat = stContext().chat;
    const message = chat[index];
    if (!message || message.is_user || message.is_system) return;
    // The agent's own commit: the takeover hands its reply over when the run has ended.
    const active = activeRun();
    if (active && markedRunId(message) === active.runId) return;
    // SillyTavern's new swipe keeps the `extra` of the swipe it was made from: not that run's reply, nor its memory.
    if (type === 'swipe') clearReplyMarker(message);
    queueKeepers(index, keepers, turnBefore(chat, index).turnId);
}

let queue: Promise<void> = Promise.resolve();

function queueKeepers(index: number, keepers: readonly string[], turnId: string | null): void {
    const bound = bindReply(index);
    if (!bound) return;
    queue = queue.then(() => runKeepers(bound, [...keepers], turnId)).catch(() => undefined);
}

async function runKeepers(bound: BoundReply, keepers: string[], turnId: string | null): Promise<void> {
    for (const profileId of keepers) {
        // Not inside one of SillyTavern's generations: its reply is saved and its prompt events are its own.
        await untilNotGenerating();
        if (locateBoundReply(bound) === null) return;
        const launched = launchKeeper({ type: 'normal', profileId, follows: bound, ...(turnId ? { turnId } : {}), failureTitle: t`A keeper after the reply failed` });
        // One at a time: the next keeper (of this reply or the next one) starts from the memory this one left.
        // Two at once would both start from the same memory, and the one to end last would drop the other's.
        await launched.outcome;
    }
}
