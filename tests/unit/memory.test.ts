// persist/ travels with the chat (SPEC §4, issue 14): the payload a message carries, the base a run starts
// from (chat first, this browser's cache for older messages), and what a finished run writes back.
// Run: node --import tsx --test tests/unit/memory.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyMemory, encodeMemory, memoryBytes, type MemoryPayload } from '../../src/contract/memory';
import { MEMORY_SEED_KEY, readMemorySeed, type MemorySeed } from '../../src/contract/memory-seed';
import { ok } from '../../src/contract/result';
import type { PrefixMessage } from '../../src/contract/run-input';
import { memoryBase } from '../../src/engine/run/memory-base';
import { createMemoryRunStorage } from '../../src/store/run-storage';
import { payloadsOf, rawCall, runHarness, toolTurn } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

const agent = (index: number, runId: string, memory?: MemoryPayload): PrefixMessage => ({
    index,
    role: 'assistant',
    name: 'Seraphina',
    text: `reply ${index}`,
    hidden: false,
    agentRunId: runId,
    ...(memory ? { memory } : {}),
});
const user = (index: number): PrefixMessage => ({ index, role: 'user', name: 'Tester', text: 'hi', hidden: false, agentRunId: null });

describe('the memory payload', () => {
    it('is the change against its base when that is smaller, and applies back to the same files', () => {
        const base = { 'persist/notes.md': 'x'.repeat(2000), 'persist/old.md': 'gone soon' };
        const next = { 'persist/notes.md': 'x'.repeat(2000), 'persist/new.md': 'The ferry sank.' };
        const delta = encodeMemory(next, { runId: 'run-a', files: base });
        assert.deepEqual(delta, { v: 1, base: 'run-a', changed: { 'persist/new.md': 'The ferry sank.' }, removed: ['persist/old.md'] });
        assert.deepEqual(applyMemory(delta, base), next);
        assert.deepEqual(encodeMemory(next, null), { v: 1, files: next });
        // A change bigger than the whole state is sent whole.
        const rewrite = { 'persist/a.md': 'new' };
        assert.deepEqual(encodeMemory(rewrite, { runId: 'run-a', files: base }), { v: 1, files: rewrite });
        assert.ok(memoryBytes(delta) < memoryBytes(encodeMemory(next, null)));
    });
});

describe('the base a run starts from', () => {
    it('comes from the chat on a device that never ran the agent, following delta chains', async () => {
        const prefix = [
            user(0),
            agent(1, 'run-a', { v: 1, files: { 'persist/notes.md': 'The bridge fell.' } }),
            user(2),
            agent(3, 'run-b', { v: 1, base: 'run-a', changed: { 'persist/more.md': 'The ferry sank.' }, removed: [] }),
            user(4),
        ];
        const base = await memoryBase(prefix, createMemoryRunStorage());
        assert.deepEqual(base, { files: { 'persist/notes.md': 'The bridge fell.', 'persist/more.md': 'The ferry sank.' }, runId: 'run-b', inChat: true });
    });

    it('is the memory before a deleted or swiped-away message: the prefix no longer holds it', async () => {
        const prefix = [user(0), agent(1, 'run-a', { v: 1, files: { 'persist/notes.md': 'The bridge fell.' } }), user(2)];
        assert.deepEqual((await memoryBase(prefix, createMemoryRunStorage())).files, { 'persist/notes.md': 'The bridge fell.' });
    });

    it("falls back to this browser's cache for a message written before memory travelled, and skips what it cannot resolve", async () => {
        const storage = createMemoryRunStorage();
        await storage.putRun({ v: 1, runId: 'run-old', chatKey: 'c', chatId: 'c', profileId: 'writer', generationType: 'normal', state: 'completed', messageId: 1, error: null, createdAt: 1, updatedAt: 1 });
        await storage.putPersistState({ v: 1, runId: 'run-old', chatKey: 'c', files: { 'persist/old.md': 'cached' }, at: 1 });
        const prefix = [
            agent(1, 'run-old'),
            // A delta whose base is on no device: unresolvable, so the older memory stands.
            agent(3, 'run-x', { v: 1, base: 'run-missing', changed: { 'persist/x.md': 'x' }, removed: [] }),
        ];
        assert.deepEqual(await memoryBase(prefix, storage), { files: { 'persist/old.md': 'cached' }, runId: 'run-old', inChat: false });
    });

    it("starts from the chat's memory seed until a message carries memory of its own", async () => {
        const seed: MemorySeed = { v: 1, source: { kind: 'chat', chat: 'Seraphina - earlier' }, at: '2026-12-04T00:00:00.000Z', files: { 'persist/threads.md': 'The lantern.' } };
        // No message carries memory: the seed, counted as in the chat (its metadata travels with it).
        assert.deepEqual(await memoryBase([user(0), agent(1, 'run-a')], createMemoryRunStorage(), seed), { files: { 'persist/threads.md': 'The lantern.' }, runId: null, inChat: true });
        // A message carries memory: the seed is no longer read.
        const own = [user(0), agent(1, 'run-a', { v: 1, files: { 'persist/own.md': 'Ours.' } })];
        assert.deepEqual((await memoryBase(own, createMemoryRunStorage(), seed)).files, { 'persist/own.md': 'Ours.' });
        // No seed and no memory: nothing.
        assert.deepEqual(await memoryBase([user(0)], createMemoryRunStorage(), null), { files: {}, runId: null, inChat: false });
    });

    it('reads a seed from chat metadata only when it parses', () => {
        const files = { 'persist/a.md': 'A' };
        const seed = { v: 1, source: { kind: 'build', chunks: 5, messages: 200 }, at: '2026-12-04T00:00:00.000Z', files };
        assert.deepEqual(readMemorySeed({ [MEMORY_SEED_KEY]: seed })?.files, files);
        assert.equal(readMemorySeed({ [MEMORY_SEED_KEY]: { ...seed, v: 2 } }), null);
        assert.equal(readMemorySeed({ [MEMORY_SEED_KEY]: { ...seed, files: { 'persist/a.md': 3 } } }), null);
        assert.equal(readMemorySeed(undefined), null);
    });
});

describe('a finished run writes its memory into its message', () => {
    const writeNotes = (content: string) => rawCall('p', 'workspace_write_file', { path: 'persist/notes.md', content });
    const reply = () => [rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Reply.' }), rawCall('c', 'workspace_commit'), rawCall('f', 'workspace_finish')];

    it('writes every file when the chat holds no base, a delta against the base it does hold, nothing when unchanged', async () => {
        const attached: Array<{ runId: string; memory: MemoryPayload }> = [];
        const attachMemory = async (request: { runId: string; memory: MemoryPayload }) => {
            attached.push(request);
            return ok({ stored: true, bytes: memoryBytes(request.memory) });
        };
        const first = runHarness({ script: [toolTurn(writeNotes('The bridge fell.'), ...reply())], attachMemory });
        await first.run(sampleRunInput({ runId: 'm1' }));
        assert.deepEqual(attached[0], { runId: 'm1', memory: { v: 1, files: { 'persist/notes.md': 'The bridge fell.' } } });

        const bigBase = { 'persist/notes.md': 'The bridge fell.', 'persist/atlas.md': 'a'.repeat(3000) };
        const prefix = [user(0), agent(1, 'm1', { v: 1, files: bigBase }), user(2)];
        const second = runHarness({ script: [toolTurn(rawCall('p', 'workspace_write_file', { path: 'persist/notes.md', content: 'The ferry sank.' }), ...reply())], attachMemory });
        await second.run(sampleRunInput({ runId: 'm2', prefix }));
        assert.deepEqual(attached[1], { runId: 'm2', memory: { v: 1, base: 'm1', changed: { 'persist/notes.md': 'The ferry sank.' }, removed: [] } });
        assert.deepEqual(payloadsOf(await second.journal('m2'), 'memory-attach'), [{ stored: true, mode: 'delta', bytes: memoryBytes(attached[1]!.memory), reason: null }]);

        const third = runHarness({ script: [toolTurn(...reply())], attachMemory });
        await third.run(sampleRunInput({ runId: 'm3', prefix }));
        assert.equal(attached.length, 2, 'an unchanged memory is not written again');
        assert.deepEqual(payloadsOf(await third.journal('m3'), 'memory-attach'), []);

        const none = runHarness({ script: [toolTurn(...reply())], attachMemory });
        await none.run(sampleRunInput({ runId: 'm4' }));
        assert.equal(attached.length, 2, 'a chat without memory gets no empty memory written');
    });

    it("migrates: an old chat's memory, known only to this browser, is written into the next run's message even unchanged", async () => {
        const storage = createMemoryRunStorage();
        await storage.putRun({ v: 1, runId: 'run-old', chatKey: 'c', chatId: 'c', profileId: 'writer', generationType: 'normal', state: 'completed', messageId: 1, error: null, createdAt: 1, updatedAt: 1 });
        await storage.putPersistState({ v: 1, runId: 'run-old', chatKey: 'c', files: { 'persist/old.md': 'from before' }, at: 1 });
        const attached: MemoryPayload[] = [];
        const h = runHarness({ storage, script: [toolTurn(...reply())], attachMemory: async (r) => (attached.push(r.memory), ok({ stored: true, bytes: 1 })) });
        await h.run(sampleRunInput({ runId: 'run-new', prefix: [user(0), agent(1, 'run-old'), user(2)] }));
        assert.deepEqual(attached, [{ v: 1, files: { 'persist/old.md': 'from before' } }]);
    });

    it('keeps the reply and the local memory when the host refuses a memory over the bound', async () => {
        const big = 'y'.repeat(300_000);
        const h = runHarness({ script: [toolTurn(writeNotes(big), ...reply())], attachMemory: async (r) => ok({ stored: false, bytes: memoryBytes(r.memory) }) });
        const outcome = await h.run(sampleRunInput({ runId: 'big' }));
        assert.equal(outcome.state, 'completed');
        assert.equal(h.commits.length, 1);
        const [event] = payloadsOf(await h.journal('big'), 'memory-attach');
        assert.equal(event!.stored, false);
        assert.match(event!.reason ?? '', /kept in this browser only/);
        assert.equal((await h.storage.getPersistState('big'))?.files['persist/notes.md'], big);
    });

    it('writes nothing for a run that ended without finish', async () => {
        const attached: unknown[] = [];
        const h = runHarness({
            script: [toolTurn(writeNotes('lost'), rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Reply.' })), toolTurn(rawCall('c', 'workspace_commit'))],
            attachMemory: async (r) => (attached.push(r), ok({ stored: true, bytes: 1 })),
        });
        await h.run(sampleRunInput({ runId: 'nf' }), { ...sampleRunInput().profile, tools: { ...sampleRunInput().profile.tools, maxRounds: 1 } });
        assert.deepEqual(attached, []);
    });
});
