import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openCharacter, sendMessage } from '../harness/browser';
import { REPO_ROOT, slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

interface Status {
    enabled: boolean;
    chatId: string | null;
    profileId: string;
    run: unknown;
}

async function status(page: Page): Promise<Status> {
    return JSON.parse(await slash(page, '/agent status')) as Status;
}

async function reload(page: Page): Promise<void> {
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => SillyTavern?.getContext().onlineStatus !== 'no_connection');
    await waitForExtension(page);
}

test('with Agent Mode off, SillyTavern generates exactly as usual: no tools sent, the reply appears', async () => {
    const { page } = await session.open();
    await waitForExtension(page);
    await openCharacter(page);
    assert.equal((await status(page)).enabled, false, 'Agent Mode starts off');
    session.mock.reset();
    session.mock.enqueue({ text: 'An ordinary reply from the model.' });
    await sendMessage(page, 'Hello there, Seraphina.');
    const generations = session.mock.generations();
    assert.equal(generations.length, 1);
    const body = generations[0]!.body;
    assert.equal(body.tools, undefined, 'no tools are offered');
    assert.equal(body.tool_choice, undefined);
    const lastUser = body.messages.filter((m: { role: string }) => m.role === 'user').at(-1);
    assert.match(JSON.stringify(lastUser.content), /Hello there, Seraphina\./);
    const lastReply = page.locator('#chat .mes[is_user="false"]').last().locator('.mes_text');
    assert.equal((await lastReply.innerText()).trim(), 'An ordinary reply from the model.');
    await closePage(page);
});

test('/agent on|off|status switch each chat on its own, and the switch survives a reload', async () => {
    const { page, consoleErrors, pageErrors } = await session.open();
    await waitForExtension(page);
    await openCharacter(page);

    const first = await status(page);
    assert.equal(first.enabled, false);
    assert.equal(first.run, null);
    assert.equal(first.profileId, 'writer');
    assert.ok(first.chatId, 'status names the open chat');

    const turnedOn = JSON.parse(await slash(page, '/agent on')) as Status;
    assert.equal(turnedOn.enabled, true);
    assert.equal(turnedOn.chatId, first.chatId);

    // A new chat with the same character keeps its own (default) state.
    await slash(page, '/newchat');
    await page.waitForFunction((previous) => SillyTavern!.getContext().getCurrentChatId() !== previous, first.chatId);
    const second = await status(page);
    assert.notEqual(second.chatId, first.chatId);
    assert.equal(second.enabled, false, 'the new chat is not affected');

    // After a reload SillyTavern reopens the newest chat; the first one still has Agent Mode on.
    await reload(page);
    await openCharacter(page);
    await page.evaluate(async (chatId) => {
        await SillyTavern!.getContext().openCharacterChat(chatId!);
    }, first.chatId);
    await page.waitForFunction((chatId) => SillyTavern!.getContext().getCurrentChatId() === chatId, first.chatId);
    assert.deepEqual(await status(page), { ...first, enabled: true });

    // The panel's switch mirrors the chat and changes it too.
    await page.click('#tavern_agent_button .drawer-icon');
    const toggle = page.locator('#tavern_agent_mode_switch');
    assert.equal(await toggle.isChecked(), true);
    await page.locator('.tavern-agent__switch').click();
    await page.waitForFunction(() => !SillyTavern!.getContext().chatMetadata.tavern_agent || (SillyTavern!.getContext().chatMetadata.tavern_agent as { enabled: boolean }).enabled === false);
    assert.equal((await status(page)).enabled, false);
    await page.waitForFunction(() => !(document.getElementById('tavern_agent_mode_switch') as HTMLInputElement).checked);
    await page.waitForFunction(() => !(document.getElementById('tavern_agent_mode_switch') as HTMLInputElement).disabled);

    const turnedOff = JSON.parse(await slash(page, '/agent on')) as Status;
    assert.equal(turnedOff.enabled, true);
    await page.waitForFunction(() => (document.getElementById('tavern_agent_mode_switch') as HTMLInputElement).checked);
    assert.equal(await toggle.isChecked(), true, 'a slash command updates the open panel');
    await slash(page, '/agent off');
    await reload(page);
    await openCharacter(page);
    await page.evaluate(async (chatId) => SillyTavern!.getContext().openCharacterChat(chatId!), first.chatId);
    await page.waitForFunction((chatId) => SillyTavern!.getContext().getCurrentChatId() === chatId, first.chatId);
    assert.equal((await status(page)).enabled, false, '/agent off is saved too');

    assert.deepEqual(pageErrors, []);
    assert.deepEqual(consoleErrors.filter((line) => /tavern|agent/i.test(line)), []);
    await closePage(page);
});

test('/agent on without an open chat explains itself and changes nothing', async () => {
    const { page } = await session.open();
    await waitForExtension(page);
    const result = await slash(page, '/agent on');
    assert.equal(result, '');
    const current = await status(page);
    assert.equal(current.chatId, null);
    assert.equal(current.enabled, false);
    await page.locator('#toast-container .toast-warning').waitFor();
    await closePage(page);
});

test('a panel whose code cannot load says so where it would be, and loads when opened again', async () => {
    const { page, pageErrors } = await session.open();
    await waitForExtension(page);
    await openCharacter(page);
    mkdirSync(path.join(REPO_ROOT, 'test-results'), { recursive: true });
    // The panel's chunk gone, as after the extension was updated under an open page (its file names change).
    const chunk = /\/dist\/chunks\/panel-[^/]+\.js$/;
    await page.route(chunk, (route) => route.fulfill({ status: 404, body: 'gone' }));
    const icon = page.locator('#tavern_agent_button .drawer-icon');
    await icon.click();
    const failed = page.locator('[data-testid="panel-load-failed"] [role="alert"]');
    await failed.waitFor();
    assert.match(await failed.innerText(), /The panel could not load\. Open it again, or reload the page/);
    await page.screenshot({ path: path.join(REPO_ROOT, 'test-results', 'panel-load-failed.png') });

    await page.unroute(chunk);
    await icon.click();
    await page.locator('[data-testid="panel-load-failed"]').waitFor({ state: 'detached' });
    await icon.click();
    await page.locator('aside.tavern-agent .tavern-agent__title').waitFor();
    assert.equal(await page.locator('[data-testid="panel-load-failed"]').count(), 0);
    assert.deepEqual(pageErrors, [], 'the failed load is handled, not thrown at the page');
    await icon.click();
    await closePage(page);
});
