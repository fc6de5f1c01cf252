// The per-round account's arithmetic (tests/harness/round-account.ts): which logged entries count toward a
// round. The counting itself is checked end to end in tests/e2e/round-account.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { accountOf, tickCallIds } from '../harness/round-account';
import type { CountEntry } from '../harness/round-counters';

const entry = (kind: CountEntry['kind'], fields: Partial<CountEntry> = {}): CountEntry => ({ kind, name: '', bytes: 0, ours: true, tick: false, id: null, nodes: null, ...fields });

test("a clock's work is left out, and so is the worker's reply to a call a clock made", () => {
    const page = [entry('post', { id: 'heartbeat', tick: true, bytes: 50 }), entry('post', { id: 'reply-1', bytes: 30 }), entry('dom', { name: 'panel', tick: true, nodes: [1] })];
    const worker = [entry('post', { id: 'heartbeat', bytes: 70 }), entry('post', { id: 'call-2', bytes: 100 })];
    const account = accountOf(page, worker);
    assert.equal(account.messagesToWorker, 1);
    assert.equal(account.bytesToWorker, 30);
    assert.equal(account.messagesToPage, 1);
    assert.equal(account.bytesToPage, 100);
    assert.equal(account.panelMutations, 0);
});

test("the worker's reply to a clock's call is left out in the next round too, where a slow machine may deliver it", () => {
    const before = [entry('post', { id: 'heartbeat', tick: true, bytes: 50 })];
    const page = [entry('post', { id: 'reply-1', bytes: 30 })];
    const worker = [entry('post', { id: 'heartbeat', bytes: 70 }), entry('post', { id: 'call-2', bytes: 100 })];
    assert.equal(accountOf(page, worker).messagesToPage, 2, 'the round alone does not know the heartbeat');
    const account = accountOf(page, worker, tickCallIds([...before, ...page]));
    assert.equal(account.messagesToPage, 1);
    assert.equal(account.bytesToPage, 100);
});

test("SillyTavern's own calls on the page are not the extension's; the worker's are all ours", () => {
    const page = [entry('timer', { ours: false }), entry('emit', { ours: false }), entry('fetch', { ours: false }), entry('timer'), entry('broadcast')];
    const worker = [entry('timer'), entry('idb'), entry('idb'), entry('broadcast')];
    const account = accountOf(page, worker);
    assert.deepEqual(
        [account.pageTimers, account.sillyTavernEvents, account.fetches, account.workerTimers, account.idbTransactions, account.broadcastPosts],
        [1, 0, 0, 1, 2, 2],
    );
});

test('DOM records count once each, and the nodes they touched once however often', () => {
    const page = [entry('dom', { name: 'panel', nodes: [1, 2] }), entry('dom', { name: 'panel', nodes: [2] }), entry('dom', { name: 'badge', nodes: [9] })];
    const account = accountOf(page, []);
    assert.deepEqual([account.panelMutations, account.panelNodes, account.badgeMutations, account.badgeNodes], [2, 2, 1, 1]);
});
