// The page's side of a turn's pipeline (issue 34) on a scripted SillyTavern context: which message a turn
// answers, a director's brief as a one-generation extension prompt, and a keeper's memory, which goes into
// the reply it follows (that swipe) or nowhere.
// Run: node --import tsx --test tests/unit/pipeline-host.test.ts
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { attachKeeperMemory, bindReply } from '../../src/host/chat/keeper-memory';
import { currentTurn, turnReply } from '../../src/host/pipeline/turn';
import { markedMemory, markedMemoryRunId, markedRunId } from '../../src/host/sillytavern/message-marker';
import type { ChatMessage, StContext } from '../../src/host/sillytavern/st-context';
import { injectTurnBrief, removeTurnBrief } from '../../src/host/sillytavern/turn-brief';

type Message = ChatMessage & { swipe_info?: Array<{ extra?: Record<string, unknown> }> };

interface FakeSt {
    chat: Message[];
    prompts: Record<string, { value: string; position: number; depth: number; role: number }>;
    saves: number;
    emit(event: string): void;
    listeners(event: string): number;
    openChat(id: string): void;
}

const user = (mes: string, sent: string): Message => ({ name: 'Bob', mes, is_user: true, is_system: false, send_date: sent });
const reply = (mes: string, sent: string, extra: Record<string, unknown> = {}): Message => ({ name: 'Alice', mes, is_user: false, is_system: false, send_date: sent, extra });

function installFakeSt(): FakeSt {
    const chat: Message[] = [reply('Welcome.', 'd0'), user('Where am I?', 'd1'), reply('In the glade.', 'd2')];
    let chatId = 'chat-a';
    const listeners = new Map<string, Set<(...args: unknown[]) => void>>();
    const fake: FakeSt = {
        chat,
        prompts: {},
        saves: 0,
        emit: (event) => [...(listeners.get(event) ?? [])].forEach((listener) => listener()),
        listeners: (event) => listeners.get(event)?.size ?? 0,
        openChat(id) {
            chatId = id;
        },
    };
    const context = () =>
        ({
            chat,
            getCurrentChatId: () => chatId,
            chatMetadata: { integrity: `integrity-${chatId}` },
            characterId: '0',
            groupId: null,
            name1: 'Bob',
            name2: 'Alice',
            extensionPrompts: fake.prompts,
            setExtensionPrompt(key: string, value: string, position: number, depth: number, _scan: boolean, role: number) {
                fake.prompts[key] = { value, position, depth, role };
            },
            eventTypes: { GENERATION_ENDED: 'generation_ended', GENERATION_STOPPED: 'generation_stopped' },
            eventSource: {
                on(event: string, listener: (...args: unknown[]) => void) {
                    if (!listeners.has(event)) listeners.set(event, new Set());
                    listeners.get(event)!.add(listener);
                },
                removeListener(event: string, listener: (...args: unknown[]) => void) {
                    listeners.get(event)?.delete(listener);
                },
                async emit() {},
            },
            async saveChat() {
                fake.saves += 1;
            },
        }) as unknown as StContext;
    (globalThis as { SillyTavern?: unknown }).SillyTavern = { getContext: context };
    return fake;
}

afterEach(() => {
    removeTurnBrief();
    delete (globalThis as { SillyTavern?: unknown }).SillyTavern;
});

describe('a turn', () => {
    it('answers the last message; a swipe’s, the one before the reply; SillyTavern’s generation after its own tool calls, the user’s before them', () => {
        const st = installFakeSt();
        assert.equal(currentTurn('normal').anchor, st.chat[2]);
        assert.equal(currentTurn('swipe').anchor, st.chat[1]);
        assert.equal(currentTurn('swipe').turnId, 'turn-1-d1');
        st.chat.push(user('Look around.', 'd3'), { ...reply('', 'd4', { tool_invocations: [{ name: 'roll' }] }), is_system: true });
        const goingOn = currentTurn('normal');
        assert.equal(goingOn.anchor, st.chat[3]);
        assert.equal(goingOn.toolCallsGoOn, true);
        assert.equal(goingOn.turnId, 'turn-3-d3', 'the same turn as the generation that called the tools');
    });

    it("names its reply for the timeline: SillyTavern's own, or a run's", () => {
        const st = installFakeSt();
        assert.deepEqual(turnReply('turn-1-d1'), { index: 2, runId: null });
        st.chat[2]!.extra = { tavern_agent: { runId: 'reply-run' } };
        assert.deepEqual(turnReply('turn-1-d1'), { index: 2, runId: 'reply-run' });
        assert.equal(turnReply('turn-2-d2'), null, 'no reply yet');
        assert.equal(turnReply('turn-9-x'), null, 'not in this chat');
    });
});

describe("a director's brief in SillyTavern's generation", () => {
    it('is an in-chat extension prompt at the profile’s depth and role, gone when the generation ends', () => {
        const st = installFakeSt();
        injectTurnBrief('- Keep it short.', { depth: 2, role: 'user' });
        assert.deepEqual(st.prompts.tavern_agent_brief, { value: '- Keep it short.', position: 1, depth: 2, role: 1 });
        st.emit('generation_ended');
        assert.deepEqual(Object.keys(st.prompts), []);
        assert.equal(st.listeners('generation_ended') + st.listeners('generation_stopped'), 0, 'its listeners go with it');
    });

    it('goes on Stop, and before the next generation should neither event come', () => {
        const st = installFakeSt();
        injectTurnBrief('A', { depth: 1, role: 'system' });
        st.emit('generation_stopped');
        assert.deepEqual(Object.keys(st.prompts), []);
        injectTurnBrief('B', { depth: 1, role: 'assistant' });
        assert.equal(st.prompts.tavern_agent_brief?.role, 2);
        removeTurnBrief();
        assert.deepEqual(Object.keys(st.prompts), []);
    });
});

describe("a keeper's memory", () => {
    const memory = { v: 1 as const, files: { 'persist/threads.md': '- The owl is hurt.' } };

    it('goes into the reply it follows, on the swipe it showed, and the chat is saved', async () => {
        const st = installFakeSt();
        const bound = bindReply(2)!;
        st.chat.splice(1, 0, user('An earlier line.', 'd0b')); // positions move; the message is found by identity
        const result = await attachKeeperMemory(bound, 'keeper-1', memory);
        assert.deepEqual(result, { ok: true, value: { stored: true, bytes: result.ok ? result.value.bytes : 0 } });
        assert.deepEqual(markedMemory(st.chat[3]), memory);
        assert.equal(markedMemoryRunId(st.chat[3]), 'keeper-1');
        assert.equal(markedRunId(st.chat[3]), null);
        assert.equal(st.saves, 1);
    });

    it('is dropped, with pipeline.reply_gone and nothing written elsewhere, when the reply was deleted, swiped away, or another chat is open', async () => {
        for (const change of ['deleted', 'swiped', 'other chat'] as const) {
            const st = installFakeSt();
            const bound = bindReply(2)!;
            if (change === 'deleted') st.chat.splice(2, 1, reply('Another reply.', 'd9'));
            if (change === 'swiped') Object.assign(st.chat[2]!, { swipe_id: 1, swipes: ['In the glade.', 'A new swipe.'], mes: 'A new swipe.' });
            if (change === 'other chat') st.openChat('chat-b');
            const result = await attachKeeperMemory(bound, 'keeper-1', memory);
            assert.equal(result.ok ? 'stored' : result.error.code, 'pipeline.reply_gone', change);
            assert.ok(st.chat.every((message) => markedMemory(message) === undefined), `${change}: nothing written`);
            assert.equal(st.saves, 0);
        }
    });

    it('finds its reply again in a chat loaded anew: the same place, sent at the same time', async () => {
        const st = installFakeSt();
        const bound = bindReply(2)!;
        st.chat[2] = { ...st.chat[2]! }; // a reload: new objects, the same content
        assert.ok((await attachKeeperMemory(bound, 'keeper-1', memory)).ok);
        assert.deepEqual(markedMemory(st.chat[2]), memory);
    });
});
