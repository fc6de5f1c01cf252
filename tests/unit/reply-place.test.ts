import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { replyPlace } from '../../src/host/chat/reply-place';

/** Where a run's reply is, read from a chat shaped as SillyTavern keeps it (marker in extra, per swipe in swipe_info). */

type Message = Record<string, unknown>;

function withChat(chat: Message[]): void {
    (globalThis as { SillyTavern?: unknown }).SillyTavern = { getContext: () => ({ chat }) };
}

afterEach(() => {
    delete (globalThis as { SillyTavern?: unknown }).SillyTavern;
});

const marker = (runId: string) => ({ tavern_agent: { runId } });
const user = { is_user: true, is_system: false, mes: 'Hi', name: 'You' };

test('shown: the message carries the run in its current swipe, found by marker even when its index moved', () => {
    withChat([user, { is_user: false, mes: 'Reply', extra: marker('run-a') }]);
    assert.deepEqual(replyPlace('run-a', 5), { state: 'shown', index: 1 });
});

test('swiped away: another swipe is shown, the run is kept in swipe_info', () => {
    withChat([user, { is_user: false, mes: 'Other', swipe_id: 1, extra: {}, swipe_info: [{ extra: marker('run-a') }, { extra: {} }] }]);
    assert.deepEqual(replyPlace('run-a', 1), { state: 'swiped', index: 1, swipe: 0 });
});

test('replaced: its message holds another run\'s reply, or one not made by an agent', () => {
    withChat([user, { is_user: false, mes: 'New', extra: marker('run-b') }]);
    assert.deepEqual(replyPlace('run-a', 1), { state: 'replaced', index: 1, byRunId: 'run-b' });
    withChat([user, { is_user: false, mes: 'Plain', extra: {} }]);
    assert.deepEqual(replyPlace('run-a', 1), { state: 'replaced', index: 1, byRunId: null });
});

test('gone: deleted, or its index now holds the user\'s message', () => {
    withChat([user]);
    assert.deepEqual(replyPlace('run-a', 1), { state: 'gone' });
    withChat([user, user]);
    assert.deepEqual(replyPlace('run-a', 1), { state: 'gone' });
});
