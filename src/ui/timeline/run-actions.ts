import { commitDraft } from '../../host/commit-draft';
import { t } from '../../i18n/t';
import { activeRun } from '../../host/run-controller';
import { currentIdentity } from '../../host/snapshot';
import { stContext } from '../../host/st-context';
import { getEngine } from '../../host/worker-client';
import { confirmAction } from '../profiles/confirm';
import { downloadText } from '../profiles/download';
import { panelOpen } from '../state';
import type { RunSummary } from './rows';
import { forgetRun, openRun, refreshHistory, refreshViewed } from './run-store';
import { shortId } from './format';

/** What the timeline's buttons do. Failures are told in a toast; nothing here throws at the user. */

function warn(message: string, title?: string): void {
    globalThis.toastr?.warning(message, title);
}

/** True when the open chat is the one the run belongs to. */
export function isRunChatOpen(summary: Pick<RunSummary, 'chatKey' | 'chatId'>): boolean {
    try {
        const identity = currentIdentity();
        return identity.integrity === summary.chatKey && identity.chatId === summary.chatId;
    } catch {
        return false;
    }
}

function markerOf(message: { extra?: Record<string, unknown> } | undefined): string | null {
    const marker = message?.extra?.tavern_agent;
    return marker && typeof marker === 'object' ? String((marker as { runId?: unknown }).runId ?? '') : null;
}

/** Scrolls SillyTavern's chat to a message and flashes it. On a narrow screen the panel steps aside. */
export function jumpToMessage(summary: RunSummary, messageId: number): void {
    if (!isRunChatOpen(summary)) {
        warn(t`Open the chat this run belongs to first.`);
        return;
    }
    const element = document.querySelector<HTMLElement>(`#chat .mes[mesid="${Math.trunc(messageId)}"]`);
    if (!element) {
        warn(t`That message is not shown: it was deleted, or it is not loaded yet (scroll up in the chat to load older messages).`);
        return;
    }
    if (window.matchMedia('(max-width: 1000px)').matches) panelOpen.value = false;
    element.scrollIntoView({ block: 'center', behavior: window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth' });
    element.classList.remove('tavern-agent--flash');
    void element.offsetWidth; // restarts the animation when jumping to the same message twice
    element.classList.add('tavern-agent--flash');
    setTimeout(() => element.classList.remove('tavern-agent--flash'), 2200);
}

/**
 * A new run for the same turn, the way SillyTavern does it: /regenerate (groups included) when the run's
 * reply is the last message, or when the run left no reply and the user's message is still the last one.
 */
export async function retryRun(summary: RunSummary): Promise<void> {
    if (activeRun() || document.body.dataset.generating !== undefined) {
        warn(t`Wait until the current generation has ended.`);
        return;
    }
    if (!isRunChatOpen(summary)) {
        warn(t`Open the chat this run belongs to first.`);
        return;
    }
    const chat = stContext().chat;
    const last = chat.length - 1;
    if (summary.messageId !== null) {
        if (summary.messageId !== last || markerOf(chat[last]) !== summary.runId) {
            warn(t`Retry repeats the latest turn only. This run's reply is no longer the last message: swipe or edit it in the chat instead.`, t`Cannot retry`);
            return;
        }
    } else if (!chat[last]?.is_user) {
        warn(t`Retry repeats the latest turn only. The chat has moved on since this run: send a new message instead.`, t`Cannot retry`);
        return;
    }
    await stContext().executeSlashCommandsWithOptions('/regenerate');
}

export async function commitDraftText(summary: RunSummary, path: string): Promise<void> {
    const result = await commitDraft(summary.runId, path);
    if (!result.ok) {
        warn(`${result.error.message} (${result.error.code})`, t`The text was not committed`);
        return;
    }
    globalThis.toastr?.success(t`The text is now a new reply in the chat.`);
    void refreshHistory();
}

export async function restoreCheckpoint(runId: string, seq: number): Promise<boolean> {
    const result = await (await getEngine()).restoreCheckpoint(runId, seq);
    if (!result.ok) {
        warn(`${result.error.message} (${result.error.code})`, t`Not restored`);
        return false;
    }
    globalThis.toastr?.success(t`The checkpoint's text is the file's current version again.`);
    await refreshViewed();
    return true;
}

export async function exportRunFile(runId: string): Promise<void> {
    const result = await (await getEngine()).exportRun(runId);
    if (!result.ok) {
        warn(`${result.error.message} (${result.error.code})`, t`Export failed`);
        return;
    }
    downloadText(`tavern-agent-run-${shortId(runId)}.json`, result.value);
}

/** Stores an exported run read-only and shows it. Returns an error message, or null when it worked. */
export async function importRunFile(file: File): Promise<string | null> {
    const result = await (await getEngine()).importRun(await file.text());
    if (!result.ok) return `${result.error.message} (${result.error.code})`;
    await refreshHistory();
    await openRun(result.value.runId);
    return null;
}

export async function deleteRunRecord(runId: string): Promise<void> {
    if (!(await confirmAction(t`Delete this run's record (its journal, files and checkpoints)? The chat is not changed.`))) return;
    const result = await (await getEngine()).deleteRun(runId);
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
    globalThis.toastr?.info(t`Copied`);
}
