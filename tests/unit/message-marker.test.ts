// The marker a message carries (host/sillytavern/message-marker.ts): a run's reply, the memory that travels
// with the chat, and (issue 34) a director's brief on a turn's message and a keeper's memory in a reply no
// run wrote. Each part is written without losing the others.
// Run: node --import tsx --test tests/unit/message-marker.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clearReplyMarker, editedSinceCommit, markCommittedText, markedBrief, markedMemory, markedMemoryRunId, markedRunId, writeBrief, writeKeeperMemory, writeMarker } from '../../src/host/sillytavern/message-marker';
import type { ChatMessage } from '../../src/host/sillytavern/st-context';

const message = (extra?: Record<string, unknown>): ChatMessage & { swipe_info?: Array<{ extra?: Record<string, unknown> }> } => ({ name: 'S', mes: 'Hi', is_user: false, is_system: false, ...(extra ? { extra } : {}) });
const memory = { v: 1 as const, files: { 'persist/threads.md': '- The owl is hurt.' } };
const brief = { text: '- Keep it short.', profileId: 'director', runId: 'director-run' };

test('a brief stored on a message is read back, and a reply marker written over it keeps it', () => {
    const user = message();
    writeBrief(user, brief);
    assert.deepEqual(markedBrief(user), brief);
    assert.equal(markedRunId(user), null, 'a brief does not make the message a run’s reply');
    writeMarker(user, { runId: 'r1' });
    assert.deepEqual(markedBrief(user), brief);
    assert.equal(markedRunId(user), 'r1');
    for (const broken of [{ text: 3, profileId: 'd', runId: 'r' }, { text: 'x', profileId: '', runId: 'r' }, { text: 'x'.repeat(9000), profileId: 'd', runId: 'r' }, 'brief']) {
        assert.equal(markedBrief(message({ tavern_agent: { brief: broken } })), null, JSON.stringify(broken).slice(0, 40));
    }
});

test("a keeper's memory goes into the reply under the reply's run id, or its own when no run wrote it, on the current swipe", () => {
    const agentReply = message({ tavern_agent: { runId: 'reply-run', memory: { v: 1, files: {} } } });
    writeKeeperMemory(agentReply, 'keeper-1', memory);
    assert.equal(markedRunId(agentReply), 'reply-run');
    assert.deepEqual(markedMemory(agentReply), memory);

    const stReply = Object.assign(message(), { swipe_id: 1, swipes: ['a', 'b'], swipe_info: [{ extra: {} }, { extra: {} }] });
    writeKeeperMemory(stReply, 'keeper-1', memory);
    assert.equal(markedRunId(stReply), null, "SillyTavern's reply stays nobody's run");
    assert.equal(markedMemoryRunId(stReply), 'keeper-1', 'its memory is named by the keeper');
    assert.deepEqual(markedMemory(stReply.swipe_info![1]), memory, 'the current swipe carries it');
    assert.equal(markedMemory(stReply.swipe_info![0]), undefined, 'the other swipe does not');
    writeKeeperMemory(stReply, 'keeper-2', { v: 1, files: {} });
    assert.equal(markedMemoryRunId(stReply), 'keeper-1', 'a later keeper keeps the name deltas already use');
});

test("a reply marker carried over from another swipe is dropped; the message's brief stays", () => {
    const swiped = message({ tavern_agent: { runId: 'old-run', memory, brief } });
    clearReplyMarker(swiped);
    assert.equal(markedRunId(swiped), null);
    assert.equal(markedMemory(swiped), undefined);
    assert.deepEqual(markedBrief(swiped), brief);
    const bare = message({ tavern_agent: { runId: 'old-run' }, api: 'custom' });
    clearReplyMarker(bare);
    assert.deepEqual(bare.extra, { api: 'custom' });
});

test('the marker keeps the hash of the text its run committed: an edit since shows, the same run keeps it, another run drops it', () => {
    const reply: ChatMessage = { name: 'Alice', mes: 'The kettle sings.', is_user: false, is_system: false, extra: {} };
    const message = reply;
    writeMarker(message, { runId: 'run-a' });
    assert.equal(editedSinceCommit(message), false, 'no hash yet: nothing to compare');
    markCommittedText(message);
    assert.equal(editedSinceCommit(message), false);
    writeMarker(message, { runId: 'run-a', memory }); // its memory: the same run marks its reply again
    message.mes = 'I made the tea myself.';
    assert.equal(editedSinceCommit(message), true);
    writeMarker(message, { runId: 'run-b' });
    assert.equal(editedSinceCommit(message), false, "another run's marker carries no hash of this one's text");
});
