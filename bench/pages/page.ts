// The page side of the worker figures: starts the bench worker and, for the loop figure, plays the host
// the way the extension's main thread does (a comlink proxy passed to engine.startRun), only instant:
// every model reply is built before the run starts, so no model time is in the figure.
import { proxy, transfer, wrap } from 'comlink';
import { createConversationStore } from '../../src/host/model/conversation-store';
import { WRITER_PROFILE } from '../../src/contract/profile';
import type { JournalEvent } from '../../src/contract/events';
import type { RunInput } from '../../src/contract/run-input';
import type { HostBridge } from '../../src/contract/wire';
import type { WorkerBench } from './worker-bench';

const worker = wrap<WorkerBench>(new Worker(new URL('./worker-bench.js', import.meta.url), { type: 'module', name: 'bench' }));

function toolCall(round: number, index: number, name: string, args: unknown) {
    return { id: `call_${round}_${index}`, type: 'function', function: { name, arguments: JSON.stringify(args) } };
}

/** OpenAI-shaped replies: `rounds` rounds of one workspace_list_files call, then write + commit + finish. */
function scriptedReplies(rounds: number): unknown[] {
    const replies: unknown[] = [];
    const reply = (round: number, calls: unknown[]) => ({
        id: `bench-${round}`,
        object: 'chat.completion',
        model: 'bench',
        choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls }, finish_reason: 'tool_calls' }],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
    });
    for (let round = 1; round <= rounds; round += 1) replies.push(reply(round, [toolCall(round, 0, 'workspace_list_files', {})]));
    const last = rounds + 1;
    replies.push(
        reply(last, [
            toolCall(last, 0, 'workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet tonight.' }),
            toolCall(last, 1, 'workspace_commit', {}),
            toolCall(last, 2, 'workspace_finish', {}),
        ]),
    );
    return replies;
}

function runInput(runId: string): RunInput {
    return {
        runId,
        generationType: 'normal',
        chat: { chatId: 'bench', integrity: 'bench-chat', characterId: '0', groupId: null, characterName: 'Seraphina', userName: 'Tester' },
        prefix: [
            { index: 0, role: 'assistant', name: 'Seraphina', text: 'Welcome to the glade.', hidden: false, agentRunId: null },
            { index: 1, role: 'user', name: 'Tester', text: 'Tell me about the forest.', hidden: false, agentRunId: null },
        ],
        prompt: [
            { role: 'system', content: 'You are Seraphina, a kind healer of the forest.' },
            { role: 'assistant', content: 'Welcome to the glade.' },
            { role: 'user', content: 'Tell me about the forest.' },
        ],
        worldInfo: { captured: true, entries: [] },
        profile: { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 500, maxCallsPerRun: 2000 } },
        source: 'custom',
        retry: { maxRetries: 0, baseDelayMs: 0 },
        skills: [],
        hiddenSkills: [],
    };
}

/** A writer allowed to delegate, with room for the serial script's seven rounds. */
function subagentInput(runId: string): RunInput {
    const input = runInput(runId);
    return { ...input, profile: { ...input.profile, delegation: { ...input.profile.delegation, canDelegate: true } } };
}

let opened = false;

/** One whole run with `rounds` list-files rounds; wall time on the page, host time (≈ 0) kept apart. */
function timedRun(rounds: number) {
    return timedPageRun(runInput(`bench-${crypto.randomUUID()}`), scriptedReplies(rounds), rounds);
}

/**
 * One whole run of the engine through this page, as the extension runs it: the engine in the worker, every
 * model request crossing to this page's host (instant: the replies are built before), which keeps the
 * conversation as the extension's host does. `spaced` rounds' request spacing is reported.
 */
async function timedPageRun(input: RunInput, replies: unknown[], spaced = 0): Promise<{ wallMs: number; hostMs: number; events: number; state: string; crossedMessages: number; crossedChars: number; crossedTools: number; deliveries: number; spacing: number[] }> {
    if (!opened) {
        const result = await worker.open(`bench-loop-${crypto.randomUUID()}`);
        if (!result.ok) throw new Error(result.error.message);
        opened = true;
    }
    let hostMs = 0;
    let events = 0;
    // What crosses worker → page in model requests: messages and their characters.
    let crossedMessages = 0;
    let crossedChars = 0;
    // Tool schemas (about 1 KB each) in those requests: sent once per conversation, not every round.
    let crossedTools = 0;
    let deliveries = 0;
    // When each model request reached the page: the spacing of the list-files rounds is one round each.
    const requestTimes: number[] = [];
    // The page keeps each conversation, as the extension's host does (only new messages cross per round).
    const conversations = createConversationStore();
    const host: HostBridge = {
        async requestModel(request) {
            const started = performance.now();
            requestTimes.push(started);
            crossedMessages += request.messages.length;
            for (const message of request.messages) crossedChars += typeof message.content === 'string' ? message.content.length : 0;
            crossedTools += request.tools.length;
            // As the extension's host (model-requests.ts): the whole conversation and its tools, kept here.
            const resolved = conversations.resolveRequest(request);
            const raw = replies[request.round - 1];
            hostMs += performance.now() - started;
            if (resolved === null) return { ok: false, status: null, message: 'conversation missing', aborted: false, conversationMissing: true };
            return raw ? { ok: true, raw, durationMs: 0, keepsConversation: true } : { ok: false, status: 500, message: 'no scripted reply', retryable: false, aborted: false };
        },
        async commit() {
            return { ok: true, value: { messageId: 2 } };
        },
        onEvents(batch: JournalEvent[]) {
            events += batch.length;
            deliveries += 1;
        },
    };
    // The engine runs the profile prepareRun resolved (as the extension does): the bench's writer, stored as an override.
    const prepared = await worker.prepareRun(input.runId, input.profile.id, { [input.profile.id]: input.profile });
    if (!prepared.ok) throw new Error(prepared.error.message);
    const started = performance.now();
    const outcome = await worker.startRun(input, proxy(host));
    const wallMs = performance.now() - started;
    if (!outcome.ok) throw new Error(outcome.error.message);
    if (outcome.value.state !== 'completed') throw new Error(`the run ${outcome.value.state}: ${outcome.value.error?.message}`);
    // Rounds 2..N (each a list-files round followed by the next request); the last request is the write round's.
    const spacing = requestTimes.slice(1, spaced + 1).map((at, i) => at - requestTimes[i]!);
    return { wallMs, hostMs, events, state: outcome.value.state, crossedMessages, crossedChars, crossedTools, deliveries, spacing };
}

/** The tally two ways (worker-bench.ts tallyScripts), each a whole run through this page; their wall times. */
async function tallyTwoWays(searches: number): Promise<{ programMs: number; roundsMs: number }> {
    const tally = await worker.tallyScripts(searches);
    const programMs = (await timedPageRun({ ...tally.input, runId: `tally-program-${crypto.randomUUID()}` }, tally.program)).wallMs;
    const roundsMs = (await timedPageRun({ ...tally.input, runId: `tally-rounds-${crypto.randomUUID()}` }, tally.rounds)).wallMs;
    return { programMs, roundsMs };
}

/**
 * The worker ↔ page floors: the page echoes a bare postMessage on a MessagePort, and answers a comlink call
 * on a proxy, each carrying a payload the size of one round's model request (248 characters of messages).
 */
function roundTrips(count: number) {
    const channel = new MessageChannel();
    channel.port1.onmessage = (event) => channel.port1.postMessage(event.data);
    const payload = { runId: 'bench', requestId: 'root:1', round: 1, messages: [{ role: 'tool', tool_call_id: 'call_1_0', content: 'x'.repeat(200) }], conversation: { key: 'root', base: 4 } };
    return worker.roundTrips(transfer(channel.port2, [channel.port2]), proxy({ echo: async (value: unknown) => value }), count, payload).finally(() => channel.port1.close());
}

/** The same run through the page's engine (same database), with the host inside the worker. */
function engineLocalRun(rounds: number) {
    return worker.engineLocalRun(runInput(`bench-${crypto.randomUUID()}`), scriptedReplies(rounds));
}

/** The same scripted run with the host inside the worker: IndexedDB or memory storage, no page traffic. */
function inWorkerRun(rounds: number, storage: 'idb' | 'memory'): Promise<{ ms: number; storageCalls: number; storageMs: number }> {
    return worker.inWorkerRun(runInput(`bench-${crypto.randomUUID()}`), scriptedReplies(rounds), storage);
}

/**
 * Imports a 1,000-file skill zip the way the extension does: the page hands the bytes to the worker, which
 * unzips, checks, hashes and normalizes. Counts long tasks (> 50 ms) on this page's main thread meanwhile.
 */
/** Runs `work`, and counts the page's long tasks (> 50 ms) that overlapped it. */
async function withLongTasks<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; longTasks: number; longTaskMs: number }> {
    const tasks: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries()));
    observer.observe({ type: 'longtask', buffered: false });
    const started = performance.now();
    const value = await work();
    const ms = performance.now() - started;
    // Long-task entries are queued after the task: let them arrive.
    await new Promise((resolve) => setTimeout(resolve, 200));
    tasks.push(...observer.takeRecords());
    observer.disconnect();
    const inRun = tasks.filter((task) => task.startTime + task.duration >= started && task.startTime <= started + ms);
    return { value, ms, longTasks: inRun.length, longTaskMs: inRun.reduce((sum, task) => sum + task.duration, 0) };
}

async function skillImport(opts: Parameters<WorkerBench['skillZip']>[0] & { repeats: number }) {
    const zip = await worker.skillZip(opts);
    const samples: Array<{ ms: number; longTasks: number; longTaskMs: number }> = [];
    let files = 0;
    for (let i = 0; i < opts.repeats; i += 1) {
        const bytes = zip.slice().buffer;
        const timed = await withLongTasks(() => worker.parseSkills([{ name: 'many-files.zip', bytes }]));
        const skill = timed.value[0];
        if (!skill?.bundle) throw new Error(`the 1,000-file zip was refused: ${skill?.error}`);
        files = skill.bundle.files.length;
        samples.push({ ms: timed.ms, longTasks: timed.longTasks, longTaskMs: timed.longTaskMs });
    }
    return { zipBytes: zip.length, files, samples };
}

const benchPage = {
    timedRun,
    inWorkerRun,
    bareTransactions: (count: number) => worker.bareTransactions(count),
    transactionFloors: (count: number) => worker.transactionFloors(count),
    engineLocalRun,
    roundTrips,
    checkpoints: (opts: Parameters<WorkerBench['checkpoints']>[0]) => worker.checkpoints(opts),
    chatSearch: (opts: Parameters<WorkerBench['chatSearch']>[0]) => worker.chatSearch(opts),
    subagentRun: (script: Parameters<WorkerBench['subagentRun']>[1], childDelayMs: number) =>
        worker.subagentRun(subagentInput(`bench-sub-${crypto.randomUUID()}`), script, childDelayMs),
    skillSearch: (opts: Parameters<WorkerBench['skillSearch']>[0]) => worker.skillSearch(opts),
    skillImport,
    resumeTiming: (cutAfter: number | null) => worker.resumeTiming(cutAfter),
    scriptStarts: (warm: number) => withLongTasks(() => worker.scriptStarts(warm)),
    tallyTwoWays: (searches: number) => withLongTasks(() => tallyTwoWays(searches)),
    compactionRun: (opts: Parameters<WorkerBench['compactionRun']>[0]) => worker.compactionRun(opts),
};

export type BenchPage = typeof benchPage;

(globalThis as unknown as { benchPage: BenchPage }).benchPage = benchPage;
document.body.dataset.ready = 'true';
