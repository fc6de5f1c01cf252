import type { JournalEvent } from '../../contract/events';
import type { RunObserver } from '../../contract/run-observer';
import type { RunOutcome } from '../../contract/run-input';
import { openChatIdentity } from '../sillytavern/chat-identity';
import { activeRun, cancelActiveRun } from '../run/active-run';
import { stopBackgroundRun } from '../run/background-runs';
import { launchRun } from '../run/new-run';
import { onRunEvents } from '../run/run-events';
import { getEngine } from '../worker/worker-client';
import { TavernAgentError } from '../../contract/tavern-agent-error';

/** One journal event as scripts see it (SPEC §9). */
export interface PublicRunEvent {
    seq: number;
    type: string;
    at: number;
    payload: unknown;
}

export interface PublicRunInfo {
    runId: string;
    chatId: string;
    state: string;
    profileId: string;
    createdAt: number;
    /** Tokens of all its model turns (its sub-agents' included) and, when its profiles have prices, their cost. */
    usage: { input: number; output: number; cost?: number };
}

export interface RunOptions {
    prompt: string;
    profileId?: string;
    background?: boolean;
}

export { TavernAgentError };

const toPublic = (event: JournalEvent): PublicRunEvent => ({ seq: event.seq, type: event.type, at: event.at, payload: event.payload });

async function unwrap<T>(result: Promise<{ ok: true; value: T } | { ok: false; error: { code: string; message: string } }>): Promise<T> {
    const settled = await result;
    if (!settled.ok) throw new TavernAgentError(settled.error.code, settled.error.message);
    return settled.value;
}

/** Outcomes of the runs this page started, for `/agent run` to wait on. */
const outcomes = new Map<string, Promise<RunOutcome>>();

export function createRunApi(observer: RunObserver) {
    return {
        /** Starts a run in the open chat and resolves with its id as soon as it exists. */
        async run(options: RunOptions): Promise<string> {
            const prompt = typeof options?.prompt === 'string' ? options.prompt.trim() : '';
            if (!prompt) throw new TavernAgentError('run.invalid_input', 'run() needs a non-empty prompt.');
            let launched;
            try {
                launched = launchRun(
                    {
                        type: 'normal',
                        ...(options.profileId ? { profileId: String(options.profileId) } : {}),
                        script: { prompt, background: options.background !== false },
                    },
                    observer,
                );
            } catch (error) {
                const code = (error as { code?: unknown }).code;
                throw new TavernAgentError(typeof code === 'string' ? code : 'run.internal_error', error instanceof Error ? error.message : String(error));
            }
            if (!launched) throw new TavernAgentError('run.already_running', 'An agent run is already in progress.');
            outcomes.set(launched.runId, launched.outcome);
            void launched.outcome.finally(() => setTimeout(() => outcomes.delete(launched.runId), 60_000));
            return launched.runId;
        },

        /** The outcome of a run this page started; null for other runs. */
        outcome(runId: string): Promise<RunOutcome> | null {
            return outcomes.get(runId) ?? null;
        },

        async cancel(runId: string): Promise<boolean> {
            if (activeRun()?.runId === runId) return cancelActiveRun('Cancelled through the API.');
            // A keeper after a reply, working in the background (issue 34).
            return stopBackgroundRun(runId, 'Cancelled through the API.');
        },

        async events(runId: string, options: { fromSeq?: number; limit?: number } = {}): Promise<PublicRunEvent[]> {
            const fromSeq = Math.max(0, Math.floor(Number(options.fromSeq ?? 0)) || 0);
            const events = await unwrap((await getEngine()).readEvents(runId, fromSeq));
            const limit = options.limit === undefined ? events.length : Math.max(0, Math.floor(Number(options.limit)) || 0);
            return events.slice(0, limit).map(toPublic);
        },

        /**
         * Replay from `fromSeq` (stored events), then live: the listener is registered for live events before
         * the journal is read, and every event is delivered once, in seq order, so there is no gap and no
         * duplicate between the two.
         */
        subscribe(runId: string, listener: (event: PublicRunEvent) => void, options: { fromSeq?: number } = {}): () => void {
            if (typeof listener !== 'function') throw new TavernAgentError('run.invalid_input', 'subscribe() needs a listener function.');
            const fromSeq = Math.max(0, Math.floor(Number(options.fromSeq ?? 0)) || 0);
            let last = fromSeq - 1;
            let replaying = true;
            let closed = false;
            const buffered: JournalEvent[] = [];
            const deliver = (event: JournalEvent) => {
                if (closed || event.seq <= last) return;
                last = event.seq;
                try {
                    listener(toPublic(event));
                } catch {
                    // The script's listener failing must not stop the stream for it or others.
                }
            };
            const off = onRunEvents(runId, (events) => {
                if (replaying) buffered.push(...events);
                else events.forEach(deliver);
            });
            const replay = async () => {
                try {
                    const result = await (await getEngine()).readEvents(runId, fromSeq);
                    if (result.ok) result.value.forEach(deliver);
                } finally {
                    // No await between the stored events and the buffered live ones: nothing slips in between.
                    replaying = false;
                    buffered.sort((a, b) => a.seq - b.seq).forEach(deliver);
                    buffered.length = 0;
                }
            };
            void replay().catch(() => undefined);
            return () => {
                closed = true;
                off();
            };
        },

        /** Workspace paths of the run, visible files first, then its hidden stores. */
        async files(runId: string): Promise<string[]> {
            return (await unwrap((await getEngine()).listRunFiles(runId))).map((file) => file.path);
        },

        async readFile(runId: string, path: string): Promise<string> {
            return (await unwrap((await getEngine()).readRunFile(runId, String(path)))).content;
        },

        /**
         * Runs of a chat, oldest first, from storage: any chat, open or not (`chatId` as `/agent status` gives
         * it); the open chat's when absent (none on the welcome screen).
         */
        async runs(options: { chatId?: string } = {}): Promise<PublicRunInfo[]> {
            let chatId = typeof options?.chatId === 'string' && options.chatId ? options.chatId : null;
            chatId ??= openChatIdentity()?.chatId ?? null;
            if (chatId === null) return [];
            const records = await unwrap((await getEngine()).listChatRuns(chatId));
            return records.map(({ runId, chatId: id, state, profileId, createdAt, usage }) => ({ runId, chatId: id, state, profileId, createdAt, usage: usage ?? { input: 0, output: 0 } }));
        },
    };
}

export type RunApi = ReturnType<typeof createRunApi>;
