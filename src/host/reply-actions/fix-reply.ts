import { fail, ok, type Result } from '../../contract/result';
import type { RunOutcome } from '../../contract/run-input';
import { t } from '../../i18n/t';
import { resolveFixTarget } from '../chat/fix-target';
import { activeRun } from '../run/active-run';
import { launchRun } from '../run/new-run';
import { defaultRunObserver } from '../run/default-observer';
import { currentIdentity, isOpenChat, openChatIdentity } from '../sillytavern/chat-identity';
import { askText } from '../sillytavern/popup';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { toasts } from '../sillytavern/toasts';

/**
 * Starts a fix run (issue 13 §1): a new foreground run that revises an agent reply of the open chat in
 * place. `message` is the reply by identity (the button's), else `messageId` (null: the chat's last agent
 * reply). Refused, as data, when another run is going, no chat is open, or the message is not an agent
 * reply of the open chat.
 */
export function startFix(request: string, pick: { messageId: number | null } | { message: ChatMessage }): Result<{ runId: string; outcome: Promise<RunOutcome> }> {
    const observer = defaultRunObserver();
    if (!observer) return fail('run.not_prepared', t`Tavern Agent has not started yet.`);
    if (!request.trim()) return fail('run.invalid_input', t`Say what to change, e.g. /agent fix make it shorter.`);
    if (activeRun()) return fail('run.already_running', t`An agent run is already in progress.`);
    if (!openChatIdentity()) return fail('host.no_chat', t`Open a chat first.`);
    const chat = stContext().chat;
    let messageId: number | null;
    if ('message' in pick) {
        messageId = chat.indexOf(pick.message);
        if (messageId < 0) return fail('run.fix_message_not_found', t`That reply is not in the open chat.`);
    } else {
        messageId = pick.messageId;
    }
    const target = resolveFixTarget(chat, messageId);
    if (!target.ok) return target;
    const launched = launchRun({ type: 'normal', fix: { target: target.value, request: request.trim() } }, observer);
    return launched ? ok(launched) : fail('run.already_running', t`An agent run is already in progress.`);
}

/**
 * The wand button of an agent reply: asks for the request in SillyTavern's input popup, then starts the
 * fix. The message is held by identity across the popup, so a chat switched meanwhile is refused, never
 * fixed in the wrong chat.
 */
export async function askAndFix(message: ChatMessage): Promise<void> {
    const identity = currentIdentity();
    const answer = await askText(t`How should the agent revise this reply?`, { rows: 3, okButton: t`Fix` });
    if (answer === null) return;
    const started = isOpenChat(identity) ? startFix(answer, { message }) : fail('run.fix_message_not_found', t`That reply is not in the open chat.`);
    if (!started.ok) toasts.warning(`${started.error.message} (${started.error.code})`, t`Not fixed`);
}
