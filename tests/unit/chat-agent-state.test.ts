// Run: node --import tsx --test tests/unit/chat-agent-state.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHAT_METADATA_KEY, DEFAULT_PIPELINE, parseChatAgentState, parsePipeline, readChatAgentState } from '../../src/contract/agent-mode';

test('a chat without our metadata is off, with the default profile', () => {
    assert.deepEqual(readChatAgentState(undefined), { version: 1, enabled: false, profileId: 'writer', pipeline: DEFAULT_PIPELINE });
    assert.deepEqual(readChatAgentState({}), { version: 1, enabled: false, profileId: 'writer', pipeline: DEFAULT_PIPELINE });
});

test('a stored state is read with absent fields defaulted and unknown ones dropped', () => {
    assert.deepEqual(readChatAgentState({ [CHAT_METADATA_KEY]: { enabled: true, extra: 'x' } }), { version: 1, enabled: true, profileId: 'writer', pipeline: DEFAULT_PIPELINE });
    assert.deepEqual(readChatAgentState({ [CHAT_METADATA_KEY]: { version: 1, enabled: true, profileId: 'editor', pipeline: DEFAULT_PIPELINE } }), { version: 1, enabled: true, profileId: 'editor', pipeline: DEFAULT_PIPELINE });
});

test('a broken record never turns Agent Mode on: any wrong field makes the whole state the default', () => {
    for (const broken of [{ enabled: 'yes' }, { enabled: true, version: 2 }, { enabled: true, profileId: '' }, { enabled: true, profileId: 7 }, { enabled: true, pipeline: { reply: 'both' } }, 'on', [true], null]) {
        assert.deepEqual(readChatAgentState({ [CHAT_METADATA_KEY]: broken }), { version: 1, enabled: false, profileId: 'writer', pipeline: DEFAULT_PIPELINE }, JSON.stringify(broken));
    }
    assert.equal(parseChatAgentState({ enabled: 1 }), null);
});

test('a pipeline is read with absent parts defaulted; any wrong part refuses it whole', () => {
    const stored = { enabled: true, pipeline: { before: 'director', reply: 'sillytavern', after: ['lore-keeper', 'memory-keeper'] } };
    assert.deepEqual(readChatAgentState({ [CHAT_METADATA_KEY]: stored }).pipeline, stored.pipeline);
    assert.deepEqual(parsePipeline({ reply: 'sillytavern' }), { before: null, reply: 'sillytavern', after: [] });
    for (const broken of [{ before: '' }, { before: 3 }, { reply: 'both' }, { after: 'memory-keeper' }, { after: [''] }, { after: Array(9).fill('memory-keeper') }, []]) {
        assert.equal(parsePipeline(broken), null, JSON.stringify(broken));
    }
});
