// Tabs without Web Locks (issue 39 §3): the run lease is claimed, renewed and checked in one IndexedDB
// transaction with an owner token; a tab that finds another token stops and writes nothing; a tab frozen
// past its lease that wakes after another took over never commits; of two claims in the same instant,
// exactly one wins. On both storages, and on two connections to one IndexedDB database (two tabs).
// Run: node --import tsx --test tests/unit/run-lease.test.ts
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ModelReply } from '../../src/contract/model';
import type { RunRecord } from '../../src/contract/records';
import type { HostBridge } from '../../src/contract/wire';
import { createEventPump } from '../../src/engine/journal/event-pump';
import { runAgent } from '../../src/engine/run/run-lifecycle';
import { ChatBusy, RunLease, type LeaseTerms } from '../../src/engine/tabs/leases';
import { markInterruptedRuns } from '../../src/engine/tabs/sweep';
import { openTavernAgentDb } from '../../src/store/db';
import { createIdbRunStorage } from '../../src/store/idb-run-storage';
import { createMemoryRunStorage, type RunStorage } from '../../src/store/run-storage';
import { ALL_TOOLS } from '../../src/tools/registry';
import { suitesPerStorageKind } from '../fixtures/storage-kinds';
import { rawCall, toolTurn } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

const { describe, newStorage } = suitesPerStorageKind();

const TTL = 1_000;
/** Renewals never come on their own in these tests: each one is called where the test means it. */
const timing = { ttlMs: TTL, renewMs: 3_600_000 };

function record(runId: string, chatKey = 'chat-1', extra: Partial<RunRecord> = {}): RunRecord {
    return { v: 1, runId, chatKey, chatId: 'Alice - 2026', profileId: 'writer', generationType: 'normal', state: 'created', messageId: null, error: null, createdAt: 1, updatedAt: 1, ...extra };
}

/** A clock the test moves: a tab "frozen" past its lease is one whose clock jumped without a renewal. */
function clock(start = 10_000) {
    let now = start;
    return { now: () => now, advance: (ms: number) => void (now += ms) };
}

const terms = (owner: string, extra: Partial<LeaseTerms> = {}): LeaseTerms => ({ owner, exclusive: true, timing, ...extra });

describe('the run lease', () => {
    it('a claim stores the run with its owner, a fresh token and an end; a second run of the chat is refused while it is fresh, and stores nothing', async () => {
        const storage = newStorage();
        const time = clock();
        const a = await RunLease.claim(storage, record('run-a'), terms('tab-1'), time.now);
        const stored = (await storage.getRun('run-a'))!;
        assert.equal(stored.state, 'created');
        assert.equal(stored.lease?.owner, 'tab-1');
        assert.equal(stored.lease?.until, time.now() + TTL);
        assert.match(stored.lease?.token ?? '', /^[0-9a-f-]{36}$/);

        time.advance(TTL - 1);
        await assert.rejects(RunLease.claim(storage, record('run-b'), terms('tab-2'), time.now), ChatBusy);
        assert.equal(await storage.getRun('run-b'), undefined, 'the refused run left nothing behind');
        assert.deepEqual(await storage.getRun('run-a'), stored, 'nor touched the holder');

        // A keeper works beside the writer, another chat is another writer, and Web Locks (not exclusive) decide for themselves.
        const keeper = await RunLease.claim(storage, record('keeper', 'chat-1', { phase: 'after' }), terms('tab-2', { exclusive: false }), time.now);
        const other = await RunLease.claim(storage, record('run-c', 'chat-2'), terms('tab-2'), time.now);
        const locked = await RunLease.claim(storage, record('run-d'), terms('tab-2', { exclusive: false }), time.now);
        for (const lease of [a, keeper, other, locked]) lease.release();
    });

    it('a renewal, and every save, extends the lease while the token is the claim\'s; the run\'s end ends it', async () => {
        const storage = newStorage();
        const time = clock();
        const a = await RunLease.claim(storage, record('run-a'), terms('tab-1'), time.now);
        time.advance(600);
        assert.equal(await a.renew(), true);
        assert.equal((await storage.getRun('run-a'))!.lease?.until, time.now() + TTL);
        time.advance(600);
        await a.save(record('run-a', 'chat-1', { state: 'running' }));
        const running = (await storage.getRun('run-a'))!;
        assert.deepEqual([running.state, running.lease?.until], ['running', time.now() + TTL]);
        time.advance(10);
        await a.save(record('run-a', 'chat-1', { state: 'completed' }));
        assert.equal((await storage.getRun('run-a'))!.lease?.until, time.now(), 'a completed run holds no fresh lease');
        await RunLease.claim(storage, record('run-b'), terms('tab-2'), time.now).then((b) => b.release());
        a.release();
    });

    it('a lease that ran out is taken over: the claim revokes it, and the old holder, waking, stops at once and writes nothing', async () => {
        const storage = newStorage();
        const time = clock();
        let stopped = 0;
        const a = await RunLease.claim(storage, record('run-a'), terms('tab-1', { onLost: () => (stopped += 1) }), time.now);
        await a.save(record('run-a', 'chat-1', { state: 'running' }));
        // Tab 1 is frozen: no renewal while the clock passes its lease.
        time.advance(TTL + 1);
        const b = await RunLease.claim(storage, record('run-b'), terms('tab-2'), time.now);
        const left = (await storage.getRun('run-a'))!;
        assert.equal(left.lease, undefined, "the cut-off run's lease is revoked");

        assert.equal(await a.renew(), false, 'the renewal finds the lease gone');
        assert.equal(stopped, 1, 'the run is told to stop');
        assert.equal(a.lost, true);
        await assert.rejects(a.save(record('run-a', 'chat-1', { state: 'completed' })), { code: 'run.lease_lost' });
        await assert.rejects(a.confirm(), { code: 'run.lease_lost' });
        assert.deepEqual(await storage.getRun('run-a'), left, 'nothing was written over the record');
        assert.equal(await a.renew(), false);
        assert.equal(stopped, 1, 'told once');
        b.release();
    });

    it('a save checks the token in its own transaction: a tab resumed the run meanwhile, and the old holder\'s commit check refuses', async () => {
        const storage = newStorage();
        const time = clock();
        const a = await RunLease.claim(storage, record('run-a'), terms('tab-1'), time.now);
        await a.save(record('run-a', 'chat-1', { state: 'running' }));
        time.advance(TTL + 1);
        // Tab 2 opens: the sweep marks the run interrupted, and Resume claims it again.
        assert.equal(await markInterruptedRuns(storage, () => false, time.now), 1);
        const b = await RunLease.claim(storage, (await storage.getRun('run-a'))!, terms('tab-2'), time.now);
        const taken = (await storage.getRun('run-a'))!;
        assert.deepEqual([taken.state, taken.lease?.owner], ['interrupted', 'tab-2']);
        // Tab 1 wakes and is about to commit: the save before the commit (awaiting_commit) is refused.
        assert.equal(a.lost, false, 'tab 1 has not noticed yet');
        await assert.rejects(a.save(record('run-a', 'chat-1', { state: 'awaiting_commit' })), { code: 'run.lease_lost' });
        assert.deepEqual(await storage.getRun('run-a'), taken);
        b.release();
    });

    it('the sweep checks again in the transaction that marks: a lease renewed after the runs were listed keeps its run alive', async () => {
        const base = newStorage();
        const time = clock();
        let a: RunLease | null = null;
        // The holder renews in the moment between the sweep's list and its write (the sweep reads the journal there).
        const storage: RunStorage = { ...base, listEvents: async (runId, from) => (await a!.renew(), base.listEvents(runId, from)) };
        a = await RunLease.claim(base, record('run-a'), terms('tab-1'), time.now);
        await a.save(record('run-a', 'chat-1', { state: 'running' }));
        time.advance(TTL + 1);
        assert.equal(await markInterruptedRuns(storage, () => false, time.now), 0);
        assert.equal((await base.getRun('run-a'))!.state, 'running');
        assert.equal(await a.renew(), true, 'the run is still its tab\'s');
        a.release();
    });
});

/** A model that answers once (a write and a commit) when the test lets it: the tab sleeps while it waits. */
function sleepingHost() {
    let wake: (reply: ModelReply) => void = () => undefined;
    let asked: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (asked = resolve));
    const commits: unknown[] = [];
    let requests = 0;
    const host: HostBridge = {
        requestModel: () => {
            requests += 1;
            if (requests > 1) return Promise.resolve(toolTurn(rawCall('f', 'workspace_finish', {})));
            asked();
            return new Promise<ModelReply>((resolve) => (wake = resolve));
        },
        async commit(request) {
            commits.push(request);
            return { ok: true, value: { messageId: 1 } };
        },
        onEvents() {},
    };
    const reply = toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Written by the sleeping tab.' }), rawCall('c', 'workspace_commit', {}));
    return { host, commits, waiting, wakeUp: () => wake(reply) };
}

/** Tab 1's run of the chat, its lease told to stop it when lost (as launchRun does). */
function tabOneRun(storage: RunStorage, time: ReturnType<typeof clock>, host: HostBridge, lease: Partial<LeaseTerms>, stopped = new AbortController()) {
    const input = sampleRunInput({ runId: 'sleeper' });
    const outcome = runAgent(input, {
        storage,
        host,
        tools: ALL_TOOLS,
        sink: createEventPump(() => undefined),
        signal: stopped.signal,
        now: time.now,
        lease: terms('tab-1', { ...lease, onLost: () => stopped.abort('lost') }),
    });
    return { input, outcome, stopped };
}

describe('a frozen tab', () => {
    for (const [name, exclusive] of [['without Web Locks', true], ['with the check before the commit alone', false]] as const) {
        it(`that wakes after another tab took its run over never commits, and writes nothing more (${name})`, async () => {
            const storage = newStorage();
            const time = clock();
            const tab = sleepingHost();
            const { input, outcome } = tabOneRun(storage, time, tab.host, { exclusive });
            await tab.waiting;
            // Frozen past the lease; tab 2 finds the run cut off, and starts its own run on the chat.
            time.advance(TTL + 1);
            assert.equal(await markInterruptedRuns(storage, () => false, time.now), 1);
            const other = await RunLease.claim(storage, record('run-2', input.chat.integrity), terms('tab-2'), time.now);
            const left = { run: await storage.getRun('sleeper'), events: await storage.listEvents('sleeper') };

            tab.wakeUp();
            const ended = await outcome;
            assert.deepEqual([ended.state, ended.error?.code], ['failed', 'run.lease_lost']);
            assert.deepEqual(tab.commits, [], 'the host was never asked to commit');
            assert.deepEqual(await storage.getRun('sleeper'), left.run, 'the record is as tab 2 left it');
            const events = await storage.listEvents('sleeper');
            assert.equal(events.some((event) => event.type === 'commit'), false);
            if (exclusive) assert.deepEqual(events, left.events, 'without Web Locks the woken tab checks before it acts on the reply: not one event');
            other.release();
        });
    }

    it('a renewal that finds another owner stops the run at once, while it still waits for its model', async () => {
        const storage = newStorage();
        const time = clock();
        const tab = sleepingHost();
        // The model never answers: only the stop ends the wait.
        const stopped = new AbortController();
        const host: HostBridge = {
            ...tab.host,
            requestModel: (request) => {
                void tab.host.requestModel(request);
                return new Promise<ModelReply>((resolve) => stopped.signal.addEventListener('abort', () => resolve({ ok: false, status: null, message: 'Cancelled.', aborted: true })));
            },
        };
        const { input, outcome } = tabOneRun(storage, time, host, { timing: { ttlMs: TTL, renewMs: 20 } }, stopped);
        await tab.waiting;
        time.advance(TTL + 1);
        const other = await RunLease.claim(storage, record('run-2', input.chat.integrity), terms('tab-2'), time.now);
        const left = await storage.getRun('sleeper');
        const ended = await outcome;
        assert.equal(stopped.signal.aborted, true, 'the renewal stopped the run');
        assert.deepEqual([ended.state, ended.error?.code], ['failed', 'run.lease_lost']);
        assert.deepEqual(await storage.getRun('sleeper'), left, 'not overwritten');
        other.release();
    });
});

/** Two claims for two runs of one chat, started in the same instant on two storages of one database. */
async function simultaneousClaims(tab1: RunStorage, tab2: RunStorage): Promise<{ won: string[]; busy: number; stored: string[] }> {
    const time = clock();
    const settled = await Promise.allSettled([RunLease.claim(tab1, record('run-1'), terms('tab-1'), time.now), RunLease.claim(tab2, record('run-2'), terms('tab-2'), time.now)]);
    const won = settled.flatMap((result, index) => (result.status === 'fulfilled' ? (result.value.release(), [`run-${index + 1}`]) : []));
    const busy = settled.filter((result) => result.status === 'rejected' && result.reason instanceof ChatBusy).length;
    return { won, busy, stored: (await tab1.listRuns('chat-1')).map((run) => run.runId) };
}

it('two tabs claiming the same chat in the same instant (two IndexedDB connections): exactly one runs, the other is busy', async () => {
    const name = `lease-race-${process.pid}`;
    for (let round = 0; round < 5; round += 1) {
        const [db1, db2] = await Promise.all([openTavernAgentDb(`${name}-${round}`), openTavernAgentDb(`${name}-${round}`)]);
        const result = await simultaneousClaims(createIdbRunStorage(db1), createIdbRunStorage(db2));
        assert.equal(result.won.length, 1, JSON.stringify(result));
        assert.equal(result.busy, 1);
        assert.deepEqual(result.stored, result.won, 'only the winner is stored');
        db1.close();
        db2.close();
    }
});

it('two claims in the same instant on the memory storage: exactly one runs', async () => {
    const storage = createMemoryRunStorage();
    const result = await simultaneousClaims(storage, storage);
    assert.deepEqual([result.won, result.busy, result.stored], [['run-1'], 1, ['run-1']]);
});

it('a claim the storage refuses fails the run with the reason, as any other write would', async () => {
    const base = createMemoryRunStorage();
    const storage: RunStorage = { ...base, updateChatRuns: () => Promise.reject(new DOMException('full', 'QuotaExceededError')) };
    const tab = sleepingHost();
    const { outcome } = tabOneRun(storage, clock(), tab.host, {});
    const ended = await outcome;
    assert.deepEqual([ended.state, ended.error?.code], ['failed', 'store.quota_exceeded']);
    assert.equal((await base.getRun('sleeper'))?.state, 'failed', 'it is not left looking alive');
});
