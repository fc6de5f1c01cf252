// A commit is a SillyTavern reply (issue 15.1): the user's AI-output regex scripts and clean-up apply, the
// events other extensions listen to fire once; a commit over the user's own edit is refused with their text
// kept (issue 13.3); guidance sent mid-run reaches the next model request and the timeline (issue 15.3).
// Run: npm test -- tests/e2e/commits.test.ts
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sendMessage } from '../harness/browser';
import { call, calls, chatLines, gate, lastRunState, openAgentChat, toolResults } from '../harness/agent';
import type { MockTurn } from '../harness/mock-model';
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

type Seen = { name: string; id: number; type: string | null };

/** Records, in the page, every call of the message events other extensions listen to. */
async function listenToMessageEvents(target: Page): Promise<void> {
    await target.evaluate(() => {
        const context = SillyTavern!.getContext();
        const seen: Seen[] = [];
        (globalThis as { __seen?: Seen[] }).__seen = seen;
        for (const name of ['MESSAGE_RECEIVED', 'CHARACTER_MESSAGE_RENDERED', 'MESSAGE_EDITED', 'MESSAGE_UPDATED', 'MESSAGE_SWIPED']) {
            context.eventSource.on(context.eventTypes[name]!, (id: unknown, type: unknown) => {
                seen.push({ name, id: Number(id), type: typeof type === 'string' ? type : null });
            });
        }
    });
}

const seenEvents = (target: Page): Promise<Seen[]> => target.evaluate(() => [...((globalThis as { __seen?: Seen[] }).__seen ?? [])]);

async function waitForIdle(target: Page): Promise<void> {
    await target.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 60_000 });
}

test("a deletion regex made in SillyTavern's Regex extension strips <think> from the committed reply, in the chat and in the saved file", async () => {
    await page.evaluate(() => {
        const settings = SillyTavern!.getContext().extensionSettings as { regex?: unknown[] };
        settings.regex ??= [];
        settings.regex.push({
            id: 'e2e-strip-think',
            scriptName: 'Strip think blocks',
            findRegex: '/<think>[\\s\\S]*?<\\/think>\\s*/g',
            replaceString: '',
            trimStrings: [],
            placement: [2], // AI output
            disabled: false,
            markdownOnly: false,
            promptOnly: false,
            runOnEdit: true,
            substituteRegex: 0,
            minDepth: null,
            maxDepth: null,
        });
    });
    session.mock.enqueue(
        calls(
            call('workspace_write_file', { path: 'output/main.md', content: '<think>Be gentle; mention the glade.</think>\nThe glade is safe tonight.' }),
            call('workspace_commit', {}),
            call('workspace_finish', {}),
        ),
    );
    await sendMessage(page, 'Is the glade safe?');
    await waitForIdle(page);
    const reply = (await chatLines(page)).at(-1)!;
    assert.equal(reply.mes, 'The glade is safe tonight.');
    assert.ok(reply.runId, 'the cleaned reply is still the run reply');
    assert.equal(reply.swipes?.[reply.swipeId ?? 0], 'The glade is safe tonight.', 'the swipe holds the cleaned text too');
    assert.equal((await page.locator('#chat .mes').last().locator('.mes_text').innerText()).trim(), 'The glade is safe tonight.');
    const chatId = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    const saved = savedChat(chatId).at(-1)!;
    assert.equal(saved.mes, 'The glade is safe tonight.');
    assert.doesNotMatch(JSON.stringify(saved), /Be gentle/, 'the think block is nowhere in the saved file');
    await page.evaluate(() => {
        const settings = SillyTavern!.getContext().extensionSettings as { regex?: Array<{ id: string }> };
        settings.regex = (settings.regex ?? []).filter((script) => script.id !== 'e2e-strip-think');
    });
});

test('MESSAGE_RECEIVED and CHARACTER_MESSAGE_RENDERED fire once per agent reply with its id, edit events for an append, and once for a swipe run', async () => {
    await listenToMessageEvents(page);
    session.mock.enqueue(
        { reasoning: 'The user wants a greeting.', ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'Hello there.' }), call('workspace_commit', {})) },
        calls(call('workspace_write_file', { path: 'output/more.md', content: 'Welcome to the glade.' }), call('workspace_commit', { path: 'output/more.md', mode: 'append' }), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Greet me.');
    await waitForIdle(page);
    const lines = await chatLines(page);
    const id = lines.length - 1;
    assert.equal(lines[id]!.mes, 'Hello there.\n\nWelcome to the glade.');
    assert.deepEqual(
        (await seenEvents(page)).map((e) => `${e.name}#${e.id}`),
        [`MESSAGE_RECEIVED#${id}`, `CHARACTER_MESSAGE_RENDERED#${id}`, `MESSAGE_EDITED#${id}`, `MESSAGE_UPDATED#${id}`],
    );
    const reasoning = await page.evaluate((i) => SillyTavern!.getContext().chat[i]!.extra?.reasoning, id);
    assert.equal(reasoning, 'The user wants a greeting.', "the model's reasoning is stored where SillyTavern stores a reply's");

    await listenToMessageEvents(page);
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'output/main.md', content: 'Another hello.' }), call('workspace_commit', {}), call('workspace_finish', {})));
    await page.locator('#chat .mes').last().locator('.swipe_right').click();
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Another hello.', undefined, { timeout: 60_000 });
    await waitForIdle(page);
    const received = (await seenEvents(page)).filter((e) => e.name === 'MESSAGE_RECEIVED' || e.name === 'CHARACTER_MESSAGE_RENDERED');
    assert.deepEqual(received, [
        { name: 'MESSAGE_RECEIVED', id, type: 'swipe' },
        { name: 'CHARACTER_MESSAGE_RENDERED', id, type: 'swipe' },
    ]);
    const swiped = (await chatLines(page)).at(-1)!;
    assert.equal(swiped.swipes?.length, 2);
    assert.equal(swiped.swipeId, 1);
});

test("a replace commit over the user's edit is refused: the edit stays, the model gets workspace.commit_conflict and output/user_edit.md", async () => {
    const held = gate();
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'The agent wrote this.' }), call('workspace_commit', {})),
        { waitFor: held.promise, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'The agent rewrote this.' }), call('workspace_commit', {})) },
        calls(call('workspace_read_file', { path: 'output/user_edit.md' })),
        calls(call('workspace_finish', { reason: 'kept the user edit' })),
    );
    const sending = sendMessage(page, 'Write something.');
    await session.mock.waitForGenerations(2, 60_000);
    // The first commit has landed (its tool ran before the second request): the user edits it in the chat.
    await page.evaluate(() => {
        const $ = (globalThis as unknown as { jQuery: (s: string) => { last(): { find(s: string): { trigger(e: string): void } } } }).jQuery;
        $('#chat .mes').last().find('.mes_edit').trigger('click');
    });
    await page.locator('#curEditTextarea').fill('The user wrote this instead.');
    await page.evaluate(() => {
        const $ = (globalThis as unknown as { jQuery: (s: string) => { last(): { find(s: string): { trigger(e: string): void } } } }).jQuery;
        $('#chat .mes').last().find('.mes_edit_done').trigger('click');
    });
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'The user wrote this instead.');
    held.open();
    await sending;
    await waitForIdle(page);

    const reply = (await chatLines(page)).at(-1)!;
    assert.equal(reply.mes, 'The user wrote this instead.', "the user's edit was not overwritten");
    const requests = session.mock.generations();
    assert.equal(requests.length, 4);
    const commitResult = toolResults(requests[2]!).filter((r) => r.name === 'workspace_commit').at(-1)!.content;
    assert.match(commitResult, /^ERROR workspace\.commit_conflict:/);
    const read = toolResults(requests[3]!).filter((r) => r.name === 'workspace_read_file').at(-1)!.content;
    assert.match(read, /The user wrote this instead\./, 'the user text is in output/user_edit.md for the model');
    assert.equal(await lastRunState(page), 'completed');
});

test('guidance sent mid-run (panel and /agent guide) reaches the next model request and shows queued, then delivered, in the timeline', async () => {
    const held = gate();
    const firstTurn: MockTurn = { waitFor: held.promise, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'A short poem.' })) };
    session.mock.enqueue(firstTurn, calls(call('workspace_commit', {}), call('workspace_finish', {})));
    const sending = sendMessage(page, 'Write a poem.');
    await session.mock.waitForGenerations(1, 60_000);
    await page.locator('#tavern_agent_guidance').fill('Make it rhyme.');
    await page.locator('#tavern_agent_guidance_send').click();
    const queued = page.locator('.tavern-agent__event[data-event-type="guidance-queue"]');
    await queued.first().waitFor({ state: 'visible', timeout: 30_000 });
    assert.match(await queued.first().innerText(), /Make it rhyme\./);
    assert.equal(await slash(page, '/agent guide Keep it under four lines.'), 'g2');
    held.open();
    await sending;
    await waitForIdle(page);

    const requests = session.mock.generations();
    assert.equal(requests.length, 2);
    const userNotes = (i: number) =>
        (requests[i]!.body as { messages: Array<{ role: string; content: unknown }> }).messages.filter(
            (m) => m.role === 'user' && typeof m.content === 'string' && m.content.includes('Make it rhyme.'),
        );
    assert.equal(userNotes(0).length, 0);
    assert.equal(userNotes(1).length, 1, 'the guidance reached the next request once');
    assert.match(String(userNotes(1)[0]!.content), /Keep it under four lines\./, 'both notes, in one user note');
    const delivered = page.locator('.tavern-agent__event[data-event-type="guidance-deliver"]');
    assert.equal(await delivered.count(), 2);
    assert.match(await delivered.first().innerText(), /Make it rhyme\./);
    assert.equal(await page.locator('.tavern-agent__event[data-event-type="guidance-queue"]').count(), 0, 'every queued note shows delivered');
    assert.equal((await chatLines(page)).at(-1)!.mes, 'A short poem.');
});
