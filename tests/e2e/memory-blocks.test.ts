// Issue 37 §1 and §4: memory blocks in persist/ (pinned ones open every run of the chat; a write past a pinned
// block's limit is refused) and memory.search over the chat's memory, in real SillyTavern with the mock model.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { sendMessage } from '../harness/browser';
import { call, calls, chatLines, offeredTools, openAgentChat, lastToolResult, replyCalls, waitForAgentIdle } from '../harness/agent';
import { startTavernSession, type TavernSession } from '../harness/tavern';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const block = (front: string, body: string) => `---\n${front}\n---\n${body}`;

/** A run's closing calls: the reply, committed, and the run finished. */
test("a pinned block is in the next run's first model request, and an unpinned one is not", async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    session.mock.enqueue(
        calls(
            call('workspace_write_file', { path: 'persist/threads.md', content: block('title: Open threads\npinned: true', '- The lantern must reach Willowmere by dusk.') }),
            call('workspace_write_file', { path: 'persist/places.md', content: block('title: Places\npinned: false', 'The ruined tower of Kessrin stands north.') }),
            ...replyCalls('I will remember.'),
        ),
    );
    await sendMessage(page, 'Remember the lantern and the tower.');
    await waitForAgentIdle(page);

    session.mock.reset();
    session.mock.enqueue(calls(...replyCalls('Onward, then.')));
    await sendMessage(page, 'What now?');
    await waitForAgentIdle(page);
    const first = session.mock.generations()[0]!;
    const messages = (first.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const system = String(messages[0]!.content);
    assert.equal(messages[0]!.role, 'system');
    assert.match(system, /## Open threads \(persist\/threads\.md\)\n- The lantern must reach Willowmere by dusk\./, 'the pinned block, under its title');
    assert.doesNotMatch(JSON.stringify(messages), /Kessrin/, 'the unpinned block is nowhere in the request');
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Onward, then.');
});

test("writing past a pinned block's limit gets memory.block_too_long, and the file is unchanged", async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    const short = block('title: Open threads\npinned: true\nlimit: 40', '- Find the key.');
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'persist/threads.md', content: short })),
        calls(call('workspace_write_file', { path: 'persist/threads.md', content: block('title: Open threads\npinned: true\nlimit: 40', '- Find the key.\n- Then open the gate beneath the old mill.') })),
        calls(...replyCalls('The key first.')),
    );
    await sendMessage(page, 'Note the key and the gate.');
    await waitForAgentIdle(page);

    const refused = lastToolResult(session.mock.generations()[2]!, 'workspace_write_file');
    assert.match(refused, /^ERROR memory\.block_too_long: "persist\/threads\.md" is a pinned memory block with a limit of 40 characters; this write would make its text 58 characters \(it has 15 now\)\. Nothing was written\./);
    const runId = (await chatLines(page)).at(-1)!.runId;
    assert.ok(runId, 'the reply carries its run id');
    assert.equal(await page.evaluate(([id, path]) => globalThis.TavernAgent!.readFile(id, path), [runId, 'persist/threads.md'] as const), short);
});

test('memory.search finds a scene by a Chinese word', async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'persist/scenes/001.md', content: '# 第一幕\n\n雨夜，我们在古老的灯塔下找到了铜钥匙。' })),
        calls(call('memory_search', { query: '灯塔' })),
        calls(...replyCalls('The lighthouse, then.')),
    );
    await sendMessage(page, '我们在哪里找到钥匙的？');
    await waitForAgentIdle(page);

    assert.ok(offeredTools(session.mock.generations()[0]!).includes('memory_search'), 'the writer is offered memory_search');
    const found = lastToolResult(session.mock.generations()[2]!, 'memory_search');
    assert.match(found, /^1 hit for "灯塔" in 1 memory file \(persist\/\)\./);
    assert.match(found, /persist\/scenes\/001\.md · file · score 1\.00 · ref workspace:persist\/scenes\/001\.md#L3-L3\n.*古老的灯塔下找到了铜钥匙/);
});
