// Issue 37 §1 and §2 in real SillyTavern with the mock model: memory carried into a new chat of the same
// character (`/agent memory from`, TavernAgent.memory.seedFrom), seen from a second browser, and the panel's
// Memory view (pin, unpin, edit within a block's limit, delete), whose changes reach the next run and the chat.
import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openCharacter, sendMessage, waitForSillyTavernReady } from '../harness/browser';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { agentOn, call, calls, openAgentChat, openInLanguage, lastToolResult, openSectionUntilShown, replyCalls, waitForAgentIdle } from '../harness/agent';
import { REPO_ROOT, slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

const artifacts = path.join(REPO_ROOT, 'test-results');

let session: TavernSession;

before(async () => {
    mkdirSync(artifacts, { recursive: true });
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const block = (front: string, body: string) => `---\n${front}\n---\n${body}`;
const THREADS = block('title: Open threads\npinned: true\nlimit: 60', '- The lantern must reach Willowmere.');
const NOTES = 'The brass key is hidden under the old mill.';

const chatId = (page: Page) => page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);

async function openChat(page: Page, name: string): Promise<void> {
    await page.evaluate((file) => SillyTavern!.getContext().openCharacterChat(file), name);
    await page.waitForFunction((file) => SillyTavern!.getContext().getCurrentChatId() === file, name);
}

/** Opens the panel and its Memory section, and waits until the view has read the chat's memory. */
async function openMemoryView(page: Page): Promise<void> {
    if (!(await page.locator('aside.tavern-agent').count())) await page.click('#tavern_agent_button .drawer-icon');
    await openSectionUntilShown(page, '#tavern_agent_memory', '[data-testid="memory-home"]');
}

const entry = (page: Page, path: string) => page.locator(`[data-testid="memory-entry"][data-path="${path}"]`);

/** The chats the tests share: the one whose memory is carried, and the new one it is carried into. */
let source = '';
let seeded = '';

test('/agent memory from <chat> in a new chat of the same character: the first run there reads the earlier chat\'s memory file', async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'persist/threads.md', content: THREADS }), call('workspace_write_file', { path: 'persist/notes.md', content: NOTES }), ...replyCalls('Noted.')));
    await sendMessage(page, 'Remember the lantern and the key.');
    await waitForAgentIdle(page);
    source = await chatId(page);

    await slash(page, '/newchat');
    await page.waitForFunction((previous) => SillyTavern!.getContext().getCurrentChatId() !== previous && SillyTavern!.getContext().chat.length === 1, source);
    await agentOn(page);
    seeded = await chatId(page);
    const answer = JSON.parse(await slash(page, `/agent memory from ${source}`)) as { chat: string; paths: string[]; at: string };
    assert.equal(answer.chat, source);
    assert.deepEqual(answer.paths, ['persist/notes.md', 'persist/threads.md']);

    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_read_file', { path: 'persist/notes.md' })), calls(...replyCalls('Under the mill, then.')));
    await sendMessage(page, 'Where is the key?');
    await waitForAgentIdle(page);
    const first = session.mock.generations()[0]!;
    assert.match(JSON.stringify(first.body), /The lantern must reach Willowmere/, "the seed's pinned block opens the first run");
    assert.match(lastToolResult(session.mock.generations()[1]!, 'workspace_read_file'), /The brass key is hidden under the old mill\./);
});

test('a second browser opening the new chat sees the same seed, in the Memory view (in Chinese, 390 px wide) and through the API', async () => {
    assert.ok(seeded, 'the first test made the seeded chat');
    const { page } = await openInLanguage(session, 'zh-cn', { width: 390, height: 844 });
    try {
        await openCharacter(page);
        await openChat(page, seeded);
        const seed = await page.evaluate(() => globalThis.TavernAgent!.memory.seed());
        assert.equal(seed?.chat, source);
        assert.deepEqual(seed?.paths, ['persist/notes.md', 'persist/threads.md']);
        await openMemoryView(page);
        assert.equal(await page.locator('[data-testid="memory-home"]').getAttribute('data-home'), 'seed');
        assert.equal(await page.locator('[data-testid="memory-seed"]').getAttribute('data-seed-chat'), source);
        // Pinned blocks first, then the other files.
        assert.deepEqual(await page.locator('[data-testid="memory-entry"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-path'))), ['persist/threads.md', 'persist/notes.md']);
        // The view's own words are Chinese (titles, paths and chat names are the memory's), and it fits the phone.
        const labels = await page.locator('#tavern_agent_memory summary, [data-testid="memory-view"] button, [data-testid="memory-home"], [data-testid="memory-size"]').allInnerTexts();
        assert.deepEqual(labels.filter((text) => /[A-Za-z]{2,}/.test(text)), []);
        assert.ok(await page.locator('#tavern_agent_memory').evaluate((element) => element.scrollWidth <= element.clientWidth + 1), 'no sideways scroll at 390 px');
        await page.locator('#tavern_agent_memory').screenshot({ path: path.join(artifacts, 'memory-view-390-zh-cn.png') });
    } finally {
        await closePage(page);
    }
});

test('the Memory view: pin, unpin, an edit past the limit refused with the text kept, an edit and a delete that reach the next run and survive a reload', async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    await openChat(page, source);
    await openMemoryView(page);
    assert.equal(await page.locator('[data-testid="memory-home"]').getAttribute('data-home'), 'message');
    const threads = entry(page, 'persist/threads.md');
    assert.equal(await threads.getAttribute('data-pinned'), 'true');
    assert.match(await threads.locator('[data-testid="memory-size"]').innerText(), /^36 \/ 60 /);

    await threads.locator('[data-action="memory-unpin"]').click();
    await page.waitForFunction(() => document.querySelector('[data-path="persist/threads.md"]')?.getAttribute('data-pinned') === 'false');
    await entry(page, 'persist/threads.md').locator('[data-action="memory-pin"]').click();
    await page.waitForFunction(() => document.querySelector('[data-path="persist/threads.md"]')?.getAttribute('data-pinned') === 'true');

    // Past the limit: refused, said under the file, and what was typed stays in the box.
    await entry(page, 'persist/threads.md').locator('[data-action="memory-edit"]').click();
    const box = entry(page, 'persist/threads.md').locator('[data-testid="memory-textarea"]');
    const tooLong = block('title: Open threads\npinned: true\nlimit: 60', `- ${'The ferry leaves at dawn. '.repeat(4)}`);
    await box.fill(tooLong);
    await entry(page, 'persist/threads.md').locator('[data-action="memory-save"]').click();
    await entry(page, 'persist/threads.md').locator('[data-testid="memory-error"]').waitFor();
    assert.match(await entry(page, 'persist/threads.md').locator('[data-testid="memory-error"]').innerText(), /\(memory\.block_too_long\)$/);
    assert.equal(await box.inputValue(), tooLong);
    const edited = block('title: Open threads\npinned: true\nlimit: 60', '- The ferry leaves at dawn.');
    await box.fill(edited);
    await entry(page, 'persist/threads.md').locator('[data-action="memory-save"]').click();
    await page.waitForFunction(() => !document.querySelector('[data-path="persist/threads.md"] [data-testid="memory-textarea"]'));
    assert.match(await entry(page, 'persist/threads.md').locator('[data-testid="memory-size"]').innerText(), /^27 \/ 60 /);

    await entry(page, 'persist/notes.md').locator('[data-action="memory-delete"]').click();
    await page.locator('dialog[open] .popup-button-ok').click();
    await entry(page, 'persist/notes.md').waitFor({ state: 'detached' });

    // Each change is journaled as a run of its own.
    const runs = await page.evaluate(() => globalThis.TavernAgent!.runs());
    const edits = runs.filter((run) => run.profileId === 'user');
    assert.equal(edits.length, 4, 'unpin, pin, edit and delete each journaled');
    // History lists them; the edit's run opens on the file it changed.
    await openSectionUntilShown(page, '.tavern-agent__history', `[data-history-run="${edits[2]!.runId}"]`);
    const editRow = page.locator(`[data-history-run="${edits[2]!.runId}"]`);
    await editRow.waitFor();
    assert.match(await editRow.innerText(), /memory edited by you/);
    await editRow.locator('.tavern-agent__history-open').click();
    await page.locator('.tavern-agent__runs [data-event-type="file-write"]').first().waitFor();
    assert.match(await page.locator('.tavern-agent__runs').innerText(), /persist\/threads\.md/);

    // The next run starts from the edited memory.
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_list_files', { path: 'persist' })), calls(...replyCalls('To the ferry.')));
    await sendMessage(page, 'What is next?');
    await waitForAgentIdle(page);
    const request = JSON.stringify(session.mock.generations()[0]!.body);
    assert.match(request, /The ferry leaves at dawn\./);
    assert.doesNotMatch(request, /Willowmere/);
    assert.doesNotMatch(lastToolResult(session.mock.generations()[1]!, 'workspace_list_files'), /notes\.md/);

    // The chat carries the change: after a reload the view shows it.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page);
    await openChat(page, source);
    await openMemoryView(page);
    await entry(page, 'persist/threads.md').waitFor();
    // In the chat itself: the reply that held the memory carries the edited memory, in full.
    const carried = await page.evaluate(() => SillyTavern!.getContext().chat.map((message) => JSON.stringify((message.extra as { tavern_agent?: { memory?: unknown } } | undefined)?.tavern_agent?.memory ?? null)));
    assert.ok(carried.some((memory) => memory.includes('The ferry leaves at dawn.') && memory.includes('"files"') && !memory.includes('notes.md')), 'a message carries the edited memory');
    assert.equal(await entry(page, 'persist/notes.md').count(), 0);
    assert.match(await entry(page, 'persist/threads.md').locator('[data-testid="memory-size"]').innerText(), /^27 \/ 60 /);
});

test('memory from an unknown chat or a chat without memory is refused with its code, and nothing is stored', async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    const empty = await chatId(page);
    await slash(page, '/newchat');
    await page.waitForFunction((previous) => SillyTavern!.getContext().getCurrentChatId() !== previous && SillyTavern!.getContext().chat.length === 1, empty);
    assert.equal(await slash(page, '/agent memory from No such chat'), '');
    const refused = await page.evaluate(async (names) => {
        const codes: string[] = [];
        for (const name of names) {
            try {
                await globalThis.TavernAgent!.memory.seedFrom(name);
                codes.push('resolved');
            } catch (error) {
                codes.push(String((error as { code?: string }).code));
            }
        }
        return codes;
    }, ['No such chat', empty]);
    assert.deepEqual(refused, ['memory.chat_not_found', 'memory.no_memory']);
    assert.equal(await page.evaluate(() => globalThis.TavernAgent!.memory.seed()), null);

    // Bring memory from…: the character's chats that carry memory (the seeded one by its seed), the empty one not.
    await openMemoryView(page);
    assert.equal(await page.locator('[data-testid="memory-home"]').getAttribute('data-home'), 'none');
    await page.locator('[data-action="memory-bring"]').click();
    await page.locator('[data-testid="memory-source"]').first().waitFor();
    const listed = await page.locator('[data-testid="memory-source"]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-chat')));
    assert.deepEqual([...listed].sort(), [source, seeded].sort());
    await page.locator(`[data-testid="memory-source"][data-chat="${source}"] button`).click();
    await page.locator(`[data-testid="memory-seed"][data-seed-chat="${source}"]`).waitFor();
    assert.equal(await page.locator('[data-testid="memory-home"]').getAttribute('data-home'), 'seed');
    assert.equal(await entry(page, 'persist/threads.md').count(), 1, 'the source chat\'s memory as it is now: the edited block');
    assert.match(await entry(page, 'persist/threads.md').locator('[data-testid="memory-size"]').innerText(), /^27 \/ 60 /);
    assert.equal((await page.evaluate(() => globalThis.TavernAgent!.memory.seed()))?.chat, source);
});
