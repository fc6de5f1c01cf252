// A step shows the moment it is appended, and only what is stored counts: the journal's sink sees events
// before their write commits, a failed write takes back its events (and every event queued behind them) and
// hands their numbers to the next event, the pump sends one update per burst, and the page's stored gate
// lets scripts see only what is stored.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JournalEvent } from '../../src/contract/records';
import type { JournalUpdate } from '../../src/contract/wire';
import { createEventPump } from '../../src/engine/event-pump';
import { Journal, type JournalSink } from '../../src/engine/journal';
import { createStoredGate } from '../../src/host/stored-gate';
import { createMemoryRunStorage, type RunStorage } from '../../src/store/run-storage';

/** Memory storage whose writes wait until `release()`, and fail while `broken`. */
function heldStorage() {
    const inner = createMemoryRunStorage();
    const waiting: Array<() => void> = [];
    const state = { broken: false };
    const storage: RunStorage = {
        ...inner,
        async appendEvents(writes) {
            await new Promise<void>((resolve) => waiting.push(resolve));
            if (state.broken) throw new Error('disk I/O error');
            return inner.appendEvents(writes);
        },
    };
    const release = async () => {
        while (waiting.length) waiting.shift()!();
        await new Promise((resolve) => setImmediate(resolve));
    };
    return { storage, state, release };
}

function recordingSink() {
    const log: string[] = [];
    const sink: JournalSink = {
        appended: (event) => log.push(`appended ${event.seq} ${event.type}`),
        stored: (event) => log.push(`stored ${event.seq}`),
        retracted: (fromSeq) => log.push(`retracted ${fromSeq}`),
    };
    return { sink, log };
}

const note = (reason: string) => ({ reason });

describe('journal: shown at append, confirmed at commit', () => {
    it('numbers and shows an event at once, and confirms it only after its write commits', async () => {
        const { storage, release } = heldStorage();
        const { sink, log } = recordingSink();
        const journal = new Journal('r1', storage, sink, () => 1);
        const first = journal.append('run-finish', note('a'));
        assert.deepEqual(log, ['appended 0 run-finish'], 'shown before any write commits');
        await release();
        assert.equal((await first).seq, 0);
        assert.deepEqual(log, ['appended 0 run-finish', 'stored 0']);
        assert.deepEqual((await storage.listEvents('r1')).map((e) => e.seq), [0]);
    });

    it('a failed write retracts its events and those queued behind it; the next event takes the first unwritten number', async () => {
        const { storage, state, release } = heldStorage();
        const { sink, log } = recordingSink();
        const journal = new Journal('r1', storage, sink, () => 1);
        await Promise.all([journal.append('run-finish', note('stored')), release()]);
        state.broken = true;
        const failing = journal.append('run-finish', note('lost 1'));
        const queued = journal.append('run-finish', note('lost 2')); // waits behind the write in flight
        const outcomes = Promise.allSettled([failing, queued]);
        await release();
        const [a, b] = await outcomes;
        assert.equal(a.status, 'rejected');
        assert.equal(b.status, 'rejected', 'an event queued behind a hole fails with it');
        assert.equal((a as PromiseRejectedResult).reason.code, 'store.write_failed');
        assert.deepEqual(log, ['appended 0 run-finish', 'stored 0', 'appended 1 run-finish', 'appended 2 run-finish', 'retracted 1']);

        state.broken = false;
        const after = journal.append('run-fail', { code: 'store.write_failed', message: 'disk I/O error', detail: null });
        await release();
        assert.equal((await after).seq, 1, 'the failure takes the number of the first event never stored');
        assert.deepEqual((await storage.listEvents('r1')).map((e) => [e.seq, e.type]), [[0, 'run-finish'], [1, 'run-fail']]);
    });
});

describe('event pump', () => {
    it('sends one update per burst: the appended events, how far the journal is stored, and the stored ones apart', async () => {
        const updates: JournalUpdate[] = [];
        const stored: JournalEvent[][] = [];
        const pump = createEventPump((u) => updates.push(structuredClone(u)), (events) => stored.push(events));
        const e = (seq: number): JournalEvent => ({ v: 1, runId: 'r1', seq, at: 1, type: 'run-finish', payload: { reason: String(seq) } });
        pump.appended(e(0));
        pump.appended(e(1));
        pump.stored(e(0));
        assert.equal(updates.length, 0, 'nothing crosses before the task ends');
        await Promise.resolve();
        assert.deepEqual(updates, [{ events: [e(0), e(1)], storedThrough: 0 }]);
        assert.deepEqual(stored, [[e(0)]]);

        pump.stored(e(1));
        await Promise.resolve();
        assert.deepEqual(stored[1], [e(1)], 'other tabs get the stored event at once');
        assert.equal(updates.length, 1, 'a commit alone waits for events to ride with');
        pump.appended(e(2));
        await Promise.resolve();
        assert.deepEqual(updates[1], { events: [e(2)], storedThrough: 1 }, 'and goes with the next ones');

        pump.stored(e(2));
        await new Promise((resolve) => setTimeout(resolve, 5));
        assert.deepEqual(updates[2], { events: [], storedThrough: 2 }, 'or alone, a task later, when none come');
    });

    it('a retraction goes after what was already waiting, and before the events appended after it', async () => {
        const updates: JournalUpdate[] = [];
        const stored: JournalEvent[][] = [];
        const pump = createEventPump((u) => updates.push(structuredClone(u)), (events) => stored.push(events));
        const e = (seq: number, reason = String(seq)): JournalEvent => ({ v: 1, runId: 'r1', seq, at: 1, type: 'run-finish', payload: { reason } });
        pump.appended(e(3));
        pump.retracted(3);
        pump.appended(e(3, 'the failure'));
        await Promise.resolve();
        assert.deepEqual(updates, [{ events: [e(3)] }, { retractFrom: 3, events: [e(3, 'the failure')] }]);
        assert.deepEqual(stored, []);
    });
});

describe('stored gate (the page)', () => {
    it('passes on only stored events, each once, in order, and forgets retracted ones', () => {
        const gate = createStoredGate();
        const e = (seq: number, reason = String(seq)): JournalEvent => ({ v: 1, runId: 'r1', seq, at: 1, type: 'run-finish', payload: { reason } });
        assert.deepEqual(gate({ events: [e(0), e(1), e(2)] }), []);
        assert.deepEqual(gate({ events: [], storedThrough: 1 }).map((x) => x.seq), [0, 1]);
        assert.deepEqual(gate({ events: [e(3)], storedThrough: 1 }), [], 'nothing new is stored');
        assert.deepEqual(gate({ retractFrom: 2, events: [e(2, 'the failure')] }), []);
        const last = gate({ events: [], storedThrough: 2 });
        assert.deepEqual(last.map((x) => [x.seq, (x.payload as { reason: string }).reason]), [[2, 'the failure']]);
    });
});
