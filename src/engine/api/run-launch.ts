import { releaseProxy, type Remote } from 'comlink';
import { fail, ok, type Result } from '../../contract/result';
import type { RunInput, RunOutcome } from '../../contract/run-input';
import type { EventPortMessage, HostBridge } from '../../contract/wire';
import { extToolDefinitions } from '../../tools/ext';
import { ALL_TOOLS } from '../../tools/registry';
import { extToolCaller } from '../agents/ext-tool-caller';
import { GuidanceQueue } from '../agents/guidance-queue';
import { pruneRuns } from '../archive/retention';
import { createEventPump } from '../journal/event-pump';
import type { RunDependencies } from '../run/run-session';
import type { RunStorage } from '../../store/run-storage';
import { withChatWriter } from '../tabs/chat-writer';
import { ChatBusy } from '../tabs/leases';
import { webLocks } from '../tabs/protocol';
import { withRunLock } from '../tabs/run-locks';
import { workerSandboxPool } from '../scripts/sandbox-pool';
import { skillFileReader } from './skills-api';
import type { EngineState } from './engine-state';

/** Runs a run (new or resumed) with what it works with in this engine. */
export type RunWork = (deps: RunDependencies) => Promise<RunOutcome>;

/**
 * The engine's side of every run's launch, new or resumed: the run becomes its chat's only writer (tabs/),
 * holds its run lock, gets its cancel and guidance, its tools and event sink, and its outcome goes out only
 * after the page has taken all its events. Afterwards the chat is pruned by the user's retention settings.
 */
export async function launchRun(state: EngineState, storage: RunStorage, input: Pick<RunInput, 'runId' | 'chat' | 'extTools' | 'phase'>, host: HostBridge, work: RunWork): Promise<Result<RunOutcome>> {
    const { runId } = input;
    const chatKey = input.chat.integrity;
    if (state.running.has(runId)) return fail('run.already_running', `Run ${runId} is already running.`);
    const controller = new AbortController();
    const guidance = new GuidanceQueue();
    state.running.set(runId, { controller, guidance });
    const busy = () => fail('run.chat_busy', 'An agent is already working on this chat (in this or another tab); wait for it to end.');
    // A keeper after a reply writes no chat message (only its memory, into the reply it follows): it works
    // beside the chat's writer, so the user's next turn never waits for it (issue 34).
    const keeper = input.phase === 'after';
    const run = async (): Promise<Result<RunOutcome>> => {
        let outcome: RunOutcome;
        try {
            outcome = await withRunLock(runId, async () => {
                const events = await liveSink(state, host, chatKey);
                // Closed however the run ends (a throw skips the flush), so neither end of the port outlives it.
                try {
                    const outcome = await work({
                        storage,
                        host,
                        tools: [...ALL_TOOLS, ...extToolDefinitions(input.extTools ?? [], extToolCaller(host, runId))],
                        sink: events.sink,
                        signal: controller.signal,
                        guidance,
                        // Without Web Locks the lease is what makes the run its chat's only writer (tabs/protocol.ts).
                        lease: { owner: state.engineId, exclusive: !keeper && webLocks() === null, onLost: () => controller.abort('Another tab took this run over.') },
                        scripts: (state.scripts ??= workerSandboxPool()),
                        ...(state.skillCache ? { skillFiles: skillFileReader(state.skillCache) } : {}),
                    });
                    await events.delivered();
                    return outcome;
                } finally {
                    events.close();
                }
            });
        } catch (error) {
            if (error instanceof ChatBusy) return busy();
            throw error;
        }
        state.live?.ended(chatKey, outcome);
        return ok(outcome);
    };
    try {
        return keeper ? await run() : await withChatWriter(chatKey, run, busy);
    } finally {
        state.running.delete(runId);
        // Storage stays bounded: after each run, its chat keeps only what the retention settings say
        // (in the background: the run's outcome does not wait for it).
        void pruneRuns(storage, { action: 'retention', chatKeys: [chatKey], policy: state.retention }, (id) => state.running.has(id)).catch(() => undefined);
    }
}

/** The run's bridge is a comlink proxy made for this run: release it, or the page keeps it forever. */
export function releaseBridge(host: HostBridge): void {
    (host as Partial<Remote<HostBridge>>)[releaseProxy]?.();
}

/**
 * Events go to this tab's page, and to other tabs (read-only live view) over the live channel. To the page
 * they travel one way on the run's event port (no answer a round), or through the bridge where there is no
 * port (test fakes). `delivered` waits until the page has taken every event sent so far: the outcome goes
 * on the engine's own port, and two ports keep no order between them. Without the wait the page could hear
 * the run end before its last events (seen: 100 ms before), and show them after it.
 */
async function liveSink(state: EngineState, host: HostBridge, chatKey: string) {
    const port = (await Promise.resolve(host.openEventPort?.()).catch(() => undefined)) ?? null;
    let taken: Promise<unknown> = Promise.resolve();
    const sink = createEventPump((events) => {
        if (port) port.postMessage({ type: 'events', events } satisfies EventPortMessage);
        else taken = Promise.resolve(host.onEvents(events)).catch(() => undefined);
        state.live?.publish(chatKey, events);
    });
    const delivered = async () => {
        // The pump sends in a microtask after the last append: let it go first.
        await Promise.resolve();
        if (!port) return void (await taken);
        // The page answers the flush after every event before it, on the same port, so in order.
        await new Promise<void>((resolve) => {
            port.onmessage = () => resolve();
            port.postMessage({ type: 'flush' } satisfies EventPortMessage);
        });
    };
    return { sink, delivered, close: () => port?.close() };
}
