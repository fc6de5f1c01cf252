// Figure 16 (issue 38): a long run's tokens sent with and without compaction, and what compaction adds to
// each round. The real loop on IndexedDB in the bench's worker, with an instant model that counts what it
// is sent.
import type { WireMessage } from '../../src/contract/model';
import type { RunInput } from '../../src/contract/run-input';
import type { HostBridge } from '../../src/contract/wire';
import { WRITER_PROFILE } from '../../src/contract/profile';
import { estimateRequestTokens } from '../../src/engine/loop/request-size';
import { runAgent } from '../../src/engine/run/run-lifecycle';
import { openTavernAgentDb } from '../../src/store/db';
import { createIdbRunStorage } from '../../src/store/idb-run-storage';
import { ALL_TOOLS } from '../../src/tools/registry';

export interface CompactionRunOptions {
    rounds: number;
    resultChars: number;
    /** The connection's context size; null: the run never compacts (no size known, the check is skipped). */
    contextSize: number | null;
    threshold: number;
    keepRecentRounds: number;
}

export interface CompactionRunResult {
    ms: number;
    requests: number;
    /** Tokens of every request the model got, by the engine's estimate (the same one compaction decides by). */
    tokensSent: number;
    charsSent: number;
    compactions: number;
}

const reply = (round: number, calls: Array<[string, unknown]>) => ({
    id: `long-${round}`,
    object: 'chat.completion',
    model: 'bench',
    choices: [{ index: 0, message: { role: 'assistant', content: null, tool_calls: calls.map(([name, args], i) => ({ id: `call_${round}_${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })) }, finish_reason: 'tool_calls' }],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
});

/** Round 1 writes a file of `resultChars`; each later round reads it whole (a result of about that size); the last commits. */
function replies(rounds: number, resultChars: number): unknown[] {
    const line = 'A line of the long notes the agent keeps reading, round after round.';
    const text = Array.from({ length: Math.ceil(resultChars / (line.length + 1)) }, (_, i) => `${i} ${line}`).join('\n').slice(0, resultChars);
    const out: unknown[] = [reply(1, [['workspace_write_file', { path: 'scratch/notes.md', content: text }]])];
    for (let round = 2; round < rounds; round += 1) out.push(reply(round, [['workspace_read_file', { path: 'scratch/notes.md' }]]));
    out.push(reply(rounds, [['workspace_write_file', { path: 'output/main.md', content: 'Done.' }], ['workspace_commit', {}], ['workspace_finish', {}]]));
    return out;
}

function input(runId: string, opts: CompactionRunOptions): RunInput {
    return {
        runId,
        generationType: 'normal',
        chat: { chatId: 'bench', integrity: 'bench-long', characterId: '0', groupId: null, characterName: 'Seraphina', userName: 'Tester' },
        prefix: [{ index: 0, role: 'user', name: 'Tester', text: 'Read your notes.', hidden: false, agentRunId: null }],
        prompt: [
            { role: 'system', content: 'You are Seraphina, a kind healer of the forest.' },
            { role: 'user', content: 'Read your notes.' },
        ],
        worldInfo: { captured: true, entries: [] },
        profile: { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 500, maxCallsPerRun: 2000 }, compaction: { threshold: opts.threshold, keepRecentRounds: opts.keepRecentRounds } },
        source: 'custom',
        retry: { maxRetries: 0, baseDelayMs: 0 },
        skills: [],
        hiddenSkills: [],
        ...(opts.contextSize ? { contextSize: opts.contextSize } : {}),
    };
}

export async function compactionRun(opts: CompactionRunOptions): Promise<CompactionRunResult> {
    const db = await openTavernAgentDb(`bench-long-${crypto.randomUUID()}`);
    const storage = createIdbRunStorage(db);
    const raw = replies(opts.rounds, opts.resultChars);
    let tokensSent = 0;
    let charsSent = 0;
    let requests = 0;
    /** The counting below is the bench's, not the engine's: its time is taken out of the run's. */
    let countingMs = 0;
    const host: HostBridge = {
        async requestModel(request) {
            // This host does not keep conversations: each request holds the whole conversation and its tools.
            const counting = performance.now();
            requests += 1;
            tokensSent += estimateRequestTokens(request.messages as WireMessage[], request.tools);
            charsSent += JSON.stringify(request.messages).length + JSON.stringify(request.tools).length;
            countingMs += performance.now() - counting;
            return { ok: true, raw: raw[request.round - 1], durationMs: 0 };
        },
        async commit() {
            return { ok: true, value: { messageId: 1 } };
        },
        onEvents() {},
    };
    const runId = `bench-long-${crypto.randomUUID()}`;
    const started = performance.now();
    const outcome = await runAgent(input(runId, opts), { storage, host, tools: ALL_TOOLS, sink: () => undefined, signal: new AbortController().signal });
    const ms = performance.now() - started - countingMs;
    const compactions = (await storage.listEvents(runId)).filter((event) => event.type === 'conversation-compact').length;
    db.close();
    if (outcome.state !== 'completed') throw new Error(`long run ${outcome.state}: ${outcome.error?.message}`);
    return { ms, requests, tokensSent, charsSent, compactions };
}
