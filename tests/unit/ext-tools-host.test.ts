// Run: node --import tsx --test tests/unit/ext-tools-host.test.ts
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import type { ExtToolApproval } from '../../src/contract/ext-tools';
import { approvalArgsText, callExtTool, decideExtToolCall, dropExtToolApprovals, onExtToolApprovals, registeredExtTools } from '../../src/host/ext-tools/ext-tools';

interface FakeTool {
    name: string;
    action(args: unknown): Promise<unknown>;
    shouldRegister?(): Promise<boolean>;
}

let tools: FakeTool[] = [];
/** The run's chat is the open one. */
const inChat = () => true;
const invoked: Array<{ name: string; args: unknown }> = [];

/** SillyTavern's ToolManager as tool-calling.js shapes it: invokeFunctionTool returns an Error instead of throwing. */
beforeEach(() => {
    tools = [];
    invoked.length = 0;
    const manager = {
        get tools() {
            return tools.map((tool) => ({
                displayName: tool.name,
                toFunctionOpenAI: () => ({ function: { name: tool.name, description: `${tool.name} tool`, parameters: { type: 'object', properties: {} } } }),
                shouldRegister: tool.shouldRegister ?? (async () => true),
            }));
        },
        async invokeFunctionTool(name: string, args: unknown) {
            invoked.push({ name, args });
            try {
                const result = await tools.find((tool) => tool.name === name)!.action(args);
                return typeof result === 'string' ? result : JSON.stringify(result);
            } catch (error) {
                return error as Error;
            }
        },
    };
    (globalThis as Record<string, unknown>).SillyTavern = { getContext: () => ({ ToolManager: manager }) };
});

test('registered tools are listed when their shouldRegister says yes', async () => {
    tools = [
        { name: 'Shown', action: async () => 'x' },
        { name: 'Hidden', action: async () => 'x', shouldRegister: async () => false },
        { name: 'Broken', action: async () => 'x', shouldRegister: async () => Promise.reject(new Error('boom')) },
    ];
    assert.deepEqual((await registeredExtTools()).map((tool) => tool.name), ['Shown']);
});

test('a result comes back as text; an error and a time-out as their codes', async () => {
    tools = [
        { name: 'Echo', action: async (args) => ({ got: args }) },
        { name: 'Fails', action: async () => Promise.reject(new Error('no network')) },
        { name: 'Slow', action: () => new Promise(() => undefined) },
    ];
    assert.deepEqual(await callExtTool({ runId: 'r', name: 'Echo', args: { a: 1 }, ask: false }, inChat), { ok: true, text: '{"got":{"a":1}}' });
    const failed = await callExtTool({ runId: 'r', name: 'Fails', args: {}, ask: false }, inChat);
    assert.equal(!failed.ok && failed.code, 'tool.execution_failed');
    assert.match(!failed.ok ? failed.message : '', /no network/);
    const slow = await callExtTool({ runId: 'r', name: 'Slow', args: {}, ask: false }, inChat, 20);
    assert.equal(!slow.ok && slow.code, 'tool.timeout');
    const gone = await callExtTool({ runId: 'r', name: 'Unregistered', args: {}, ask: false }, inChat);
    assert.equal(!gone.ok && gone.code, 'tool.not_allowed');
});

test('asking first: Approve runs the tool, Deny answers tool.denied_by_user, a run that ends drops its questions', async () => {
    tools = [{ name: 'Echo', action: async () => 'ran' }];
    let pending: ExtToolApproval[] = [];
    const off = onExtToolApprovals((list) => (pending = list));
    const approved = callExtTool({ runId: 'r1', name: 'Echo', args: { city: 'Oslo' }, ask: true }, inChat);
    assert.equal(pending.length, 1);
    assert.equal(pending[0]!.name, 'ext.Echo');
    assert.match(pending[0]!.argsText, /Oslo/);
    assert.equal(invoked.length, 0, 'nothing runs before the answer');
    decideExtToolCall(pending[0]!.id, true);
    assert.deepEqual(await approved, { ok: true, text: 'ran' });

    const denied = callExtTool({ runId: 'r1', name: 'Echo', args: {}, ask: true }, inChat);
    decideExtToolCall(pending[0]!.id, false);
    const reply = await denied;
    assert.equal(!reply.ok && reply.code, 'tool.denied_by_user');
    assert.equal(invoked.length, 1);

    const dropped = callExtTool({ runId: 'r2', name: 'Echo', args: {}, ask: true }, inChat);
    dropExtToolApprovals('r2');
    const droppedReply = await dropped;
    assert.equal(!droppedReply.ok && droppedReply.code, 'tool.denied_by_user');
    assert.deepEqual(pending, []);
    off();
});

test("with another chat open (before the call, or while its approval waited) the tool is not called: it would act on that chat", async () => {
    tools = [{ name: 'Echo', action: async () => 'ran' }];
    const notCalled = await callExtTool({ runId: 'r', name: 'Echo', args: {}, ask: false }, () => false);
    assert.equal(!notCalled.ok && notCalled.code, 'tool.execution_failed');
    assert.match(!notCalled.ok ? notCalled.message : '', /Another chat is open/);

    let open = true;
    let pending: ExtToolApproval[] = [];
    const off = onExtToolApprovals((list) => (pending = list));
    const asked = callExtTool({ runId: 'r3', name: 'Echo', args: {}, ask: true }, () => open);
    open = false; // the user opened another chat while the question waited
    decideExtToolCall(pending[0]!.id, true);
    const reply = await asked;
    assert.equal(!reply.ok && reply.code, 'tool.execution_failed');
    assert.equal(invoked.length, 0, 'never invoked');
    off();
});

test('the approval box shows every key: a long value is cut with its length, the keys after it stay in view', () => {
    const text = approvalArgsText({ story: 'x'.repeat(5000), target: 'the mayor', amount: 3 });
    const lines = text.split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^story: "x{399}… \(5,002 chars\)$/);
    assert.deepEqual(lines.slice(1), ['target: "the mayor"', 'amount: 3']);
    assert.equal(approvalArgsText({}), '{}');
});
