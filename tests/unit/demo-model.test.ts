import { test } from 'node:test';
import assert from 'node:assert/strict';
import { demoResponder } from '../../scripts/demo-model';
import type { RecordedRequest } from '../harness/mock-model';

function request(body: unknown): RecordedRequest {
    return { seq: 1, at: 0, method: 'POST', path: '/v1/chat/completions', headers: {}, body, dialect: 'openai', kind: 'generate' };
}

test('the demo model plays the agent script one step per tool turn, ending in commit and finish', () => {
    const messages: Array<Record<string, unknown>> = [{ role: 'user', content: 'Hi there' }];
    const names: string[] = [];
    for (let i = 0; i < 6; i += 1) {
        const turn = demoResponder(request({ messages, tools: [{}] }))!;
        const toolCalls = turn.toolCalls ?? [];
        assert.equal(toolCalls.length, 1);
        names.push(toolCalls[0]!.name);
        messages.push({ role: 'assistant', content: null, tool_calls: [{}] }, { role: 'tool', content: 'ok' });
    }
    assert.deepEqual(names, [
        'workspace_write_file',
        'workspace_write_file',
        'workspace_read_file',
        'workspace_apply_patch',
        'workspace_commit',
        'workspace_finish',
    ]);
    const draft = demoResponder(request({ messages: [{ role: 'user', content: 'Hi there' }, { role: 'assistant', tool_calls: [{}] }], tools: [{}] }))!;
    assert.match(JSON.stringify(draft.toolCalls![0]!.arguments), /Hi there/);
});

test('without tools the demo model answers as a plain chat model', () => {
    const turn = demoResponder(request({ messages: [{ role: 'user', content: 'Hello' }] }))!;
    assert.match(turn.text!, /You said: "Hello"/);
    assert.equal(turn.toolCalls, undefined);
});

test('a demo turn takes DEMO_DELAY_MS (0.6 s unless set), so the live view and Stop can be tried', async () => {
    const { demoDelayMs, DEFAULT_DEMO_DELAY_MS } = await import('../../scripts/demo-model');
    assert.equal(DEFAULT_DEMO_DELAY_MS, 600);
    assert.equal(demoDelayMs({}), 600);
    assert.equal(demoDelayMs({ DEMO_DELAY_MS: '0' }), 0);
    assert.equal(demoDelayMs({ DEMO_DELAY_MS: '1500' }), 1500);
    assert.equal(demoDelayMs({ DEMO_DELAY_MS: 'soon' }), 600, 'a value that is no number keeps the default');
    const turn = demoResponder(request({ messages: [{ role: 'user', content: 'Hi' }], tools: [{}] }), 600)!;
    assert.equal(turn.delayMs, 600);
    assert.equal(demoResponder(request({ messages: [{ role: 'user', content: 'Hi' }] }), 0)!.delayMs, undefined);
});
