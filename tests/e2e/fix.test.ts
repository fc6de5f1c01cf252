// `/agent fix` and the wand button on an agent reply (issue 13 §1): a new run revises the reply in place,
// starting from its current text (the user's edit included), and its commit replaces that same message.
// Run: npm test -- tests/e2e/fix.test.ts
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sendMessage } from '../harness/browser';
import { call, calls, chatLines, openAgentChat } from '../harness/agent';
import type { RecordedRequest } from '../harness/mock-model';
import { slash, startTavernSession, type TavernSession } from '../harness/tavern';

let session: TavernSession;
let page: Page;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

beforeEach(async () => {
    page = await openAgentChat(session, { reuse: true });
});

/** The chat as SillyTavern saved it on the server (the header line dropped). */
function savedChat(chatId: string): Array<{ mes?: string; is_user?: boolean; extra?: Record<string, unknown> }> {
    const chats = path.join(session.st.userDir, 'chats');
    const file = readdirSync(chats, { recursive: true, encoding: 'utf8' }).find((name) => path.basename(name) === `${chatId}.jsonl`);
    assert.ok(file, `SillyTavern saved ${chatId}.jsonl`);
    return readFileSync(path.join(chats, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .slice(1)
        .map((line) => JSON.parse(line));
}

async function waitForIdle(target: Page): Promise<void> {
    await target.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 60_000 });
}

/** The text of the last message a model request carried. */
function lastMessageText(request: RecordedRequest): string {
    const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const content = messages.at(-1)!.content;
    return typeof content === 'string' ? content : JSON.stringify(content);
}

/** An agent reply to a user message, then the user's own edit of it in SillyTavern's editor. */
async function agentReplyEditedByUser(): Promise<void> {
    session.mock.enqueue(
        calls(
            call('workspace_write_file', { path: 'output/main.md', content: 'The glade is quiet. Birds sing in the old oaks, and the stream runs clear.' }),
            call('workspace_commit', {}),
            call('workspace_finish', {}),
        ),
    );
    await sendMessage(page, 'Describe the glade.');
    await waitForIdle(page);
    await page.evaluate(() => {
        const $ = (globalThis as unknown as { jQuery: (s: string) => { last(): { find(s: string): { trigger(e: string): void } } } }).jQuery;
        $('#chat .mes').last().find('.mes_edit').trigger('click');
    });
    await page.locator('#curEditTextarea').fill('The glade is quiet. Birds sing in the old oaks, and the stream runs clear. A fox watches you.');
    await page.evaluate(() => {
        const $ = (globalThis as unknown as { jQuery: (s: string) => { last(): { find(s: string): { trigger(e: string): void } } } }).jQuery;
        $('#chat .mes').last().find('.mes_edit_done').trigger('click');
    });
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes.endsWith('A fox watches you.'));
    session.mock.reset();
}

test('/agent fix make it shorter: the model is shown the edited reply, and its commit replaces that message in place', async () => {
    await agentReplyEditedByUser();
    const before = await chatLines(page);
    const oldRunId = before.at(-1)!.runId;
    assert.ok(oldRunId);
    session.mock.enqueue(
        // No read first: the reply is already in output/main.md and counts as read.
        calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: ' Birds sing in the old oaks, and the stream runs clear.', new_string: '' })),
        calls(call('workspace_commit', {}), call('workspace_finish', {})),
    );
    const runId = await slash(page, '/agent fix make it shorter');
    assert.ok(runId && runId !== oldRunId, 'the fix is a new run');
    await waitForIdle(page);

    const [first, second] = session.mock.generations();
    const shown = lastMessageText(first!);
    assert.match(shown, /make it shorter/);
    assert.match(shown, /A fox watches you\./, "the model is shown the user's edit");
    assert.doesNotMatch(JSON.stringify(second!.body), /ERROR/, 'the patch applied without a read');

    const after = await chatLines(page);
    assert.equal(after.length, before.length, 'no message was added');
    const reply = after.at(-1)!;
    assert.equal(reply.mes, 'The glade is quiet. A fox watches you.');
    assert.equal(reply.runId, runId, 'the message now carries the fix run');
    assert.equal(reply.swipes?.length, before.at(-1)!.swipes?.length, 'no swipe was added');
    assert.equal((await page.locator('#chat .mes').last().locator('.mes_text').innerText()).trim(), 'The glade is quiet. A fox watches you.');
    const chatId = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    const saved = savedChat(chatId);
    assert.equal(saved.length, before.length);
    assert.equal(saved.at(-1)!.mes, 'The glade is quiet. A fox watches you.');
    assert.equal((saved.at(-1)!.extra?.tavern_agent as { runId?: string }).runId, runId);
});

test("the wand button on an agent reply asks for the request in SillyTavern's popup and fixes that reply; a user message has no button and /agent fix refuses it", async () => {
    await agentReplyEditedByUser();
    const before = await chatLines(page);
    const userIndex = before.length - 2;
    assert.equal(await slash(page, `/agent fix id=${userIndex} shorter`), '', 'a user message is refused');
    assert.equal(await page.locator(`#chat .mes[mesid="${userIndex}"] .tavern-agent-fix-button`).count(), 0);

    session.mock.enqueue(calls(call('workspace_write_file', { path: 'output/main.md', content: 'A fox watches you from the quiet glade.' }), call('workspace_commit', {}), call('workspace_finish', {})));
    const last = page.locator('#chat .mes').last();
    await last.locator('.extraMesButtonsHint').click();
    const button = last.locator('.tavern-agent-fix-button');
    assert.equal(await button.getAttribute('title'), 'Fix this reply with the agent');
    await button.click();
    await page.locator('.popup .popup-input').fill('one sentence, about the fox');
    await page.locator('.popup .popup-button-ok').click();
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'A fox watches you from the quiet glade.', undefined, { timeout: 60_000 });
    await waitForIdle(page);

    assert.match(lastMessageText(session.mock.generations()[0]!), /one sentence, about the fox[\s\S]*A fox watches you\./);
    const after = await chatLines(page);
    assert.equal(after.length, before.length);
    assert.notEqual(after.at(-1)!.runId, before.at(-1)!.runId);
});

test("a fix run puts SillyTavern in its generating state: its Stop button stops the run, and the reply stays as it was", async () => {
    await agentReplyEditedByUser();
    const before = await chatLines(page);
    session.mock.enqueue({ ...calls(call('workspace_finish', {})), delayMs: 60_000 });
    const runId = await slash(page, '/agent fix make it darker');
    assert.ok(runId);
    await session.mock.waitForGenerations(1, 30_000);
    await page.locator('#mes_stop').waitFor({ state: 'visible' });
    assert.equal(await page.evaluate(() => document.body.dataset.generating), 'true', 'SillyTavern is generating while the fix runs');

    await page.locator('#mes_stop').click();
    await waitForIdle(page);
    const state = await page.evaluate((id) => globalThis.TavernAgent!.runs().then((runs) => runs.find((run) => run.runId === id)?.state), runId);
    assert.equal(state, 'cancelled');
    assert.ok(await page.locator('#mes_stop').isHidden(), 'the Stop button is gone once the run ended');
    assert.deepEqual(await chatLines(page), before, 'the stopped fix changed nothing');
});
