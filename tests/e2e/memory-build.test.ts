// Issue 37 §3: /agent memory build turns a long chat into memory, chunk by chunk, in real SillyTavern with the
// mock model: one memory-keeper run per chunk, each shown its chunk's messages and the memory so far; a reload
// mid-build, then Resume in the panel, runs only the chunks not done; the chat's messages never change; the
// memory becomes the chat's seed, and the next reply's run starts from it.
import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openCharacter, sendMessage } from '../harness/browser';
import { call, calls, openAgentChat, openSectionUntilShown } from '../harness/agent';
import type { MockTurn, RecordedRequest } from '../harness/mock-model';
import { slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const MESSAGES = 200;
const CHUNK = 40;

type Body = { messages: Array<{ role: string; content: unknown }> };
const messagesOf = (request: RecordedRequest) => (request.body as Body).messages;
const systemOf = (request: RecordedRequest) => String(messagesOf(request)[0]?.content ?? '');
/** The chunk a build run works on (1-based), from its instructions; null for any other run. */
const chunkOf = (request: RecordedRequest): number | null => Number(/This run is chunk (\d+) of \d+/.exec(systemOf(request))?.[1] ?? NaN) || null;

/**
 * A chunk run's answer: its scene, and the pinned characters block saying how far the memory goes, then finish.
 * `hold` chunks get no answer (as a slow model), so a reload can cut the build off there.
 */
function keeperResponder(hold: ReadonlySet<number>) {
    return (request: RecordedRequest): MockTurn | undefined => {
        const chunk = chunkOf(request);
        if (chunk === null) return undefined;
        if (hold.has(chunk)) return { delayMs: 120_000, text: 'never' };
        return calls(
            call('workspace_write_file', { path: `persist/scenes/${String(chunk).padStart(4, '0')}.md`, content: `---\ntitle: Scene ${chunk}\npinned: false\n---\nScene ${chunk} happened.` }),
            call('workspace_write_file', { path: 'persist/characters.md', content: `---\ntitle: Characters\npinned: true\n---\nMemory up to chunk ${chunk}.` }),
            call('workspace_finish', {}),
        );
    };
}

/** Makes the open chat MESSAGES messages long (the greeting and numbered lines), saved at once: no Send needed. */
async function fillChat(page: Page, messages = MESSAGES): Promise<void> {
    await page.evaluate(async (count) => {
        const context = SillyTavern!.getContext();
        for (let i = context.chat.length; i < count; i++) {
            const user = i % 2 === 1;
            context.chat.push({ name: user ? context.name1 : context.name2, is_user: user, is_system: false, send_date: new Date().toISOString(), mes: `Line ${i}: token-${i}-mark.`, extra: {} });
        }
        await context.saveChat();
    }, messages);
}

/**
 * The chat file's messages as SillyTavern stored them (its first line, the metadata, left out): each one's text,
 * speaker, date and `extra` (where any memory or marker of ours would be). The swipe fields are left out:
 * SillyTavern itself gives a loaded reply `swipes`/`swipe_id`/`swipe_info` and writes them with the next save.
 */
async function storedMessages(page: Page): Promise<unknown[]> {
    return page.evaluate(async () => {
        const context = SillyTavern!.getContext();
        // Seraphina's chats (openAgentChat opens her): the folder is named after the avatar's file.
        const response = await fetch('/api/chats/get', {
            method: 'POST',
            headers: context.getRequestHeaders(),
            body: JSON.stringify({ ch_name: context.name2, file_name: context.getCurrentChatId(), avatar_url: 'default_Seraphina.png' }),
        });
        const lines = (await response.json()) as Array<Record<string, unknown>>;
        return lines.slice(1).map(({ mes, name, is_user, is_system, send_date, extra }) => ({ mes, name, is_user, is_system, send_date, extra }));
    });
}

interface BuildStatus {
    state: string;
    active: boolean;
    done: number;
    chunks: number;
    remainingMs: number | null;
}

const buildStatus = (page: Page) => page.evaluate(() => globalThis.TavernAgent!.memory.buildStatus()) as Promise<BuildStatus | null>;

async function waitForDone(page: Page, done: number, state?: string): Promise<void> {
    const until = Date.now() + 60_000;
    let status: BuildStatus | null = null;
    while (Date.now() < until) {
        status = await buildStatus(page);
        if (status && status.done >= done && (!state || status.state === state)) return;
        if (status?.state === 'failed') break;
        await page.waitForTimeout(200);
    }
    assert.fail(`the build did not reach ${done} chunks done${state ? ` (${state})` : ''}: ${JSON.stringify(status)}`);
}

test('/agent memory build on a 200-message chat: 5 chunk runs, a reload after chunk 2 then Resume runs 3–5 only, the messages unchanged, and the seed starts the next run', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await fillChat(page);
    const before = await storedMessages(page);
    assert.equal(before.length, MESSAGES);
    const chatId = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId() ?? '');
    assert.ok(chatId, 'a chat is open');

    // Chunks 1 and 2 answer; chunk 3's model never does, so the reload cuts the build off there.
    session.mock.setResponder(keeperResponder(new Set([3])));
    const started = JSON.parse(await slash(page, '/agent memory build')) as BuildStatus;
    assert.equal(started.chunks, MESSAGES / CHUNK);
    assert.equal(started.state, 'running');
    await waitForDone(page, 2);
    await session.mock.waitUntil(() => session.mock.generations().some((request) => chunkOf(request) === 3), 'chunk 3 reaches the model', 30_000).catch(async (e) => {
        console.log('# status', JSON.stringify(await buildStatus(page)), session.mock.generations().map(chunkOf));
        throw e;
    });
    const firstPart = session.mock.generations().map(chunkOf);
    assert.deepEqual(firstPart, [1, 2, 3], 'one model request per chunk run, oldest first');
    const progress = (await buildStatus(page))!;
    assert.equal(progress.done, 2);
    assert.equal(progress.chunks, 5);
    assert.ok(progress.remainingMs !== null && progress.remainingMs >= 0, 'an estimate from the chunks done');

    await page.reload({ waitUntil: 'domcontentloaded' });
    await page.waitForFunction(() => SillyTavern?.getContext().onlineStatus !== 'no_connection');
    await waitForExtension(page);
    await openCharacter(page);
    await page.evaluate(async (id) => SillyTavern!.getContext().openCharacterChat(id), chatId);
    await page.waitForFunction((id) => SillyTavern!.getContext().getCurrentChatId() === id && SillyTavern!.getContext().chat.length > 100, chatId);
    const cut = (await buildStatus(page))!;
    assert.deepEqual([cut.state, cut.active, cut.done], ['stopped', false, 2], 'the build survived the reload, stopped after chunk 2');

    session.mock.reset();
    session.mock.setResponder(keeperResponder(new Set()));
    await page.click('#tavern_agent_button .drawer-icon');
    // The control lives in the panel's Memory section, under the chat's memory.
    const section = page.locator('#tavern_agent_memory');
    if (!(await section.evaluate((element) => (element as HTMLDetailsElement).open))) await section.locator('> summary').click();
    const control = page.getByTestId('memory-build');
    await control.waitFor();
    assert.match(await control.getByTestId('memory-build-progress').innerText(), /3 \/ 5/);
    await control.getByTestId('memory-build-resume').click();
    await waitForDone(page, 5, 'finished');
    await page.waitForFunction(() => /Done/.test(document.querySelector('[data-testid="memory-build-progress"]')?.textContent ?? ''));

    const resumed = session.mock.generations();
    assert.deepEqual(resumed.map(chunkOf), [3, 4, 5], 'only the chunks not done ran, each once');
    for (const request of resumed) {
        const chunk = chunkOf(request)!;
        const from = (chunk - 1) * CHUNK;
        const shown = String(messagesOf(request).at(-1)!.content);
        assert.match(systemOf(request), new RegExp(`messages #${from} to #${from + CHUNK - 1}`), 'the instructions name the messages to summarise');
        for (let i = Math.max(1, from); i < from + CHUNK; i++) assert.ok(shown.includes(`token-${i}-mark`), `chunk ${chunk} shows message #${i}`);
        assert.ok(!shown.includes(`token-${from + CHUNK}-mark`), 'and no message after it');
        assert.match(systemOf(request), new RegExp(`Memory up to chunk ${chunk - 1}\\.`), 'it starts from the memory the chunk before left');
    }

    assert.deepEqual(JSON.parse(await slash(page, '/agent memory build status')), { ...(await buildStatus(page)), state: 'finished' }, 'the command answers the status');
    assert.equal(await slash(page, '/agent memory build stop'), '', 'nothing to stop: refused (memory.build_not_found), with a toast');
    assert.match(await page.locator('#toast-container').innerText(), /memory\.build_not_found/);
    assert.deepEqual(await storedMessages(page), before, "the chat file's messages are unchanged");
    const seed = await page.evaluate(() => SillyTavern!.getContext().chatMetadata.tavern_agent_memory_seed as { source: unknown; files: Record<string, string> });
    assert.deepEqual(seed.source, { kind: 'build', chunks: 5, messages: MESSAGES });
    assert.deepEqual(Object.keys(seed.files).sort(), ['persist/characters.md', 'persist/scenes/0001.md', 'persist/scenes/0002.md', 'persist/scenes/0003.md', 'persist/scenes/0004.md', 'persist/scenes/0005.md']);

    // The next reply's run starts from the seed: the pinned block is in its first request.
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'output/main.md', content: 'I remember.' }), call('workspace_commit', {}), call('workspace_finish', {})));
    await sendMessage(page, 'Do you remember?');
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 30_000 });
    assert.match(systemOf(session.mock.generations()[0]!), /Memory up to chunk 5\./);
    // The next test takes this page again (a page load is seconds of CPU): a memory build is its chat's own.
});

test('/agent memory build lore: each chunk also runs the lore keeper, whose proposal waits in the panel for review, and the chat is unchanged', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await fillChat(page, CHUNK);
    const before = await storedMessages(page);
    session.mock.reset();
    // One chunk: the memory keeper's run asks first, then the lore keeper's.
    let asked = 0;
    session.mock.setResponder((request) => {
        if (chunkOf(request) === null) return undefined;
        asked += 1;
        return asked === 1
            ? keeperResponder(new Set())(request)
            : calls(call('worldinfo_propose', { title: 'Line marks', keys: ['token'], content: 'Every line of this chat carries a token mark.' }), call('workspace_finish', {}));
    });
    const started = JSON.parse(await slash(page, '/agent memory build lore')) as BuildStatus & { lore: boolean };
    assert.deepEqual([started.chunks, started.lore], [1, true]);
    await waitForDone(page, 1, 'finished');
    assert.equal(session.mock.generations().filter((request) => chunkOf(request) === 1).length, 2, 'the chunk ran the memory keeper and the lore keeper');
    const loreRequest = session.mock.generations().filter((request) => chunkOf(request) === 1)[1]!;
    assert.ok(String(messagesOf(loreRequest).at(-1)!.content).includes(`token-${CHUNK - 1}-mark`), "the lore keeper is shown the chunk's messages");

    const runs = await page.evaluate(() => globalThis.TavernAgent!.runs());
    const lore = runs.find((run) => run.profileId === 'lore-keeper');
    assert.ok(lore && lore.state === 'completed', `a completed lore-keeper run: ${JSON.stringify(runs)}`);
    await page.click('#tavern_agent_button .drawer-icon');
    await openSectionUntilShown(page, '.tavern-agent__history', `[data-history-run="${lore.runId}"] .tavern-agent__history-open`);
    await page.click(`[data-history-run="${lore.runId}"] .tavern-agent__history-open`);
    await page.locator('.tavern-agent__lore-proposal[data-state="pending"]', { hasText: 'Line marks' }).waitFor();
    assert.deepEqual(await storedMessages(page), before, "the chat file's messages are unchanged");
    await closePage(page);
});
