// The Memory view and memory carried into a new chat (issue 37 §1, §2): another chat's latest memory resolved
// from its messages only, the view's order, a user's change (pin, edit, delete) within block limits, and the
// journal of that change.
// Run: node --import tsx --test tests/unit/memory-view.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { encodeMemory, type MemoryPayload } from '../../src/contract/memory';
import { latestChatMemory, type MemoryCarrier } from '../../src/contract/memory-chain';
import { memoryEntries } from '../../src/contract/memory-view';
import { applyMemoryChange, withPinned } from '../../src/contract/memory-change';
import { parseMemoryBlock } from '../../src/contract/memory-block';
import { MEMORY_SEED_KEY } from '../../src/contract/memory-seed';
import { journalMemoryEdit } from '../../src/engine/memory/journal-memory-edit';
import { readChatMarkers } from '../../src/engine/memory/read-chat-markers';
import { createMemoryRunStorage } from '../../src/store/run-storage';
import { foreignChatMemory } from '../../src/host/memory/foreign-chat-memory';

const full = (files: Record<string, string>): MemoryPayload => ({ v: 1, files });
const block = (title: string, pinned: boolean, body: string, limit?: number) =>
    `---\ntitle: ${title}\npinned: ${pinned}\n${limit ? `limit: ${limit}\n` : ''}---\n${body}`;

describe("another chat's latest memory", () => {
    it('is the last message that carries any, its delta chain resolved from that chat', async () => {
        const first = { 'persist/characters.md': 'Seraphina guards the glade.', 'persist/old.md': 'x'.repeat(400) };
        const second = { 'persist/characters.md': 'Seraphina guards the glade.', 'persist/threads.md': 'The lantern.' };
        const delta = encodeMemory(second, { runId: 'run-a', files: first });
        assert.ok('base' in delta, 'the fixture is a delta');
        const messages: MemoryCarrier[] = [{ runId: null }, { runId: 'run-a', memory: full(first) }, { runId: null }, { runId: 'run-b', memory: delta }, { runId: 'run-c' }];
        assert.deepEqual(await latestChatMemory(messages), { files: second, messageIndex: 3 });
    });

    it('passes over a delta whose base is not in that chat (no cache to fall back on there) for an earlier message', async () => {
        const messages: MemoryCarrier[] = [
            { runId: 'run-a', memory: full({ 'persist/a.md': 'A' }) },
            { runId: 'run-b', memory: { v: 1, base: 'run-gone', changed: { 'persist/b.md': 'B' }, removed: [] } },
        ];
        assert.deepEqual(await latestChatMemory(messages), { files: { 'persist/a.md': 'A' }, messageIndex: 0 });
    });

    it('is null for a chat without memory, and a chain that loops is cut', async () => {
        assert.equal(await latestChatMemory([{ runId: null }, { runId: 'run-a' }]), null);
        const loop: MemoryCarrier[] = [
            { runId: 'run-a', memory: { v: 1, base: 'run-b', changed: {}, removed: [] } },
            { runId: 'run-b', memory: { v: 1, base: 'run-a', changed: {}, removed: [] } },
        ];
        assert.equal(await latestChatMemory(loop), null);
    });
});

describe("another chat's memory as a seed takes it", () => {
    const seed = { v: 1, source: { kind: 'chat', chat: 'older' }, at: '2026-01-01T00:00:00Z', files: { 'persist/a.md': 'from the seed' } };
    const marker = (memory: MemoryPayload) => ({ extra: { tavern_agent: { runId: 'run-a', memory } } });

    it("is its messages' memory first, its own seed when none carries any (A → B → C), and null when empty", async () => {
        assert.deepEqual(await foreignChatMemory({ messages: [{}, marker(full({ 'persist/a.md': 'from a message' }))], seed, bytes: 0 }), { 'persist/a.md': 'from a message' });
        assert.deepEqual(await foreignChatMemory({ messages: [{}, {}], seed, bytes: 0 }), { 'persist/a.md': 'from the seed' });
        assert.equal(await foreignChatMemory({ messages: [marker(full({}))], seed: null, bytes: 0 }), null);
        assert.equal(await foreignChatMemory({ messages: [{ extra: { tavern_agent: { runId: 'run-a', memory: 'not a payload' } } }], seed: { broken: true }, bytes: 0 }), null);
    });
});

describe('reading another chat for its memory (in the worker)', () => {
    const chatFile = (lines: unknown[]) => async () => new Response(JSON.stringify(lines));
    const request = { url: '/api/chats/get' as const, body: { file_name: 'x' }, headers: {} };

    it('keeps only the markers and the seed, message indexes kept', async () => {
        const seed = { v: 1, source: { kind: 'chat', chat: 'older' }, at: '2026-01-01T00:00:00Z', files: { 'persist/a.md': 'A' } };
        const read = await readChatMarkers(request, 1_000_000, chatFile([{ chat_metadata: { [MEMORY_SEED_KEY]: seed } }, { mes: 'hi', extra: {} }, { mes: 'secret text', extra: { tavern_agent: { runId: 'r' } } }]));
        assert.ok(read.ok);
        assert.deepEqual(read.value.messages, [{}, { extra: { tavern_agent: { runId: 'r' } } }]);
        assert.deepEqual(read.value.seed, seed);
    });

    it('refuses an unknown chat (SillyTavern answers an empty list) and one over the bound', async () => {
        const missing = await readChatMarkers(request, 1_000_000, chatFile([]));
        assert.equal(!missing.ok && missing.error.code, 'memory.chat_not_found');
        const large = await readChatMarkers(request, 50, chatFile([{ chat_metadata: {} }, { mes: 'x'.repeat(100) }]));
        assert.equal(!large.ok && large.error.code, 'memory.chat_too_large');
    });
});

describe('the Memory view', () => {
    it('lists pinned blocks first, then the other blocks, then plain files, each by path, with sizes and limits', () => {
        const entries = memoryEntries({
            'persist/scenes/001.md': 'The glade at dusk.',
            'persist/threads.md': block('Open threads', true, 'The lantern.', 500),
            'persist/places.md': block('Places', false, 'The glade.'),
            'persist/characters.md': block('Characters', true, 'Seraphina.'),
            'persist/state.json': '{}',
        });
        assert.deepEqual(
            entries.map((e) => [e.path, e.pinned, e.limit, e.chars]),
            [
                ['persist/characters.md', true, 2000, 10],
                ['persist/threads.md', true, 500, 12],
                ['persist/places.md', false, 2000, 10],
                ['persist/scenes/001.md', false, null, 18],
                ['persist/state.json', false, null, 2],
            ],
        );
        assert.equal(entries[0]!.title, 'Characters');
        assert.equal(entries.find((e) => e.path === 'persist/state.json')!.pinnable, false);
        assert.equal(entries.find((e) => e.path === 'persist/scenes/001.md')!.pinnable, true);
    });
});

describe("a user's change to the memory", () => {
    const files = { 'persist/threads.md': block('Open threads', true, 'The lantern.', 20), 'persist/places.md': block('Places', false, 'x'.repeat(30), 20) };

    it('pins and unpins by the pinned line only, keeping every other field', () => {
        const unpinned = withPinned(files['persist/threads.md'], false);
        assert.equal(unpinned, block('Open threads', false, 'The lantern.', 20));
        assert.equal(parseMemoryBlock('persist/threads.md', withPinned(unpinned, true))!.pinned, true);
        const plain = withPinned('Just a note.', true);
        assert.deepEqual(parseMemoryBlock('persist/note.md', plain), { path: 'persist/note.md', title: 'note', pinned: true, limit: 2000, body: 'Just a note.' });
        const noPinLine = withPinned('---\ntitle: T\n---\nBody', true);
        assert.equal(noPinLine, '---\ntitle: T\npinned: true\n---\nBody');
    });

    it('refuses a pin or an edit that puts a pinned block past its limit, and a path that is not there', () => {
        const pin = applyMemoryChange(files, { kind: 'pin', path: 'persist/places.md', pinned: true });
        assert.equal(!pin.ok && pin.error.code, 'memory.block_too_long');
        const edit = applyMemoryChange(files, { kind: 'write', path: 'persist/threads.md', text: block('Open threads', true, 'y'.repeat(21), 20) });
        assert.equal(!edit.ok && edit.error.code, 'memory.block_too_long');
        const gone = applyMemoryChange(files, { kind: 'delete', path: 'persist/nothing.md' });
        assert.equal(!gone.ok && gone.error.code, 'workspace.file_not_found');
        const json = applyMemoryChange({ 'persist/a.json': '{}' }, { kind: 'pin', path: 'persist/a.json', pinned: true });
        assert.equal(!json.ok && json.error.code, 'workspace.invalid_path');
    });

    it('edits within the limit and deletes', () => {
        const edited = applyMemoryChange(files, { kind: 'write', path: 'persist/threads.md', text: block('Open threads', true, 'The ferry.', 20) });
        assert.ok(edited.ok);
        assert.match(edited.value['persist/threads.md']!, /The ferry\./);
        const deleted = applyMemoryChange(files, { kind: 'delete', path: 'persist/places.md' });
        assert.deepEqual(deleted.ok && Object.keys(deleted.value), ['persist/threads.md']);
    });

    it('is journaled as a completed run of its own, each changed file with a before and after checkpoint', async () => {
        const storage = createMemoryRunStorage();
        const after = { ...files, 'persist/threads.md': block('Open threads', true, 'The ferry.', 20) };
        const journaled = await journalMemoryEdit(storage, {
            chatKey: 'chat-key',
            chatId: 'chat-1',
            change: { kind: 'write', path: 'persist/threads.md', text: after['persist/threads.md'] },
            before: files,
            after,
            into: { kind: 'message', messageId: 3 },
            bytes: 120,
        });
        assert.ok(journaled.ok);
        const runs = await storage.listRuns('chat-key');
        assert.deepEqual(runs.map((r) => [r.generationType, r.state, r.profileId]), [['memory-edit', 'completed', 'user']]);
        const events = await storage.listEvents(journaled.value.runId);
        assert.deepEqual(events.map((e) => e.type), ['run-create', 'file-write', 'checkpoint', 'persist-promote', 'memory-attach', 'run-finish', 'run-state']);
        const checkpoints = await storage.listCheckpoints(journaled.value.runId, 'persist/threads.md');
        assert.equal(checkpoints.length, 2);
        assert.deepEqual((await storage.getPersistState(journaled.value.runId))?.files, after);
    });
});
