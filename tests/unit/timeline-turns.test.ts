// The timeline's turns (issue 34 §5): the runs of one turn (same turnId) are listed as one turn, in the order
// they ran, with SillyTavern's own reply where it came; runs without a turn, and a turn with nothing around its
// reply, are listed as every run was before.
// Run: node --import tsx --test tests/unit/timeline-turns.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunRecord } from '../../src/contract/records';
import { groupTurns, turnItems, turnOfRun, type RunEntry, type TurnItem } from '../../src/ui/timeline/turns';

function run(runId: string, createdAt: number, extra: Partial<RunRecord> = {}): RunRecord {
    return {
        v: 1,
        runId,
        chatKey: 'key',
        chatId: 'chat',
        profileId: 'writer',
        generationType: 'normal',
        state: 'completed',
        messageId: null,
        error: null,
        createdAt,
        updatedAt: createdAt,
        ...extra,
    };
}

/** What a list shows, in short: `id` for a run of its own, `[phase:id …]` for a turn, `st#n` for SillyTavern's reply. */
const line = (item: TurnItem) => (item.kind === 'run' ? `${item.phase}:${item.record.runId}` : `st#${item.messageId ?? '?'}`);
const shape = (entries: RunEntry[]) => entries.map((entry) => (entry.kind === 'run' ? entry.record.runId : `[${entry.turn.items.map(line).join(' ')}]`));
const newestFirst = (records: RunRecord[]) => [...records].sort((a, b) => b.createdAt - a.createdAt);

test('runs without a turn are listed one by one, exactly as before', () => {
    const records = newestFirst([run('a', 1), run('b', 2), run('c', 3, { messageId: 4 })]);
    assert.deepEqual(shape(groupTurns(records)), ['c', 'b', 'a']);
});

test('a turn with only its reply run (the default pipeline) is no turn: its run stands alone', () => {
    const records = newestFirst([run('a', 1, { turnId: 't1', messageId: 2 }), run('b', 2, { turnId: 't1', phase: 'reply', messageId: 2 })]);
    assert.deepEqual(shape(groupTurns(records)), ['b', 'a']);
});

test('before, reply and after of one turn are one entry, in the order they ran, in the place of its newest run', () => {
    const records = newestFirst([
        run('old', 1),
        run('dir', 10, { turnId: 't', phase: 'before', profileId: 'director' }),
        run('reply', 11, { turnId: 't', phase: 'reply', messageId: 4 }),
        run('lore', 12, { turnId: 't', phase: 'after', follows: 4, profileId: 'lore-keeper' }),
        run('mem', 12, { turnId: 't', phase: 'after', follows: 4, profileId: 'memory-keeper' }),
        run('next', 20),
    ]);
    assert.deepEqual(shape(groupTurns(records)), ['next', '[before:dir reply:reply after:lore after:mem]', 'old']);
});

test("SillyTavern's own reply stands before the after-runs that follow it, with its message", () => {
    const records = newestFirst([run('dir', 1, { turnId: 't', phase: 'before' }), run('mem', 2, { turnId: 't', phase: 'after', follows: 6 })]);
    assert.deepEqual(shape(groupTurns(records)), ['[before:dir st#6 after:mem]']);
});

test('a swipe of that reply: a second SillyTavern reply, with the keepers that followed it', () => {
    const records = newestFirst([
        run('dir', 1, { turnId: 't', phase: 'before' }),
        run('mem1', 2, { turnId: 't', phase: 'after', follows: 6 }),
        run('mem2', 3, { turnId: 't', phase: 'after', follows: 6 }),
    ]);
    // One message index: a swipe stays in its message, so the reply line is not repeated.
    assert.deepEqual(shape(groupTurns(records)), ['[before:dir st#6 after:mem1 after:mem2]']);
});

test("a director whose turn has no reply run: SillyTavern's reply (its message unknown) once nothing runs any more", () => {
    const done = [run('dir', 1, { turnId: 't', phase: 'before' })];
    assert.deepEqual(shape(groupTurns(done)), ['[before:dir st#?]']);
    assert.deepEqual(shape(groupTurns(done, false)), ['[before:dir]'], 'a reply agent may be about to start');
    const failed = [run('dir', 1, { turnId: 't', phase: 'before', state: 'failed' })];
    assert.deepEqual(shape(groupTurns(failed)), ['[before:dir st#?]'], 'a failed director: the reply goes on without a brief');
    const stopped = [run('dir', 1, { turnId: 't', phase: 'before', state: 'cancelled' })];
    assert.deepEqual(shape(groupTurns(stopped)), ['[before:dir]'], 'Stop during the before-run stops the turn');
});

test('turns of different chats (imported runs) never mix, even with the same turn id', () => {
    const records = newestFirst([run('a', 1, { turnId: 't', phase: 'before', chatId: 'one' }), run('b', 2, { turnId: 't', phase: 'before', chatId: 'two' })]);
    assert.equal(groupTurns(records).length, 2);
});

test('a keeper without a turn id keeps its own line; turnOfRun finds the turn a run is in', () => {
    const records = newestFirst([run('lone', 1, { phase: 'after', follows: 2 }), run('dir', 3, { turnId: 't', phase: 'before' }), run('reply', 4, { turnId: 't', messageId: 5 })]);
    const entries = groupTurns(records);
    assert.deepEqual(shape(entries), ['[before:dir reply:reply]', 'lone']);
    assert.equal(turnOfRun(entries, 'reply')?.turnId, 't');
    assert.equal(turnOfRun(entries, 'lone'), null);
    assert.deepEqual(turnItems([run('x', 1, { phase: 'after' })], true).map(line), ['after:x'], 'no message to follow: no reply line');
});
