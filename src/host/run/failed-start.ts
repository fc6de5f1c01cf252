import type { JournalEvent } from '../../contract/events';
import type { FailedStart } from '../../contract/failed-start';
import type { GenerationType, RunPhase } from '../../contract/run-input';
import type { ChatIdentity } from '../../contract/run-input';
import { getEngine } from '../worker/worker-client';

/** What a new run's page knows of it before it starts: enough to keep it as a failed run (issue 39 §10). */
export interface StartFacts {
    /** The profile it was to run with, as named (the chat's, or the one asked for). */
    profileId: string;
    phase?: RunPhase;
    turnId?: string;
    /** Whether it would have worked in the foreground (a reply, or a foreground script run). */
    foreground: boolean;
}

/**
 * Ends that are no failure of this run's start: it was refused because another works on the chat (told by a
 * warning), the worker died (the run is interrupted, resumable), or a keeper's reply went first (nothing to tell).
 */
const NOT_KEPT: ReadonlySet<string> = new Set(['run.chat_busy', 'run.already_running', 'run.interrupted', 'host.engine_crashed', 'pipeline.reply_gone']);

/** How long the run's end waits for the engine to keep it; past that it ends with the toast alone. */
const KEEP_WAIT_MS = 5000;

/**
 * Asks the engine to keep a run that failed before it started as a failed run of its chat, journal and record,
 * so the timeline and History show it with its reason (a toast alone is gone with the page). Returns the events
 * written, for the live timeline; none when the end is not a failure of the start, the run got further (it has
 * a record), or the engine could not be reached in time.
 */
export async function keepFailedStart(
    run: { runId: string; generationType: GenerationType; identity: ChatIdentity },
    facts: StartFacts,
    error: { code: string; message: string },
): Promise<JournalEvent[]> {
    if (NOT_KEPT.has(error.code)) return [];
    const failed: FailedStart = {
        runId: run.runId,
        chatId: run.identity.chatId,
        chatKey: run.identity.integrity,
        profileId: facts.profileId.slice(0, 200),
        generationType: run.generationType,
        ...(facts.phase ? { phase: facts.phase } : {}),
        ...(facts.turnId ? { turnId: facts.turnId.slice(0, 200) } : {}),
        foreground: facts.foreground,
        error: { code: error.code.slice(0, 200), message: error.message.slice(0, 4000) },
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<JournalEvent[]>((resolve) => (timer = setTimeout(() => resolve([]), KEEP_WAIT_MS)));
    const kept = (async () => {
        try {
            const result = await (await getEngine()).recordFailedStart(failed);
            return result.ok ? result.value : [];
        } catch {
            return [];
        }
    })();
    try {
        return await Promise.race([kept, late]);
    } finally {
        clearTimeout(timer);
    }
}
