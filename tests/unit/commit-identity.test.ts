// Unit tests of the host's commit path (issue 13.3) on a scripted SillyTavern context: the run's message
// is found by identity, never by position after an await; memory goes only into the run's own chat; a
// replace over the user's edit is refused once with their text.
// Run: node --import tsx --test tests/unit/commit-identity.test.ts
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { attachMemoryToChat, commitToChat, type CommitTarget } from '../../src/host/chat/commit';
import type { ChatMessage, StContext } from '../../src/host/sillytavern/st-context';

interface FakeSt {
    chat: ChatMessage[];
    events: string[];
    saves: number;
    /** Runs inside saveReply, after the message is pushed and before saveReply returns (ST awaits there). */
    duringSave: (() => void) | null;
    switchTo(chatId: string, messages: ChatMessage[]): void;
}

function installFakeSt(): FakeSt {
    const chat: ChatMessage[] = [
        { name: 'Bob', mes: 'Hello.', is_user: true, is_system: false },
    ];
    let chatId = 'chat-a';
    let metadata: Record<string, unknown> = { integrity: 'integrity-a' };
    const fake: FakeSt = {
        chat,
        events: [],
        saves: 0,
        duringSave: null,
        switchTo(id, messages) {
            chatId = id;
            metadata = { integrity: `integrity-${id}` };
            chat.splice(0, chat.length, ...messages); // ST empties and refills the same array
        },
    };
    const context = () =>
        ({
            chat,
            getCurrentChatId: () => chatId,
            chatMetadata: metadata,
            characterId: '0',
            groupId: null,
            name1: 'Bob',
            name2: 'Alice',
            powerUserSettings: { trim_spaces: true },
            eventTypes: { MESSAGE_EDITED: 'message_edited', MESSAGE_UPDATED: 'message_updated' },
            eventSource: {
                on() {},
                removeListener() {},
                async emit(event: string, id: unknown) {
                    fake.events.push(`${event}#${String(id)}`);
                },
            },
            async saveReply({ getMessage }: { getMessage: string }) {
                // As SillyTavern: the message is pushed before the first await.
                chat.push({ name: 'Alice', mes: getMessage, is_user: false, is_system: false, extra: {}, swipe_id: 0, swipes: [getMessage] });
                await Promise.resolve();
                fake.duringSave?.();
                fake.events.push(`message_received#${chat.length - 1}`);
            },
            async saveChat() {
                fake.saves += 1;
            },
            updateMessageBlock() {},
            t: (strings: TemplateStringsArray, ...values: unknown[]) => strings.reduce((text, part, i) => text + part + (i < values.length ? String(values[i]) : ''), ''),
        }) as unknown as StContext;
    globalThis.SillyTavern = { getContext: context };
    return fake;
}

afterEach(() => {
    globalThis.SillyTavern = undefined;
});

const IDENTITY = { chatId: 'chat-a', integrity: 'integrity-a', characterId: '0', groupId: null, characterName: 'Alice', userName: 'Bob' };
const newTarget = (): CommitTarget => ({ runId: 'run-1', identity: IDENTITY, generationType: 'normal', messageId: null, closed: false });
const request = (text: string, mode: 'replace' | 'append' = 'replace') => ({ runId: 'run-1', path: 'output/main.md', text, mode, reason: null });
const markerOf = (message: ChatMessage | undefined) => (message?.extra?.tavern_agent as { runId?: string; memory?: unknown } | undefined) ?? null;

describe('the first commit finds its message by identity', () => {
    it('a chat switch while SillyTavern saves the reply: chat_changed, no marker and no memory on the other chat', async () => {
        const st = installFakeSt();
        const other: ChatMessage[] = [
            { name: 'Carol', mes: 'Another chat.', is_user: true, is_system: false },
            { name: 'Alice', mes: 'Its reply.', is_user: false, is_system: false, extra: {} },
        ];
        st.duringSave = () => st.switchTo('chat-b', other);
        const target = newTarget();
        const result = await commitToChat(target, request('The reply.'));
        assert.equal(result.ok ? null : result.error.code, 'host.chat_changed');
        assert.equal(target.messageId, null);
        assert.deepEqual(st.chat.map(markerOf), [null, null], "no message of the other chat carries the run's marker");
        const memory = await attachMemoryToChat(target, 'run-1', { v: 1, files: { 'persist/a.md': 'x' } } as never);
        assert.equal(memory.ok, false, 'and the memory is not handed to the other chat');
        assert.deepEqual(st.chat.map(markerOf), [null, null]);
    });

    it('a message deleted above during the save: the id reported is where the run message is now', async () => {
        const st = installFakeSt();
        st.duringSave = () => st.chat.splice(0, 1);
        const target = newTarget();
        const result = await commitToChat(target, request('The reply.'));
        assert.deepEqual(result, { ok: true, value: { messageId: 0 } });
        assert.equal(st.chat[0]!.mes, 'The reply.');
        assert.equal(markerOf(st.chat[0])?.runId, 'run-1');
        st.duringSave = null;
        st.chat.unshift({ name: 'Bob', mes: 'Inserted later.', is_user: true, is_system: false });
        const again = await commitToChat(target, request('Revised.'));
        assert.deepEqual(again, { ok: true, value: { messageId: 1 } }, 'a later commit follows the message, not the old position');
        assert.equal(st.chat[1]!.mes, 'Revised.');
        assert.equal(st.chat[0]!.mes, 'Inserted later.');
        const memory = await attachMemoryToChat(target, 'run-1', { v: 1, files: {} } as never);
        assert.equal(memory.ok, true);
        assert.ok(markerOf(st.chat[1])?.memory, 'memory goes into the run message');
    });
});

describe('later commits', () => {
    it("a replace over the user's edit is refused once with their text; the next one replaces; edit events fire as for ST's own edit", async () => {
        const st = installFakeSt();
        const target = newTarget();
        assert.equal((await commitToChat(target, request('Agent text.'))).ok, true);
        st.chat[1]!.mes = 'User text.';
        const conflict = await commitToChat(target, request('Agent rewrite.'));
        assert.equal(conflict.ok ? null : conflict.error.code, 'workspace.commit_conflict');
        assert.equal(conflict.ok ? null : conflict.error.detail, 'User text.');
        assert.equal(st.chat[1]!.mes, 'User text.', 'the edit stays');
        st.events.length = 0;
        const merged = await commitToChat(target, request('User text, merged.', 'append'));
        assert.equal(merged.ok, true);
        assert.equal(st.chat[1]!.mes, 'User text.\n\nUser text, merged.');
        assert.deepEqual(st.chat[1]!.swipes, ['User text.\n\nUser text, merged.']);
        assert.deepEqual(st.events, ['message_edited#1', 'message_updated#1']);
    });

    it('a message the user deleted is not written again', async () => {
        const st = installFakeSt();
        const target = newTarget();
        await commitToChat(target, request('Agent text.'));
        st.chat.pop();
        st.chat.push({ name: 'Alice', mes: 'Someone else.', is_user: false, is_system: false, extra: {} });
        const result = await commitToChat(target, request('Again.'));
        assert.equal(result.ok ? null : result.error.code, 'host.commit_failed');
        assert.equal(st.chat[1]!.mes, 'Someone else.');
    });
});
