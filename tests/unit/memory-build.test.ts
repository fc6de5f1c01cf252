// Building memory from a long chat (issue 37 §3): the pure parts — chunks, the estimate, the job's states —
// the chunk run's input as the page shapes it, and a chunk run in the engine (what the model is told and shown,
// where its memory goes).
// Run: node --import tsx --test tests/unit/memory-build.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
    allChunksDone,
    buildFailed,
    buildFinished,
    buildResumed,
    buildStatus,
    buildStopped,
    chunkAt,
    chunkCount,
    chunkDone,
    chunkStarted,
    estimateRemainingMs,
    MemoryBuildJobSchema,
    newBuildJob,
} from '../../src/contract/memory-build';
import { parseProfile } from '../../src/contract/profile-migrations';
import { MEMORY_KEEPER_PROFILE, LORE_KEEPER_PROFILE } from '../../src/contract/profile';
import type { PrefixMessage, RunRequest } from '../../src/contract/run-input';
import { buildChunkRequest, promptBeforeHistory } from '../../src/host/memory/build-input';
import { buildChunkMessage, buildInstructions, sceneSummaryPath } from '../../src/engine/run/build-run';
import { RECORD_VERSION } from '../../src/contract/records';
import { loadStoredInput, storedInputFiles } from '../../src/engine/run/stored-input';
import { createMemoryRunStorage } from '../../src/store/run-storage';
import { sampleRunInput } from '../fixtures/run-input';
import { rawCall, runHarness, toolTurn } from '../fixtures/run-harness';

const chat = { chatId: 'long chat', integrity: 'int-1', characterId: '0', groupId: null, characterName: 'Seraphina', userName: 'Tester' };
const job = (messages = 200, chunkSize = 40) => newBuildJob({ id: 'job-1', chat, messages, chunkSize, lore: false, now: 1_000 });

describe('chunks', () => {
    it('covers the messages oldest first, the last chunk taking what is left', () => {
        assert.equal(chunkCount(200, 40), 5);
        assert.equal(chunkCount(201, 40), 6);
        assert.equal(chunkCount(1, 40), 1);
        assert.deepEqual(chunkAt(job(), 0), { index: 0, from: 0, to: 39 });
        assert.deepEqual(chunkAt(job(), 4), { index: 4, from: 160, to: 199 });
        assert.deepEqual(chunkAt(job(201), 5), { index: 5, from: 200, to: 200 });
        assert.equal(chunkAt(job(), 5), null);
        assert.equal(chunkAt(job(), -1), null);
    });
});

describe('the estimate', () => {
    it('is unknown before a chunk is done, then the mean of the last five chunks times the chunks left', () => {
        let state = job();
        assert.equal(estimateRemainingMs(state), null);
        state = chunkDone(state, {}, 1_000, 2_000);
        assert.equal(estimateRemainingMs(state), 4 * 1_000);
        state = chunkDone(state, {}, 3_000, 3_000);
        assert.equal(estimateRemainingMs(state), 3 * 2_000);
        const slow = { ...job(400), done: 7, chunkMs: [100_000, 1, 1, 1, 1, 1, 1] };
        assert.equal(estimateRemainingMs(slow), 3 * 1, 'only the last five count');
    });
});

describe("a job's states", () => {
    it('moves chunk by chunk, keeps each chunk’s memory, and finishes only once every chunk is done', () => {
        let state = job(80, 40);
        state = chunkStarted(state, [{ profileId: 'memory-keeper', runId: 'r1' }], 1_100);
        assert.deepEqual(state.running, { chunk: 0, runs: [{ profileId: 'memory-keeper', runId: 'r1' }] });
        assert.equal(buildFinished(state, 1_150).state, 'running', 'not finished with chunks left');
        state = chunkDone(state, { 'persist/scenes/0001.md': 'one' }, 500, 1_200);
        assert.equal(state.done, 1);
        assert.equal(state.running, null);
        assert.deepEqual(state.files, { 'persist/scenes/0001.md': 'one' });
        state = chunkDone(state, { 'persist/scenes/0002.md': 'two' }, 700, 1_300);
        assert.ok(allChunksDone(state));
        assert.equal(state.state, 'running', 'the seed is still to write');
        state = buildFinished(state, 1_400);
        assert.equal(state.state, 'finished');
        assert.equal(buildStopped(state, 1_500).state, 'finished', 'a finished job stays finished');
        assert.equal(buildResumed(state, 1_500).state, 'finished');
        assert.ok(MemoryBuildJobSchema.safeParse(state).success, 'every state it takes is one that stores');
    });

    it('stops and fails keeping the chunks done; a resume goes on from the first chunk not done', () => {
        let state = chunkDone(job(), { a: '1' }, 10, 2);
        state = chunkStarted(state, [{ profileId: 'memory-keeper', runId: 'r2' }], 3);
        const stopped = buildStopped(state, 4);
        assert.equal(stopped.state, 'stopped');
        assert.equal(stopped.done, 1);
        assert.deepEqual(stopped.files, { a: '1' });
        const failed = buildFailed(state, { code: 'model.http_error', message: 'boom' }, 5);
        assert.equal(failed.state, 'failed');
        assert.equal(failed.done, 1);
        const resumed = buildResumed(failed, 6);
        assert.equal(resumed.state, 'running');
        assert.equal(resumed.error, null);
        assert.deepEqual(chunkAt(resumed, resumed.done), { index: 1, from: 40, to: 79 });
    });

    it('reads as stopped when no tab works on a running job (a reload cut it off), with chunk n of m', () => {
        const state = chunkDone(job(), {}, 1_000, 2);
        const status = buildStatus(state, false);
        assert.equal(status.state, 'stopped');
        assert.equal(status.active, false);
        assert.equal(status.done, 1);
        assert.equal(status.chunks, 5);
        assert.equal(status.remainingMs, 4_000);
        assert.equal(buildStatus(state, true).state, 'running');
    });

    it('does not store what does not parse', () => {
        assert.equal(MemoryBuildJobSchema.safeParse({ ...job(), v: 2 }).success, false);
        assert.equal(MemoryBuildJobSchema.safeParse({ ...job(), done: -1 }).success, false);
    });
});

describe('the profile field', () => {
    it('is 40 messages by default, and a stored profile without it (or with the pinned budget only) still loads', () => {
        const { memory: _dropped, ...old } = MEMORY_KEEPER_PROFILE;
        const parsed = parseProfile(old);
        assert.ok(parsed.ok);
        assert.equal(parsed.profile.memory.buildChunk, 40);
        const pinnedOnly = parseProfile({ ...MEMORY_KEEPER_PROFILE, memory: { pinnedChars: 100 } });
        assert.ok(pinnedOnly.ok);
        assert.deepEqual(pinnedOnly.profile.memory, { pinnedChars: 100, buildChunk: 40 });
        const bad = parseProfile({ ...MEMORY_KEEPER_PROFILE, memory: { pinnedChars: 100, buildChunk: 0 } });
        assert.ok(!bad.ok && bad.errors.some((error) => error.path === 'memory.buildChunk'));
    });
});

const longPrefix = (count: number): PrefixMessage[] =>
    Array.from({ length: count }, (_, index) => ({
        index,
        role: index % 2 ? 'user' : 'assistant',
        name: index % 2 ? 'Tester' : 'Seraphina',
        text: `line ${index}`,
        hidden: index === 3,
        agentRunId: index === 4 ? 'old-run' : null,
        ...(index === 4 ? { memory: { v: 1 as const, files: { 'persist/old.md': 'the chat’s own' } } } : {}),
    }));

describe("a chunk run's input", () => {
    const seed = { v: 1 as const, source: { kind: 'build' as const, chunks: 1, messages: 5 }, at: '2026-01-01T00:00:00Z', files: { 'persist/characters.md': 'so far' } };

    it('carries no memory of the chat’s own messages, starts from the build’s, and keeps only the prompt before the history', () => {
        const { profile: _profile, agentProfiles: _agents, ...request } = sampleRunInput({ prefix: longPrefix(10) });
        const captured: RunRequest = {
            ...request,
            prompt: [
                { role: 'system', content: 'card' },
                { role: 'system', content: 'scenario' },
                { role: 'assistant', content: 'line 8' },
                { role: 'user', content: 'line 9' },
            ],
        };
        const shaped = buildChunkRequest(captured, { chunk: 2, chunks: 3, from: 5, to: 9, seed });
        assert.ok(shaped.prefix.every((message) => message.agentRunId === null && !('memory' in message)));
        assert.deepEqual(shaped.memorySeed, seed);
        assert.deepEqual(shaped.build, { chunk: 2, chunks: 3, from: 5, to: 9 });
        assert.deepEqual(shaped.prompt.map((m) => m.content), ['card', 'scenario']);
        assert.deepEqual(promptBeforeHistory([{ role: 'user', content: 'x' }]), []);
    });

    it('tells the model which messages to summarise and where the scene goes; shows them numbered, hidden ones left out', () => {
        const build = { chunk: 2, chunks: 5, from: 2, to: 5 };
        assert.equal(sceneSummaryPath(build), 'persist/scenes/0002.md');
        const memory = buildInstructions(build, true);
        assert.match(memory, /chunk 2 of 5/);
        assert.match(memory, /messages #2 to #5/);
        assert.match(memory, /persist\/scenes\/0002\.md/);
        assert.doesNotMatch(buildInstructions(build, false), /scenes/, 'the lore keeper writes no scene');
        const shown = buildChunkMessage({ prefix: longPrefix(10) }, build);
        assert.match(shown, /^\[Messages #2 to #5 of the chat, to work on\]/);
        assert.match(shown, /#2 Seraphina: line 2\n#4 Seraphina: line 4\n#5 Tester: line 5$/);
        assert.doesNotMatch(shown, /line 3|line 1\b|line 6/);
    });
});

describe('a chunk run in the engine', () => {
    it('is shown its chunk, starts from the seed, keeps a scene and its memory in the run, and writes nothing into the chat', async () => {
        const attached: unknown[] = [];
        const h = runHarness({
            script: [
                toolTurn(
                    rawCall('w', 'workspace_write_file', { path: 'persist/scenes/0002.md', content: '---\ntitle: Scene 2\npinned: false\n---\nThey met.' }),
                    rawCall('f', 'workspace_finish'),
                ),
            ],
            attachMemory: async (request) => {
                attached.push(request);
                return { ok: true, value: { stored: true, bytes: 1 } };
            },
        });
        const seed = { v: 1 as const, source: { kind: 'build' as const, chunks: 1, messages: 5 }, at: '2026-01-01T00:00:00Z', files: { 'persist/characters.md': '---\ntitle: Characters\npinned: true\n---\nSeraphina, so far.' } };
        const input = sampleRunInput({ runId: 'chunk-2', prefix: longPrefix(10).slice(0, 10), phase: 'after', memorySeed: seed, build: { chunk: 2, chunks: 2, from: 5, to: 9 }, prompt: [] });
        const outcome = await h.run({ ...input, prefix: input.prefix.map(({ memory: _m, ...m }) => ({ ...m, agentRunId: null })) }, MEMORY_KEEPER_PROFILE);
        assert.equal(outcome.state, 'completed');
        const first = h.requests[0]!.messages;
        assert.match(String(first[0]!.content), /chunk 2 of 2/);
        assert.match(String(first[0]!.content), /Seraphina, so far\./, 'the build’s memory so far is pinned in view');
        assert.match(String(first.at(-1)!.content), /#9 Tester: line 9/);
        assert.deepEqual(attached, [], 'no memory goes into a chat message');
        const persisted = await h.storage.getPersistState('chunk-2');
        assert.deepEqual(Object.keys(persisted!.files).sort(), ['persist/characters.md', 'persist/scenes/0002.md']);
        assert.ok(LORE_KEEPER_PROFILE.tools.allow.includes('worldinfo.propose'));
    });
});

describe("a chunk run's stored input", () => {
    it('keeps the chunk and the seed, so a resumed chunk run is the same run', async () => {
        const storage = createMemoryRunStorage();
        const seed = { v: 1 as const, source: { kind: 'build' as const, chunks: 2, messages: 80 }, at: '2026-01-01T00:00:00Z', files: { 'persist/threads.md': 'so far' } };
        const input = sampleRunInput({ runId: 'stored-chunk', phase: 'after', memorySeed: seed, build: { chunk: 3, chunks: 5, from: 80, to: 119 } });
        for (const file of storedInputFiles(input)) await storage.putFile({ v: RECORD_VERSION, runId: input.runId, path: file.path, content: file.content, version: 1, updatedAt: 0 });
        const loaded = await loadStoredInput(storage, input.runId);
        assert.deepEqual(loaded?.input.build, input.build);
        assert.deepEqual(loaded?.input.memorySeed, seed);
    });
});
