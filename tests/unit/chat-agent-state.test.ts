// Run: node --import tsx --test tests/unit/chat-agent-state.test.ts
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CHAT_METADATA_KEY, parseChatAgentState, readChatAgentState } from '../../src/contract/agent-mode';

test('a chat without our metadata is off, with the default profile', () => {
    assert.deepEqual(readChatAgentState(undefined), { version: 1, enabled: false, profileId: 'writer' });
    assert.deepEqual(readChatAgentState({}), { version: 1, enabled: false, profileId: 'writer' });
});

test('a stored state is read with absent fields defaulted and unknown ones dropped', () => {
    assert.deepEqual(readChatAgentState({ [CHAT_METADATA_KEY]: { enabled: true, extra: 'x' } }), { version: 1, enabled: true, profileId: 'writer' });
    assert.deepEqual(readChatAgentState({ [CHAT_METADATA_KEY]: { version: 1, enabled: true, profileId: 'editor' } }), { version: 1, enabled: true, profileId: 'editor' });
});

test('a broken record never turns Agent Mode on: any wrong field makes the whole state the default', () => {
    for (const broken of [{ enabled: 'yes' }, { enabled: true, version: 2 }, { enabled: true, profileId: '' }, { enabled: true, profileId: 7 }, 'on', [true], null]) {
        assert.deepEqual(readChatAgentState({ [CHAT_METADATA_KEY]: broken }), { version: 1, enabled: false, profileId: 'writer' }, JSON.stringify(broken));
    }
    assert.equal(parseChatAgentState({ enabled: 1 }), null);
});
