import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { sendMessage } from '../harness/browser';
import { call, calls, chatLines, openAgentChat } from '../harness/agent';
import { startTavernSession, type TavernSession } from '../harness/tavern';

let session: TavernSession;
let page: Page;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

/** A fresh chat with Agent Mode on, the panel open, and SillyTavern's "Streaming" switched on. */
beforeEach(async () => {
    page = await openAgentChat(session, { reuse: true });
    await page.evaluate(`(() => {
        const toggle = document.querySelector('#stream_toggle');
        toggle.checked = true;
        toggle.dispatchEvent(new Event('change', { bubbles: true }));
    })()`);
});

const REPLY = 'The glade is quiet tonight; Seraphina listens to the wind in the old oaks.';

test('with streaming on, the timeline shows the answer as it arrives, and the reply commits once the stream ends', async () => {
    session.mock.enqueue(
        // Held after a few text pieces: the test looks at a half-streamed turn, then lets it finish.
        { text: 'Thinking about the glade and the oaks…', toolCalls: [call('workspace_write_file', { path: 'output/main.md', content: REPLY })], streamHoldAfter: 4 },
        calls(call('workspace_commit', {}), call('workspace_finish', {})),
    );
    const before = await chatLines(page);
    const sent = sendMessage(page, 'How is the glade?');
    const partial = page.locator('[data-testid="streaming-text"]');
    await partial.waitFor({ timeout: 120_000 });
    const shown = await partial.innerText();
    const [first] = session.mock.generations();
    assert.equal(first!.body.stream, true, 'the call went out as a stream');
    assert.equal(first!.endedAt, undefined, 'the call has not ended');
    assert.ok(shown.length > 0 && 'Thinking about the glade and the oaks…'.startsWith(shown) && shown.length < 'Thinking about the glade and the oaks…'.length, `partial text: ${shown}`);

    session.mock.releaseStreams();
    await sent;
    const lines = await chatLines(page);
    assert.equal(lines.length, before.length + 2);
    assert.equal(lines.at(-1)!.mes, REPLY, 'the tool ran on the complete arguments; the reply committed');
    assert.equal(await page.locator('[data-testid="streaming-turn"]').count(), 0, 'the transient turn gave way to the journaled one');
    const runId = lines.at(-1)!.runId!;
    const events = await page.evaluate((id) => globalThis.TavernAgent!.events(id), runId);
    const responses = events.filter((e) => e.type === 'model-response');
    assert.equal(responses.length, 2, 'one journal record per model turn, not per piece');
    assert.equal((responses[0]!.payload as { text: string }).text, 'Thinking about the glade and the oaks…');
});

test('Stop mid-stream aborts the call; nothing is committed', async () => {
    session.mock.enqueue({ text: 'Half a thought that never ends', toolCalls: [call('workspace_write_file', { path: 'output/main.md', content: 'Never shown.' })], streamHoldAfter: 3 });
    const before = await chatLines(page);
    await page.fill('#send_textarea', 'Take your time.');
    await page.click('#send_but');
    await page.locator('[data-testid="streaming-text"]').waitFor({ timeout: 120_000 });
    await page.click('#mes_stop');
    await page.waitForFunction(() => document.querySelector('.tavern-agent__run')?.getAttribute('data-run-state') === 'cancelled', undefined, { timeout: 30_000 });
    await page.waitForFunction(() => document.body.dataset.generating === undefined);
    const [streamed] = session.mock.generations();
    await session.mock.waitUntil(() => streamed!.aborted === true, 'the stream in flight to be aborted');
    const after = await chatLines(page);
    assert.equal(after.length, before.length + 1, 'only the user message was added');
    assert.equal(await page.locator('[data-testid="streaming-turn"]').count(), 0);
});
