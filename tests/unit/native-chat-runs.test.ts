// Run: node --import tsx --test tests/unit/native-chat-runs.test.ts
import '../../src/contract/zod-setup';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IMPORTED_CHAT_KEY } from '../../src/contract/archive';
import { RECORD_VERSION, type RunRecord } from '../../src/contract/records';
import { runsOfChat } from '../../src/engine/archive/chat-runs';
import { createMemoryRunStorage } from '../../src/store/run-storage';

const record = (runId: string, chatKey: string, chatId: string, createdAt: number, state: RunRecord['state'] = 'completed'): RunRecord => ({
    v: RECORD_VERSION,
    runId,
    chatKey,
    chatId,
    profileId: 'writer',
    generationType: 'normal',
    state,
    messageId: null,
    error: null,
    createdAt,
    updatedAt: createdAt,
});

test('the runs of any chat by its id, oldest first, whatever chat is open; imported copies are not its history', async () => {
    const storage = createMemoryRunStorage();
    // Run ids sort the other way round from their creation times: the order must come from createdAt.
    await storage.putRun(record('run-z', 'key-a', 'Seraphina - A', 100));
    await storage.putRun(record('run-a', 'key-a', 'Seraphina - A', 200, 'failed'));
    await storage.putRun(record('run-m', 'key-b', 'Seraphina - B', 150));
    await storage.putRun(record('run-i', IMPORTED_CHAT_KEY, 'Seraphina - A', 300));
    const a = await runsOfChat(storage, 'Seraphina - A');
    assert.deepEqual(a.map((r) => [r.runId, r.state]), [['run-z', 'completed'], ['run-a', 'failed']]);
    assert.deepEqual((await runsOfChat(storage, 'Seraphina - B')).map((r) => r.runId), ['run-m']);
    assert.deepEqual(await runsOfChat(storage, 'No such chat'), []);
});
