// Storage, imports and Stop (issue 13 items 4–5): 2 MiB files, bounded search, Stop ending a running tool,
// run and profile imports checked, retention, and a quota error that leaves the run failed, not running.
// Run: node --import tsx --test tests/unit/storage-limits.test.ts
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ModelReply } from '../../src/contract/model';
import { newId } from '../../src/contract/new-id';
import { importProfiles } from '../../src/contract/profile-migrations';
import { parseProfile } from '../../src/contract/profile-migrations';
import { WRITER_PROFILE } from '../../src/contract/profile';
import type { RunRecord } from '../../src/contract/records';
import { ok } from '../../src/contract/result';
import { markInterruptedRuns } from '../../src/engine/tabs/sweep';
import { countRunsByChat, pruneRuns } from '../../src/engine/archive/retention';
import { runAgent } from '../../src/engine/run/run-lifecycle';
import { exportRun, importRun, RUN_IMPORT_MAX_CHARS } from '../../src/engine/archive/run-archive';
import type { RunStorage } from '../../src/store/run-storage';
import { ALL_TOOLS } from '../../src/tools/registry';
import type { ToolDefinition } from '../../src/tools/tool';
import { MAX_FILE_BYTES } from '../../src/workspace/file-size';
import { sampleRunInput } from '../fixtures/run-input';
import { suitesPerStorageKind } from '../fixtures/storage-kinds';

const { describe, newStorage } = suitesPerStorageKind();

function toolTurn(...calls: Array<[string, unknown]>): ModelReply {
    return {
        ok: true,
        durationMs: 1,
        raw: { choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: calls.map(([name, args], i) => ({ id: `c${i}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })) } }] },
    };
}

/** Runs a scripted agent; `seen` collects the tool results the model was shown (as the next request's messages). */
async function scripted(storage: RunStorage, script: ModelReply[], opts: { runId?: string; tools?: ToolDefinition[]; signal?: AbortSignal } = {}) {
    const requests: unknown[] = [];
    const outcome = await runAgent(sampleRunInput({ runId: opts.runId ?? 'run-1' }), {
        storage,
        host: {
            requestModel: async (request) => {
                requests.push(request);
                return script.shift() ?? toolTurn(['workspace_write_file', { path: 'output/main.md', content: 'Done.' }], ['workspace_commit', {}], ['workspace_finish', {}]);
            },
            commit: async () => ok({ messageId: 3 }),
            onEvents: () => undefined,
        },
        tools: opts.tools ?? ALL_TOOLS,
        sink: () => undefined,
        signal: opts.signal ?? new AbortController().signal,
    });
    return { outcome, requests: JSON.stringify(requests) };
}

const record = (runId: string, chatKey: string, createdAt: number, state: RunRecord['state'] = 'completed'): RunRecord => ({
    v: 1,
    runId,
    chatKey,
    chatId: `${chatKey} file`,
    profileId: 'writer',
    generationType: 'normal',
    state,
    messageId: null,
    error: null,
    createdAt,
    updatedAt: createdAt,
});

describe('workspace limits', () => {
    it('a file over 2 MiB is a recoverable workspace.file_too_large, and nothing is written', async () => {
        const storage = newStorage();
        const big = 'é'.repeat(MAX_FILE_BYTES / 2 + 10); // 2 bytes each in UTF-8
        const { outcome, requests } = await scripted(storage, [
            toolTurn(['workspace_write_file', { path: 'scratch/big.md', content: big }]),
            toolTurn(['workspace_write_file', { path: 'scratch/ok.md', content: 'small' }]),
        ]);
        assert.equal(outcome.state, 'completed');
        assert.match(requests, /workspace\.file_too_large/);
        assert.equal(await storage.getFile('run-1', 'scratch/big.md'), undefined);
        assert.equal((await storage.getFile('run-1', 'scratch/ok.md'))?.content, 'small');
    });

    it('a one-character search over a large file stops at its bound and says so', async () => {
        const storage = newStorage();
        const lines = Array.from({ length: 20_000 }, (_, i) => `line ${i} a`).join('\n');
        const { requests } = await scripted(storage, [
            toolTurn(['workspace_write_file', { path: 'scratch/long.md', content: lines }]),
            toolTurn(['workspace_search_files', { query: 'a' }]),
        ]);
        assert.match(requests, /The search stopped after 1000 hits/);
    });
});

describe('Stop', () => {
    it('interrupts a tool that is still running: the run ends cancelled at once', async () => {
        const storage = newStorage();
        const controller = new AbortController();
        let started!: () => void;
        const running = new Promise<void>((resolve) => (started = resolve));
        const hanging: ToolDefinition = {
            ...ALL_TOOLS.find((tool) => tool.name === 'workspace.list_files')!,
            execute: () => {
                started();
                return new Promise(() => undefined); // never settles on its own
            },
        };
        const tools = [...ALL_TOOLS.filter((tool) => tool.name !== 'workspace.list_files'), hanging];
        const run = scripted(storage, [toolTurn(['workspace_list_files', {}])], { tools, signal: controller.signal });
        await running;
        controller.abort('Stopped.');
        const { outcome } = await run;
        assert.equal(outcome.state, 'cancelled');
        assert.equal((await storage.getRun('run-1'))?.state, 'cancelled');
    });
});

describe('run imports', () => {
    it('round-trip, and refuse a damaged payload, a checkpoint without a full copy, or an oversized file', async () => {
        const storage = newStorage();
        await scripted(storage, [toolTurn(['workspace_write_file', { path: 'output/main.md', content: 'Hi.' }]), toolTurn(['workspace_commit', {}], ['workspace_finish', {}])]);
        const exported = await exportRun(storage, 'run-1');
        assert.ok(exported.ok);
        assert.ok((await importRun(storage, exported.value, 'imported-1')).ok);

        const data = JSON.parse(exported.value);
        const badPayload = structuredClone(data);
        badPayload.events.find((e: { type: string }) => e.type === 'tool-call-start').payload = { callId: 42 };
        const refused = await importRun(storage, JSON.stringify(badPayload), 'imported-2');
        assert.equal(!refused.ok && refused.error.code, 'run.import_invalid');
        assert.match(!refused.ok ? refused.error.message : '', /tool-call-start/);

        const unknown = structuredClone(data);
        unknown.events[0].type = 'made-up';
        assert.equal((await importRun(storage, JSON.stringify(unknown), 'imported-3')).ok, false);

        const deltaOnly = structuredClone(data);
        deltaOnly.checkpoints = [{ ...deltaOnly.checkpoints[0], full: null, delta: '@@ -1,1 +1,1 @@\n-a\n+b\n' }];
        assert.equal((await importRun(storage, JSON.stringify(deltaOnly), 'imported-4')).ok, false);

        const tooBig = ' '.repeat(RUN_IMPORT_MAX_CHARS + 1);
        const big = await importRun(storage, tooBig, 'imported-5');
        assert.match(!big.ok ? big.error.message : '', /too large/);
        assert.deepEqual((await storage.listRuns('imported')).map((run) => run.runId), ['imported-1']);
    });
});

describe('retention', () => {
    it('keeps the newest runs whole, the next as summaries, deletes older ones, and leaves live runs alone', async () => {
        const storage = newStorage();
        for (let i = 0; i < 8; i += 1) {
            await storage.putRun(record(`r${i}`, 'chat-a', i));
            await storage.putFile({ v: 1, runId: `r${i}`, path: 'output/main.md', content: `reply ${i}`, version: 1, updatedAt: i });
        }
        await storage.putRun(record('live', 'chat-a', 0, 'running'));
        await storage.putRun(record('other', 'chat-b', 0));
        const report = await pruneRuns(storage, { action: 'retention', chatKeys: ['chat-a'], policy: { keepFull: 2, keepSummaries: 3 } }, (id) => id === 'live');
        assert.deepEqual(report, { summarized: 3, deleted: 3, held: 0 });
        const left = (await storage.listRuns('chat-a')).map((run) => `${run.runId}${run.summary ? ':summary' : ''}`).sort();
        assert.deepEqual(left, ['live', 'r3:summary', 'r4:summary', 'r5:summary', 'r6', 'r7']);
        assert.equal((await storage.getFile('r7', 'output/main.md'))?.content, 'reply 7');
        assert.equal(await storage.getFile('r5', 'output/main.md'), undefined);
        assert.ok(await storage.getRun('other'));
        assert.deepEqual(await pruneRuns(storage, { action: 'delete', chatKeys: 'all' }, (id) => id === 'live'), { summarized: 0, deleted: 6, held: 0 });
        assert.deepEqual((await storage.listAllRuns()).map((run) => run.runId), ['live']);
    });
});

describe('retention and the only copy of a memory (issue 39 §4)', () => {
    it('a run whose memory no message could carry is kept (as a summary, its memory whole) until a later reply carries one', async () => {
        const storage = newStorage();
        // r0 carried its memory; r1 could not (too large); r2 and r3 wrote none.
        const runs = [record('r0', 'chat-a', 0), { ...record('r1', 'chat-a', 1), memory: { carried: false, bytes: 300_000 } }, record('r2', 'chat-a', 2), record('r3', 'chat-a', 3)];
        runs[0] = { ...runs[0]!, memory: { carried: true, bytes: 900 } };
        for (const run of runs) await storage.putRun(run);
        await storage.putPersistState({ v: 1, runId: 'r1', chatKey: 'chat-a', files: { 'persist/world.md': 'x'.repeat(300_000) }, at: 1 });
        const [overview] = await countRunsByChat(storage);
        assert.equal(overview!.heldMemoryBytes, 300_000);
        const report = await pruneRuns(storage, { action: 'delete', chatKeys: ['chat-a'] }, () => false);
        assert.deepEqual(report, { summarized: 0, deleted: 3, held: 1 });
        assert.deepEqual((await storage.listAllRuns()).map((run) => `${run.runId}${run.summary ? ':summary' : ''}`), ['r1:summary']);
        assert.ok((await storage.getPersistState('r1'))?.files['persist/world.md'], 'its memory is whole');

        // A later run's memory travelled with its reply: the held one may go now.
        await storage.putRun({ ...record('r4', 'chat-a', 4), memory: { carried: true, bytes: 1200 } });
        assert.equal((await countRunsByChat(storage))[0]!.heldMemoryBytes, 0);
        assert.deepEqual(await pruneRuns(storage, { action: 'delete', chatKeys: ['chat-a'] }, () => false), { summarized: 0, deleted: 2, held: 0 });
    });
});

describe('storage full', () => {
    it('a quota error fails the run with store.quota_exceeded (never left running), and earlier runs stay whole', async () => {
        const storage = newStorage();
        await scripted(storage, [toolTurn(['workspace_write_file', { path: 'output/main.md', content: 'Earlier.' }])], { runId: 'earlier' });
        let full = false;
        const quota = () => Promise.reject(new DOMException('Quota exceeded', 'QuotaExceededError'));
        // Full once the draft is written: every write after it is refused until the run frees its own files.
        let freed = false;
        const fullStorage: RunStorage = {
            ...storage,
            putRun: (run) => (full && !freed ? quota() : storage.putRun(run)),
            appendEvents: (writes) => {
                if (full && !freed) return quota();
                if (writes.some((w) => w.attachments?.files?.some((f) => f.path === 'scratch/huge.md'))) full = true;
                return storage.appendEvents(writes);
            },
            putFile: (file) => (full && !freed ? quota() : storage.putFile(file)),
            dropRunData: async (runId) => {
                freed = true;
                await storage.dropRunData(runId);
            },
        };
        const { outcome } = await scripted(fullStorage, [toolTurn(['workspace_write_file', { path: 'scratch/huge.md', content: 'x' }]), toolTurn(['workspace_write_file', { path: 'scratch/more.md', content: 'y' }])], { runId: 'full' });
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'store.quota_exceeded');
        assert.equal((await storage.getRun('full'))?.state, 'failed');
        assert.equal((await storage.getRun('earlier'))?.state, 'completed');
        assert.equal((await storage.getFile('earlier', 'output/main.md'))?.content, 'Done.');
        assert.ok((await storage.listEvents('earlier')).length > 10, 'its journal is whole');
    });

    it('a run that cannot be marked interrupted does not stop the others being marked', async () => {
        const storage = newStorage();
        await storage.putRun(record('stuck', 'chat-a', 1, 'running'));
        await storage.putRun(record('cut', 'chat-a', 2, 'running'));
        // The sweep marks a run in one transaction that checks it again (tabs/sweep.ts).
        const flaky: RunStorage = { ...storage, updateRun: (runId, decide) => (runId === 'stuck' ? Promise.reject(new DOMException('full', 'QuotaExceededError')) : storage.updateRun(runId, decide)) };
        assert.equal(await markInterruptedRuns(flaky), 1);
        assert.equal((await storage.getRun('cut'))?.state, 'interrupted');
    });
});

describe('profile imports and ids', () => {
    it('refuse files over 1 MiB and reserved ids; ids work without crypto.randomUUID', () => {
        const big = importProfiles(' '.repeat(1024 * 1024 + 1));
        assert.ok(!big.ok && /too large/.test(big.errors[0]!.message));
        const proto = parseProfile({ ...structuredClone(WRITER_PROFILE), id: '__proto__' });
        assert.ok(!proto.ok && proto.errors.some((error) => error.path === 'id'));
        const id = newId();
        assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
        const saved = Object.getOwnPropertyDescriptor(globalThis.crypto, 'randomUUID');
        Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
        try {
            assert.match(newId(), /^[0-9a-f]{8}-[0-9a-f]{4}-4/);
            assert.notEqual(newId(), newId());
        } finally {
            if (saved) Object.defineProperty(globalThis.crypto, 'randomUUID', saved);
            else delete (globalThis.crypto as { randomUUID?: unknown }).randomUUID;
        }
    });
});

describe('plain HTTP', () => {
    it('the plain-JS SHA-256 gives the Web Crypto digest', async () => {
        const { sha256Js } = await import('../../src/contract/sha256');
        const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
        for (const size of [0, 1, 55, 56, 63, 64, 65, 1000, 100_003]) {
            const bytes = new Uint8Array(size).map((_, i) => (i * 31 + size) & 0xff);
            assert.equal(hex(sha256Js(bytes)), hex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))), `size ${size}`);
        }
    });
});
