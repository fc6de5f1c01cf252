import { t } from '../../i18n/t';
import { downloadText } from '../profiles/download';
import { services } from '../services';
import { chatStatus, panelOpen } from '../state';
import type { RunSummary } from './rows';
import { forgetRun, openRun, refreshHistory, refreshViewed } from './run-store';
import { shortId } from './format';

/** The largest run export the panel reads (the worker checks the text again). */
const RUN_IMPORT_MAX_BYTES = 50 * 1024 * 1024;

/** What the timeline's buttons do. Failures are told in a toast; nothing here throws at the user. */

function warn(message: string, title?: string): void {
    services().toast.warning(message, title);
}

/** True when the open chat is the one the run belongs to. */
export function isRunChatOpen(summary: Pick<RunSummary, 'chatKey' | 'chatId'>): boolean {
    const open = services().chat.open();
    return open !== null && open.chatKey === summary.chatKey && open.chatId === summary.chatId;
}

/**
 * Scrolls SillyTavern's chat to the run's reply and flashes it. On a narrow screen the panel steps aside.
 * Never silently to a message another reply took over: a replaced or deleted reply is said instead, and a
 * swiped-away one is found in its message, with a word that another swipe is shown.
 */
export function jumpToMessage(summary: RunSummary, messageId: number): void {
    if (!isRunChatOpen(summary)) {
        warn(t`Open the chat this run belongs to first.`);
        return;
    }
    const place = services().chat.replyPlace(summary.runId, messageId);
    if (place.state === 'replaced') {
        warn(t`This run's reply was replaced: its message now holds another reply.`);
        return;
    }
    if (place.state === 'gone') {
        warn(t`This run's reply is no longer in the chat (deleted).`);
        return;
    }
    if (!reveal(place.index)) return;
    if (place.state === 'swiped') services().toast.info(t`This run's reply was swiped away: swipe on this message to see it again.`);
}

/** Scrolls to a message of the run's chat that no run wrote (SillyTavern's own reply in a turn) and flashes it. */
export function jumpToChatMessage(chat: Pick<RunSummary, 'chatKey' | 'chatId'>, messageId: number): void {
    if (!isRunChatOpen(chat)) {
        warn(t`Open the chat this run belongs to first.`);
        return;
    }
    reveal(messageId);
}

function reveal(index: number): boolean {
    if (!services().chat.revealMessage(index)) {
        warn(t`That message is not shown: it was deleted, or it is not loaded yet (scroll up in the chat to load older messages).`);
        return false;
    }
    if (window.matchMedia('(max-width: 1000px)').matches) panelOpen.value = false;
    return true;
}

/**
 * A new run for the same turn, the way SillyTavern does it: /regenerate (groups included) when the run's
 * reply is the last message, or when the run left no reply and the user's message is still the last one.
 */
export async function retryRun(summary: RunSummary): Promise<void> {
    const refusal = retryRefusal(summary);
    if (refusal) {
        warn(refusal.message, refusal.title);
        return;
    }
    await services().chat.regenerate();
}

/**
 * Why Retry would refuse this run now, or null: the one rule behind the button's state and its click
 * (issue 40 §6: a button that can only answer "Cannot retry" is drawn disabled, with the reason).
 */
export function retryRefusal(summary: RunSummary): { message: string; title?: string } | null {
    const chat = services().chat;
    if (chatStatus.value.run || chat.generating()) return { message: t`Wait until the current generation has ended.` };
    if (!isRunChatOpen(summary)) return { message: t`Open the chat this run belongs to first.` };
    const last = chat.lastMessage();
    if (summary.messageId !== null) {
        if (summary.messageId !== last?.index || last.runId !== summary.runId) {
            return { message: t`Retry repeats the latest turn only. This run's reply is no longer the last message: swipe or edit it in the chat instead.`, title: t`Cannot retry` };
        }
    } else if (!last?.isUser) {
        return { message: t`Retry repeats the latest turn only. The chat has moved on since this run: send a new message instead.`, title: t`Cannot retry` };
    }
    return null;
}

export async function commitDraftText(summary: RunSummary, path: string): Promise<void> {
    const result = await services().chat.commitDraft(summary.runId, path);
    if (!result.ok) {
        warn(`${result.error.message} (${result.error.code})`, t`The text was not committed`);
        return;
    }
    services().toast.success(t`The text is now a new reply in the chat.`);
    void refreshHistory();
}

export async function restoreCheckpoint(runId: string, seq: number): Promise<boolean> {
    const result = await (await services().engine()).restoreCheckpoint(runId, seq);
    if (!result.ok) {
        warn(`${result.error.message} (${result.error.code})`, t`Not restored`);
        return false;
    }
    services().toast.success(t`The checkpoint's text is the file's current version again, in the run's workspace. The chat is not changed.`);
    await refreshViewed();
    return true;
}

/** A checkpoint's text replaces the run's reply in the chat (the host's commit path; refused when the reply is not shown). */
export async function putVersionInChat(summary: RunSummary, seq: number): Promise<boolean> {
    if (!isRunChatOpen(summary)) {
        warn(t`Open the chat this run belongs to first.`);
        return false;
    }
    const result = await services().chat.replaceReply(summary.runId, seq);
    if (!result.ok) {
        warn(`${result.error.message} (${result.error.code})`, t`The reply was not changed`);
        return false;
    }
    services().toast.success(t`This version is now the run's reply in the chat.`);
    // The run gained a commit row and checkpoint (journaled after the chat changed): read them in.
    await refreshViewed();
    void refreshHistory();
    return true;
}

export async function exportRunFile(runId: string): Promise<void> {
    // The export is the whole run: whoever gets the file can read everything the agent was given.
    const warning = t`This file holds everything the run was given: the prompt, the character card, your persona and the chat, with the agent's files. Share it only with people who may read all of that. Export?`;
    if (!(await services().confirm(warning))) return;
    const result = await (await services().engine()).exportRun(runId);
    if (!result.ok) {
        warn(`${result.error.message} (${result.error.code})`, t`Export failed`);
        return;
    }
    downloadText(`tavern-agent-run-${shortId(runId)}.json`, result.value);
}

/** Stores an exported run read-only and shows it. Returns an error message, or null when it worked. */
export async function importRunFile(file: File): Promise<string | null> {
    if (file.size > RUN_IMPORT_MAX_BYTES) return t`This file is too large to import (over 50 MiB).`;
    const result = await (await services().engine()).importRun(await file.text());
    if (!result.ok) return `${result.error.message} (${result.error.code})`;
    await refreshHistory();
    await openRun(result.value.runId);
    return null;
}

export async function deleteRunRecord(runId: string): Promise<void> {
    if (!(await services().confirm(t`Delete this run's record (its journal, files and checkpoints)? The chat is not changed.`))) return;
    const result = await (await services().engine()).deleteRun(runId);
    if (!result.ok) {
        warn(`${result.error.message} (${result.error.code})`, t`Not deleted`);
        return;
    }
    forgetRun(runId);
}

/** Copies text to the clipboard; falls back to a hidden text area where the Clipboard API is refused. */
export async function copyText(text: string): Promise<void> {
    try {
        await navigator.clipboard.writeText(text);
    } catch {
        const area = document.createElement('textarea');
        area.value = text;
        area.setAttribute('readonly', '');
        area.style.position = 'fixed';
        area.style.opacity = '0';
        document.body.append(area);
        area.select();
        document.execCommand('copy');
        area.remove();
    }
    services().toast.info(t`Copied`);
}

/** Continues an interrupted run from its journal, in its own chat; a refusal says why. */
/** Gives a run that ended on its budget `rounds` more (issue 38 §5), refused with a toast naming the code. */
export async function continueRunFromPanel(summary: RunSummary, rounds: number): Promise<void> {
    const chat = services().chat;
    if (!chat.continueRun) return;
    if (chatStatus.value.run || chat.generating()) {
        warn(t`Wait until the current generation has ended.`);
        return;
    }
    const result = await chat.continueRun(summary.runId, rounds);
    if (!result.ok) warn(`${result.error.message} (${result.error.code})`, t`Not continued`);
    void refreshHistory();
}

export async function resumeInterruptedRun(summary: RunSummary): Promise<void> {
    const chat = services().chat;
    if (!chat.resume) return;
    if (chatStatus.value.run || chat.generating()) {
        warn(t`Wait until the current generation has ended.`);
        return;
    }
    if (!isRunChatOpen(summary)) {
        warn(t`Open the chat this run belongs to first.`);
        return;
    }
    const result = await chat.resume(summary.runId);
    if (!result.ok) warn(`${result.error.message} (${result.error.code})`, t`Not resumed`);
    void refreshHistory();
}
