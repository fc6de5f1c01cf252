import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { sendMessage } from '../harness/browser';
import { agentOn, call, openAgentChat, calls, chatLines, lastRunState, offeredTools, toolMessages } from '../harness/agent';
import { startTavernSession, type TavernSession } from '../harness/tavern';

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

function lastUserText(index: number): string {
    const messages = (session.mock.generations()[index]!.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    const user = messages.filter((m) => m.role === 'user').at(-1);
    return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}

test('rate limits and server errors are retried, and the run completes', async () => {
    session.mock.enqueue(
        { status: 429, error: 'slow down' },
        { status: 500, error: 'boom' },
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'After the storm.' })),
        calls(call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Are you there?');
    assert.equal(session.mock.generations().length, 4, 'two failed attempts, then two good rounds');
    assert.equal((await chatLines(page)).at(-1)!.mes, 'After the storm.');
    assert.equal(await page.locator('.tavern-agent__event[data-event-type="model-retry"]').count(), 2, 'the panel shows both retries');
});

test('plain text instead of tool calls is saved, reminded twice, then fails with model.tool_call_required', async () => {
    session.mock.enqueue({ text: 'Just text, once.' }, { text: 'Just text, twice.' }, { text: 'Just text, thrice.' });
    const before = (await chatLines(page)).length;
    await sendMessage(page, 'Answer without tools.');
    const requests = session.mock.generations();
    assert.equal(requests.length, 3);
    assert.match(lastUserText(1), /reminder 1\/2/);
    assert.match(lastUserText(2), /reminder 2\/2/);
    assert.equal(await lastRunState(page), 'failed');
    const alert = page.locator('.tavern-agent__run [role="alert"]', { hasText: 'model.tool_call_required' });
    await alert.waitFor();
    // The user is told the ways out, in the panel and in the toast.
    for (const shown of [alert, page.locator('.toast-error', { hasText: 'model.tool_call_required' }).last()]) {
        const text = (await shown.textContent()) ?? '';
        assert.match(text, /model or profile that can call tools/);
        assert.match(text, /\/agent pipeline before=director reply=sillytavern/);
        assert.match(text, /switch Agent Mode off/);
    }
    assert.equal((await chatLines(page)).length, before + 1, 'nothing was committed');
});

test('a spent call budget leaves one wrap-up turn with only commit and finish', async () => {
    // The writer profile allows 80 calls a run: one turn of 80 cheap calls spends them all.
    const many = Array.from({ length: 80 }, () => call('workspace_list_files', {}));
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Written before the budget ran out.' })),
        calls(...many),
        calls(call('workspace_read_file', { path: 'output/main.md' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Use everything.');
    const requests = session.mock.generations();
    assert.equal(requests.length, 3);
    assert.deepEqual(offeredTools(requests[2]!), ['workspace_commit', 'workspace_finish']);
    assert.match(lastUserText(2), /last turn/);
    const shown = toolMessages(session.mock.generations()[2]!);
    assert.equal(shown.length, 81, 'the write and the 80 list calls');
    assert.ok(shown.slice(0, 80).every((m) => !m.content.startsWith('ERROR')), 'the write and the 79 list calls within budget ran');
    assert.match(shown[80]!.content, /^ERROR tool\.budget_exhausted:/, 'the call over the budget did not');
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Written before the budget ran out.');
    assert.equal(await lastRunState(page), 'completed');
});

test('persist/ carries memory to the next run, follows the branch, and a patch needs a read first', async () => {
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'persist/notes.md', content: 'The cat is named Tom.' })),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Noted.' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Remember the cat.');

    session.mock.reset();
    session.mock.enqueue(
        calls(call('workspace_apply_patch', { path: 'persist/notes.md', old_string: 'Tom', new_string: 'Tim' })),
        calls(call('workspace_read_file', { path: 'persist/notes.md' })),
        calls(call('workspace_apply_patch', { path: 'persist/notes.md', old_string: 'Tom', new_string: 'Tim' })),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Renamed.' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Rename the cat.');
    assert.match(toolMessages(session.mock.generations()[1]!)[0]!.content, /^ERROR workspace\.patch_requires_read:/);
    assert.match(toolMessages(session.mock.generations()[2]!).at(-1)!.content, /The cat is named Tom\./);

    // Regenerating the second reply starts again from the memory of the first: the discarded run's rename is gone.
    session.mock.reset();
    session.mock.enqueue(
        calls(call('workspace_read_file', { path: 'persist/notes.md' })),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Again.' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await page.click('#options_button');
    await page.click('#option_regenerate');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Again.', undefined, { timeout: 30_000 });
    assert.match(toolMessages(session.mock.generations()[1]!).at(-1)!.content, /The cat is named Tom\./);
});

test('with Agent Mode on, quiet generations of other features still go to SillyTavern untouched', async () => {
    session.mock.enqueue({ text: 'A quiet answer.' });
    const before = (await chatLines(page)).length;
    const result = await page.evaluate(async () => {
        const out = await SillyTavern!.getContext().executeSlashCommandsWithOptions('/gen Summarize the chat.');
        return String(out?.pipe ?? '');
    });
    assert.equal(result, 'A quiet answer.');
    const requests = session.mock.generations();
    assert.equal(requests.length, 1);
    assert.equal((requests[0]!.body as { tools?: unknown }).tools, undefined, 'no agent tools on a quiet generation');
    assert.equal((await chatLines(page)).length, before, 'a quiet generation adds nothing to the chat');
});

test('Escape stops a run like the Stop button', async () => {
    session.mock.enqueue({ delayMs: 20_000, toolCalls: [call('workspace_finish', {})] });
    await page.fill('#send_textarea', 'Wait for it.');
    await page.click('#send_but');
    await session.mock.waitForGenerations(1, 15_000);
    await page.locator('#send_textarea').focus();
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.querySelector('.tavern-agent__run')?.getAttribute('data-run-state') === 'cancelled', undefined, { timeout: 10_000 });
});

test('a commit never lands in another chat: switching chats mid-run fails the run with host.chat_changed', async () => {
    const chatA = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    await page.evaluate(() => SillyTavern!.getContext().executeSlashCommandsWithOptions('/newchat'));
    await page.waitForFunction((a) => SillyTavern!.getContext().getCurrentChatId() !== a, chatA);
    const chatB = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    await page.evaluate((a) => SillyTavern!.getContext().openCharacterChat(a), chatA);
    await page.waitForFunction((a) => SillyTavern!.getContext().getCurrentChatId() === a, chatA);
    await agentOn(page);
    const lengthB = 1;

    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Meant for chat A.' })),
        { delayMs: 2_500, toolCalls: [call('workspace_commit', {}), call('workspace_finish', {})] },
    );
    await page.fill('#send_textarea', 'A message in chat A.');
    await page.click('#send_but');
    await session.mock.waitForGenerations(2, 15_000);
    // Opening a past chat is not blocked by SillyTavern while it generates.
    await page.evaluate((b) => SillyTavern!.getContext().openCharacterChat(b), chatB);
    await page.waitForFunction((b) => SillyTavern!.getContext().getCurrentChatId() === b, chatB);
    await page.waitForFunction(() => document.querySelector('.tavern-agent__run')?.getAttribute('data-run-state') === 'failed', undefined, { timeout: 15_000 });
    await page.locator('.tavern-agent__run [role="alert"]', { hasText: 'host.chat_changed' }).waitFor();
    const inB = await chatLines(page);
    assert.equal(inB.length, lengthB, 'chat B got nothing');
    await page.evaluate((a) => SillyTavern!.getContext().openCharacterChat(a), chatA);
    await page.waitForFunction((a) => SillyTavern!.getContext().getCurrentChatId() === a, chatA);
    const inA = await chatLines(page);
    assert.ok(inA.every((m) => !m.mes.includes('Meant for chat A.')), 'nothing was committed after the switch');
});

test("a second commit whose MESSAGE_EDITED listener opens another chat draws and saves nothing there: the run fails with host.chat_changed", async (t) => {
    const chatA = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    // Chat B is longer than A will be, so A's reply index (2) is one of B's messages.
    await page.evaluate(() => SillyTavern!.getContext().executeSlashCommandsWithOptions('/newchat'));
    await page.waitForFunction((a) => SillyTavern!.getContext().getCurrentChatId() !== a && SillyTavern!.getContext().chat.length === 1, chatA);
    for (const text of ['B one.', 'B two.', 'B three.']) await page.evaluate((line) => SillyTavern!.getContext().executeSlashCommandsWithOptions(`/sendas name=Seraphina ${line}`), text);
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 4);
    const chatB = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    const shownInB = () => page.evaluate(() => [...document.querySelectorAll('#chat .mes .mes_text')].map((element) => (element as HTMLElement).innerText.trim()));
    const before = await shownInB();
    await page.evaluate((a) => SillyTavern!.getContext().openCharacterChat(a), chatA);
    await page.waitForFunction((a) => SillyTavern!.getContext().getCurrentChatId() === a, chatA);
    await agentOn(page);

    // Armed by the first commit's text: the second commit's MESSAGE_EDITED opens chat B before it returns, as an
    // extension's slow listener would let the user do.
    await page.evaluate((b) => {
        const context = SillyTavern!.getContext();
        // A property, not a named const: tsx would wrap a named function in a helper the page does not have.
        const holder = globalThis as { __switchOnEdit?: (index: unknown) => Promise<void> };
        holder.__switchOnEdit = async (index: unknown) => {
            const message = SillyTavern!.getContext().chat[Number(index)];
            if (message?.mes !== 'Second draft for A.') return;
            await SillyTavern!.getContext().openCharacterChat(b);
        };
        context.eventSource.on(context.eventTypes.MESSAGE_EDITED!, holder.__switchOnEdit);
    }, chatB);
    // The next test takes this page: the listener goes with this test.
    t.after(() =>
        page.evaluate(() => {
            const context = SillyTavern!.getContext();
            const holder = globalThis as { __switchOnEdit?: (index: unknown) => Promise<void> };
            if (holder.__switchOnEdit) context.eventSource.removeListener(context.eventTypes.MESSAGE_EDITED!, holder.__switchOnEdit);
        }),
    );
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'First draft for A.' }), call('workspace_commit', {})),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Second draft for A.' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await page.fill('#send_textarea', 'A message in chat A.');
    await page.click('#send_but');
    await page.waitForFunction((b) => SillyTavern!.getContext().getCurrentChatId() === b, chatB, { timeout: 30_000 });
    await page.waitForFunction(() => !globalThis.TavernAgent!.status().run, undefined, { timeout: 30_000 });
    const runs = await page.evaluate((a) => globalThis.TavernAgent!.runs({ chatId: a }), chatA);
    assert.equal(runs.length, 1);
    assert.equal(runs[0]!.state, 'failed', 'the run failed');
    assert.deepEqual(await shownInB(), before, "chat B's messages are drawn as they were");
    assert.deepEqual((await chatLines(page)).map((line) => line.mes).slice(1), ['B one.', 'B two.', 'B three.']);
    await page.evaluate((a) => SillyTavern!.getContext().openCharacterChat(a), chatA);
    await page.waitForFunction((a) => SillyTavern!.getContext().getCurrentChatId() === a, chatA);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'First draft for A.', 'chat A keeps the last commit that was written whole');
});
