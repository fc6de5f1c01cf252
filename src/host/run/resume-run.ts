import { fail, ok, type Result } from '../../contract/result';
import type { RunOutcome } from '../../contract/run-input';
import type { RunObserver } from '../../contract/run-observer';
import type { ResumeOptions } from '../../contract/wire';
import { t } from '../../i18n/t';
import type { CommitTarget } from '../chat/commit';
import { createResumedCommit, findCommitted } from '../chat/find-committed';
import { resolveFixTarget } from '../chat/fix-target';
import { routeModel } from '../model/model-route';
import { connectionProfiles } from '../model/connection-profiles';
import { storedProfiles } from '../settings/profile-store';
import { openChatIdentity, sameChat } from '../sillytavern/chat-identity';
import { editedSinceCommit, markedRunId } from '../sillytavern/message-marker';
import { stContext, type ChatMessage } from '../sillytavern/st-context';
import { getEngine } from '../worker/worker-client';
import { activeRun } from './active-run';
import { driveRun } from './drive-run';
import { defaultRunObserver } from './default-observer';

/**
 * A resumed fix run's hold on the reply it revises: the message itself, and until the run's first commit
 * the marker it replaces, so its commits revise that message instead of writing a new one.
 */
function resumedFixTarget(chat: ChatMessage[], index: number, runId: string): Pick<CommitTarget, 'message' | 'messageId' | 'committedText' | 'fixing'> | null {
    const message = chat[index];
    const markedBy = markedRunId(message);
    if (!message || !markedBy) return null;
    if (markedBy === runId) return { message, messageId: index, committedText: message.mes };
    const found = resolveFixTarget(chat, index);
    if (!found.ok) return null;
    return { message, messageId: index, committedText: message.mes, fixing: { previousRunId: found.value.previousRunId, ...(found.value.memory ? { memory: found.value.memory } : {}) } };
}

/**
 * Continues a run that ended on its budget with `rounds` more (its profile's round budget when absent, at
 * most 200), as the same run from its journal (issue 38 §5); refused with `run.chat_moved` once the chat has
 * a newer message than its reply, `run.not_continuable` when it did not end on its budget.
 */
export function continueRun(runId: string, rounds?: number, observer: RunObserver | null = defaultRunObserver()): Promise<Result<RunOutcome>> {
    return resumeRun(runId, observer, { continue: rounds === undefined ? {} : { rounds } });
}

/** The open chat's newest run, if any: what `/agent continue` continues. */
export async function newestRun(): Promise<string | null> {
    const chatKey = openChatIdentity()?.integrity;
    if (!chatKey) return null;
    const runs = await (await getEngine()).listRuns(chatKey);
    if (!runs.ok) return null;
    const foreground = runs.value.filter((run) => (run.phase ?? 'reply') === 'reply').sort((a, b) => b.createdAt - a.createdAt);
    return foreground[0]?.runId ?? null;
}

/** The open chat's newest interrupted run, if any. */
export async function newestInterruptedRun(): Promise<string | null> {
    const chatKey = openChatIdentity()?.integrity;
    if (!chatKey) return null;
    const runs = await (await getEngine()).listRuns(chatKey);
    if (!runs.ok) return null;
    const interrupted = runs.value.filter((run) => run.state === 'interrupted').sort((a, b) => b.createdAt - a.createdAt);
    return interrupted[0]?.runId ?? null;
}

/**
 * What the resumed run's commits compare the reply with (issue 39 §6): the text it last committed, when the
 * reply still holds it. When the user edited the reply since, its next commit is refused with their text, as
 * a live run's is; a reply whose marker kept no hash (committed before the hash existed) is taken as it is.
 */
const EDITED_SINCE_COMMIT = '\u0000edited since the run committed';

function ownText(message: ChatMessage | undefined): Pick<CommitTarget, 'message' | 'committedText'> {
    if (!message) return {};
    return { message, committedText: editedSinceCommit(message) ? EDITED_SINCE_COMMIT : message.mes };
}

/**
 * Continues an interrupted run (issue 13 §1), refused with a reason when another run is going, the chat is
 * not open, or it moved on past what the run saw (a message edited, deleted or added that is not the run's
 * own reply). The run's commits look its message up by marker first, so nothing lands twice.
 */
export async function resumeRun(runId: string, observer: RunObserver | null = defaultRunObserver(), options: ResumeOptions = {}): Promise<Result<RunOutcome>> {
    if (!observer) return fail('run.not_prepared', t`Tavern Agent has not started yet.`);
    if (activeRun()) return fail('run.already_running', t`An agent run is already in progress.`);
    const engine = await getEngine();
    const ticket = await engine.prepareResume(runId, storedProfiles(), { ...options, connections: connectionProfiles() });
    if (!ticket.ok) return ticket;
    const { profile, chat, prefix, generationType } = ticket.value;
    const identity = openChatIdentity();
    if (!identity || !sameChat(identity, chat)) return fail('run.chat_moved', t`Open the chat this run belongs to first.`);
    const messages = stContext().chat;
    const own = findCommitted(runId);
    // A fix run revises a message of its own prefix: once it committed there, that message's new text is its own.
    const fixed = ticket.value.fix ? resumedFixTarget(messages, ticket.value.fix.messageIndex, runId) : null;
    if (ticket.value.fix && !fixed) return fail('run.chat_moved', t`The reply this fix run revises is gone from the chat, so it cannot be resumed.`);
    const changed = prefix.some((message) => message.index !== own && messages[message.index]?.mes !== message.text);
    // A swipe run's target is the message after its prefix: it may hold the run's reply, or the old swipe.
    const extra = messages.slice(prefix.length).filter((_, offset) => prefix.length + offset !== own && !(generationType === 'swipe' && offset === 0));
    if (options.continue && (changed || extra.length > 0)) {
        return fail('run.chat_moved', t`The chat has moved on since this run (a newer message than its reply, or a message edited or deleted), so it cannot continue. Start a new run instead.`);
    }
    if (changed || extra.length > 0) {
        return fail('run.chat_moved', t`The chat has changed since this run started (a message was added, edited or deleted), so it cannot be resumed. Start a new run instead.`);
    }
    const target: CommitTarget = { runId, identity, generationType, messageId: own, closed: false, ...(fixed ?? {}), ...ownText(own === null ? undefined : messages[own]) };
    const outcome = driveRun(
        {
            runId,
            generationType,
            target,
            state: 'running',
            // The user resumed it and watches it: SillyTavern's Stop stops it, as a run started by Send.
            holdsGenerating: true,
            start: async () => ({ route: routeModel(profile), commit: createResumedCommit(target, ticket.value.messageId), run: (bridge) => engine.resumeRun(runId, bridge) }),
        },
        observer,
    );
    // Another run may have started while the ticket was read.
    if (!outcome) return fail('run.already_running', t`An agent run is already in progress.`);
    return ok(await outcome);
}
