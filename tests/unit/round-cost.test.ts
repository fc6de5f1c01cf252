// What one tool round costs the worker: storage transactions (journal group commit) and the messages that
// cross to the page (only each round's new ones, when the page keeps the conversation).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ModelReply, ModelRequest, WireMessage } from '../../src/contract/model';
import { ok } from '../../src/contract/result';
import type { RunStorage } from '../../src/store/run-storage';
import { createConversationStore } from '../../src/host/model/conversation-store';
import { rawCall, runHarness, toolTurn, type Step } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';
import { suitesPerStorageKind } from '../fixtures/storage-kinds';

const { describe, newStorage } = suitesPerStorageKind();

/** `rounds` rounds of one list-files call (or one scratch write), then the write + commit + finish round. */
function script(rounds: number, kind: 'read' | 'write' = 'read'): Step[] {
    const steps: Step[] = [];
    for (let i = 0; i < rounds; i += 1) {
        if (kind === 'read') steps.push(toolTurn(rawCall(`list-${i}`, 'workspace_list_files', {})));
        else steps.push(toolTurn(rawCall(`note-${i}`, 'workspace_write_file', { path: 'scratch/notes.md', content: `note ${i}` })));
    }
    steps.push(toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'The glade is quiet.' })));
    steps.push(toolTurn(rawCall('c', 'workspace_commit', { reason: 'done' }), rawCall('f', 'workspace_finish', { reason: 'committed' })));
    return steps;
}

/** Counts the calls that write (each one IndexedDB transaction in the product). */
function countingWrites(inner: RunStorage): { storage: RunStorage; writes: () => number } {
    let writes = 0;
    const counted = new Set(['putRun', 'appendEvent', 'appendEvents', 'putFile', 'putPersistState', 'putWholeRun', 'dropRunData', 'deleteRun']);
    const storage = new Proxy(inner, {
        get(target, key, receiver) {
            const value = Reflect.get(target, key, receiver) as unknown;
            if (typeof value !== 'function' || !counted.has(String(key))) return value;
            return (...args: unknown[]) => {
                writes += 1;
                return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
        },
    });
    return { storage, writes: () => writes };
}

async function writesFor(rounds: number, kind: 'read' | 'write' = 'read'): Promise<number> {
    const { storage, writes } = countingWrites(newStorage());
    const h = runHarness({ storage, script: script(rounds, kind) });
    const outcome = await h.run(sampleRunInput({ runId: `run-${rounds}`, profile: { ...sampleRunInput().profile, tools: { ...sampleRunInput().profile.tools, maxRounds: 100, maxCallsPerRun: 100 } } }));
    assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
    return writes();
}

/** The messages the model reads each round when every request carries the whole conversation. */
async function wholeConversations(rounds: number, runId: string): Promise<WireMessage[][]> {
    const h = runHarness({ storage: newStorage(), script: script(rounds) });
    await h.run(sampleRunInput({ runId }));
    return h.requests.map((r) => r.messages);
}

describe('round cost', () => {
    it('a round of a read-only call writes one transaction: the response, the call start and result, and the next request', async () => {
        const [zero, ten] = [await writesFor(0), await writesFor(10)];
        assert.equal((ten - zero) / 10, 1);
    });

    it('a round of a call that changes something writes three: the response with the call start (durable before the change), the change with its checkpoint, the result with the next request', async () => {
        const [zero, ten] = [await writesFor(0, 'write'), await writesFor(10, 'write')];
        assert.equal((ten - zero) / 10, 3);
    });

    it("a writing call's start is stored before the change it makes, and a read-only call's with its result", async () => {
        const { storage } = countingWrites(newStorage());
        const batches: string[][] = [];
        const recording: RunStorage = { ...storage, appendEvents: (writes) => (batches.push(writes.map((w) => w.event.type)), storage.appendEvents(writes)) };
        const steps = [toolTurn(rawCall('l', 'workspace_list_files', {})), ...script(1, 'write')];
        const h = runHarness({ storage: recording, script: steps });
        const outcome = await h.run(sampleRunInput({ runId: 'run-batches' }));
        assert.equal(outcome.state, 'completed');
        const readRound = batches.find((b) => b.includes('tool-call-start'))!;
        assert.deepEqual(readRound, ['model-response', 'tool-call-start', 'tool-call-complete', 'model-request']);
        const writeStart = batches.findIndex((b) => b.includes('tool-call-start') && b !== readRound);
        assert.equal(batches[writeStart]!.at(-1), 'tool-call-start');
        assert.deepEqual(batches[writeStart + 1], ['file-write', 'checkpoint']);
    });

    it("journal-first still holds: a commit's start and everything before it are stored before the host is asked to commit", async () => {
        const storage = newStorage();
        let storedAtCommit: string[] = [];
        const h = runHarness({
            storage,
            script: script(2),
            commit: async () => {
                storedAtCommit = (await storage.listEvents('run-first')).map((e) => e.type);
                return ok({ messageId: 5 });
            },
        });
        const outcome = await h.run(sampleRunInput({ runId: 'run-first' }));
        assert.equal(outcome.state, 'completed');
        const journal = (await h.journal('run-first')).map((e) => e.type);
        // Everything up to the commit call's start (the reads' deferred starts and results included) had landed.
        const commitStart = journal.lastIndexOf('tool-call-start', journal.indexOf('commit'));
        assert.ok(commitStart > 0 && storedAtCommit.length > commitStart, `stored at commit: ${storedAtCommit.join(', ')}`);
        assert.deepEqual(storedAtCommit, journal.slice(0, storedAtCommit.length));
    });

    it('every event reaches storage and the page, in order, with gapless seq', async () => {
        const h = runHarness({ storage: newStorage(), script: script(3) });
        const outcome = await h.run(sampleRunInput({ runId: 'run-order' }));
        assert.equal(outcome.state, 'completed');
        const journal = await h.journal('run-order');
        assert.deepEqual(h.pushed, journal);
        assert.deepEqual(journal.map((e) => e.seq), journal.map((_, i) => i));
        // Each call's start comes after the response that asked for it, its result before the next request.
        const types = journal.map((e) => e.type).filter((t) => t.startsWith('model-') || t.startsWith('tool-call'));
        assert.deepEqual(types.slice(0, 8), ['model-request', 'model-response', 'tool-call-start', 'tool-call-complete', 'model-request', 'model-response', 'tool-call-start', 'tool-call-complete']);
    });

    it('only the new messages of each round cross to a page that keeps the conversation, and the model still reads all of them', async () => {
        const page = createConversationStore();
        const crossed: ModelRequest[] = [];
        const whole: WireMessage[][] = [];
        const steps = script(4);
        const h = runHarness({
            storage: newStorage(),
            script: [],
            router: (request): ModelReply => {
                crossed.push(request);
                const messages = page.resolve(request);
                assert.ok(messages);
                whole.push(structuredClone(messages));
                const step = steps.shift() as ModelReply;
                return step.ok ? { ...step, keepsConversation: true } : step;
            },
        });
        const outcome = await h.run(sampleRunInput({ runId: 'run-traffic' }));
        assert.equal(outcome.state, 'completed');
        // The first request carries the conversation whole; each later one the assistant turn and its tool answers.
        assert.equal(crossed[0]!.conversation!.base, 0);
        assert.equal(crossed[0]!.messages.length, whole[0]!.length);
        for (let i = 1; i < crossed.length; i += 1) {
            assert.equal(crossed[i]!.conversation!.base, whole[i - 1]!.length);
            assert.equal(crossed[i]!.messages.length, whole[i]!.length - whole[i - 1]!.length);
            assert.deepEqual(whole[i]!.slice(0, whole[i - 1]!.length), whole[i - 1]);
        }
        // What the model read each round is what a host sent whole conversations would have read.
        assert.deepEqual(whole, await wholeConversations(4, 'run-traffic'));
    });

    it('tools cross once per conversation: later rounds say toolsKept, and the model still gets every tool each round', async () => {
        const page = createConversationStore();
        const crossed: ModelRequest[] = [];
        const resolved: ModelRequest[] = [];
        const steps = script(3);
        const h = runHarness({
            storage: newStorage(),
            script: [],
            router: (request): ModelReply => {
                crossed.push(structuredClone(request));
                const whole = page.resolveRequest(request);
                assert.ok(whole);
                resolved.push(structuredClone(whole));
                const step = steps.shift() as ModelReply;
                return step.ok ? { ...step, keepsConversation: true } : step;
            },
        });
        assert.equal((await h.run(sampleRunInput({ runId: 'run-tools' }))).state, 'completed');
        assert.ok(crossed[0]!.tools.length > 5);
        assert.equal(crossed[0]!.conversation!.toolsKept, undefined);
        for (const request of crossed.slice(1)) {
            assert.deepEqual(request.tools, []);
            assert.equal(request.conversation!.toolsKept, true);
        }
        for (const request of resolved) {
            assert.deepEqual(request.tools, crossed[0]!.tools);
            assert.equal(request.conversation, undefined);
        }
    });

    it('a page that lost the tools of a conversation says so, and gets the conversation and its tools whole', async () => {
        let page = createConversationStore();
        const steps = script(3);
        const seen: Array<{ round: number; tools: number; base: number }> = [];
        const h = runHarness({
            storage: newStorage(),
            script: [],
            router: (request): ModelReply => {
                // Round 2: a fresh page that holds nothing (a reload of the host's store).
                if (request.round === 2 && request.conversation!.base > 0) page = createConversationStore();
                const whole = page.resolveRequest(request);
                if (whole === null) return { ok: false, status: null, message: 'lost', aborted: false, conversationMissing: true };
                seen.push({ round: request.round, tools: whole.tools.length, base: request.conversation!.base });
                const step = steps.shift() as ModelReply;
                return step.ok ? { ...step, keepsConversation: true } : step;
            },
        });
        assert.equal((await h.run(sampleRunInput({ runId: 'run-tools-lost' }))).state, 'completed');
        assert.ok(seen.every((s) => s.tools === seen[0]!.tools && s.tools > 5), JSON.stringify(seen));
        assert.deepEqual(seen.slice(0, 2).map((s) => [s.round, s.base]), [[1, 0], [2, 0]]);
    });

    it('a page that lost the conversation gets it whole, and the run goes on', async () => {
        let page = createConversationStore();
        let lost = false;
        const steps = script(2);
        const seen: number[] = [];
        const h = runHarness({
            storage: newStorage(),
            script: [],
            router: (request): ModelReply => {
                if (request.round === 2 && !lost) {
                    lost = true;
                    page = createConversationStore();
                }
                const messages = page.resolve(request);
                if (messages === null) return { ok: false, status: null, message: 'lost', aborted: false, conversationMissing: true };
                seen.push(messages.length);
                const step = steps.shift() as ModelReply;
                return step.ok ? { ...step, keepsConversation: true } : step;
            },
        });
        const outcome = await h.run(sampleRunInput({ runId: 'run-lost' }));
        assert.equal(outcome.state, 'completed');
        assert.deepEqual(seen, (await wholeConversations(2, 'run-lost')).map((messages) => messages.length));
    });
});
