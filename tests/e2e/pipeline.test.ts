// Issue 34: agents around SillyTavern's own reply, in one per-chat pipeline. A director plans before the reply
// and its brief goes into SillyTavern's own generation (the user's preset); keepers work after a reply, in
// the background, and their memory goes into that reply. The mock model answers tool requests (an agent's:
// tools offered) and plain generations (SillyTavern's own: no tools) on separate routes, and records both,
// so each test asserts what the user sees and what the model was shown.
import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openCharacter, sendMessage } from '../harness/browser';
import { call, calls, chatLines, openAgentChat, openSectionUntilShown, toolResults } from '../harness/agent';
import type { MockTurn, RecordedRequest } from '../harness/mock-model';
import { slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const BRIEF = '- The owl is hurt; keep Seraphina gentle.\n- Answer the question about the forest.';
const PLAIN_REPLY = 'Seraphina smiles softly. "The forest is safe tonight."';

const offersTools = (request: RecordedRequest) => Array.isArray(request.body?.tools) && request.body.tools.length > 0;
const toolRequests = () => session.mock.generations().filter(offersTools);
const plainRequests = () => session.mock.generations().filter((request) => !offersTools(request));
const shown = (request: RecordedRequest) => JSON.stringify(request.body?.messages ?? []);

/** SillyTavern's own generations get plain text; the agents' requests get their scripts, in order. */
function script(agents: MockTurn[], plain: MockTurn = { text: PLAIN_REPLY }): void {
    session.mock.route({ when: (request) => !offersTools(request), turns: [plain], repeat: true });
    session.mock.route({ when: offersTools, turns: agents });
}

/** A director's run: it writes its brief and finishes, in one turn. */
const directorWrites = (brief = BRIEF) => calls(call('workspace_write_file', { path: 'output/brief.md', content: brief }), call('workspace_finish', {}));

async function setPipeline(page: Page, words: string): Promise<Record<string, unknown>> {
    const answer = await slash(page, `/agent pipeline ${words}`);
    assert.ok(answer.startsWith('{'), `the pipeline was set: ${answer}`);
    return JSON.parse(answer) as Record<string, unknown>;
}

/** Waits until neither SillyTavern nor a foreground run is busy (a swipe has no sendMessage to wait on). */
async function waitForIdle(page: Page): Promise<void> {
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 30_000 });
}

/** Every toast shown from now on, with its text (toasts fade, so they are caught as they appear). */
async function watchToasts(page: Page): Promise<() => Promise<string[]>> {
    await page.evaluate(() => {
        const seen: string[] = [];
        (globalThis as unknown as { __toasts: string[] }).__toasts = seen;
        const counted = new WeakSet<Element>();
        new MutationObserver(() => {
            for (const toast of document.querySelectorAll('#toast-container .toast')) {
                if (counted.has(toast)) continue;
                counted.add(toast);
                seen.push(toast.textContent ?? '');
            }
        }).observe(document.body, { childList: true, subtree: true });
    });
    return () => page.evaluate(() => [...(globalThis as unknown as { __toasts: string[] }).__toasts]);
}

/** The keepers' runs of the open chat, as the API lists them. */
async function keeperRuns(page: Page): Promise<Array<{ runId: string; profileId: string; state: string }>> {
    const runs = await page.evaluate(() => globalThis.TavernAgent!.runs());
    return runs.filter((run) => run.profileId.endsWith('-keeper'));
}

/** Waits until `count` keepers have run to their end (keepers work in the background: nothing else waits for them). */
async function waitForKeepers(page: Page, count: number): Promise<Array<{ runId: string; profileId: string; state: string }>> {
    const ended = ['completed', 'failed', 'cancelled'];
    for (let waited = 0; waited < 60_000; waited += 200) {
        const runs = await keeperRuns(page);
        if (runs.length >= count && runs.every((run) => ended.includes(run.state))) return runs;
        await page.waitForTimeout(200);
    }
    throw new Error(`waited 60 s for ${count} keeper run(s) to end: ${JSON.stringify(await keeperRuns(page))}`);
}

const PANEL_BUTTON = '#tavern_agent_button .drawer-icon';

let page: Page;

test('before=director reply=sillytavern: Send makes a tool request, then one plain request carrying the brief; the chat gains the user message and the plain reply', async () => {
    page = await openAgentChat(session, { panel: false, reuse: true });
    assert.deepEqual(await setPipeline(page, 'before=director reply=sillytavern'), { before: 'director', reply: 'sillytavern', after: [] });
    script([directorWrites()]);
    await sendMessage(page, 'Is the forest safe?');
    await waitForIdle(page);

    const requests = session.mock.generations();
    assert.deepEqual(requests.map((request) => (offersTools(request) ? 'tools' : 'plain')), ['tools', 'plain'], 'the director first, then SillyTavern once');
    assert.ok(!toolRequests()[0]!.body.tools.some((tool: { function: { name: string } }) => tool.function.name === 'workspace_commit'), 'the director is not offered commit');
    const messages = plainRequests()[0]!.body.messages as Array<{ role: string; content: unknown }>;
    const at = messages.findIndex((message) => JSON.stringify(message.content).includes(JSON.stringify(BRIEF).slice(1, -1)));
    assert.ok(at >= 0, "the brief is inside SillyTavern's request");
    // The director profile's placement: a system message at depth 1, just before the user's message.
    assert.equal(messages[at]!.role, 'system');
    assert.equal(at, messages.length - 2);
    assert.match(JSON.stringify(messages.at(-1)!.content), /Is the forest safe\?/);
    const lines = await chatLines(page);
    assert.deepEqual(
        lines.map((line) => [line.is_user, line.mes]),
        [
            [false, lines[0]!.mes],
            [true, 'Is the forest safe?'],
            [false, PLAIN_REPLY],
        ],
    );
    assert.equal(lines[2]!.runId, null, 'the reply is SillyTavern’s, not a run’s');
    const inPrompts = await page.evaluate(() => Object.keys(SillyTavern!.getContext().extensionPrompts).filter((key) => key.startsWith('tavern_agent')));
    assert.deepEqual(inPrompts, [], 'the brief is removed once the generation ended');

    // The panel shows the turn: the director, then SillyTavern's reply linked to its message (no keeper named it).
    await page.click(PANEL_BUTTON);
    await page.locator('.tavern-agent__turn-item[data-phase="before"]').waitFor();
    await page.locator('.tavern-agent__turn-item[data-phase="sillytavern"] [data-action="jump"]', { hasText: '#2' }).waitFor();
    await page.click(PANEL_BUTTON);
});

test('a swipe of that reply makes one plain request with the same brief, and no tool request', async () => {
    session.mock.reset();
    script([]);
    await page.locator('#chat .mes').last().locator('.swipe_right').click();
    await page.waitForFunction(() => (SillyTavern!.getContext().chat.at(-1)?.swipes?.length ?? 0) === 2, undefined, { timeout: 30_000 });
    await waitForIdle(page);
    assert.equal(toolRequests().length, 0, 'the brief made for this user message is reused');
    assert.equal(plainRequests().length, 1);
    assert.ok(shown(plainRequests()[0]!).includes(JSON.stringify(BRIEF).slice(1, -1)), 'the swipe carries the same brief');
    assert.equal((await chatLines(page)).length, 3, 'a swipe, not a new message');
});

test('after=lore-keeper: after a plain reply a tool request holding the reply arrives in the background; its proposal is listed in the panel, and the chat gains no message', async () => {
    page = await openAgentChat(session, { panel: false, reuse: true });
    await setPipeline(page, 'reply=sillytavern after=lore-keeper');
    script([calls(call('worldinfo_propose', { title: 'Old mill', keys: ['mill'], content: 'The old mill burned down; only its wheel remains.' }), call('workspace_finish', {}))]);
    await sendMessage(page, 'The old mill burned down last night.');
    const [keeper] = await waitForKeepers(page, 1);
    assert.equal(keeper!.state, 'completed');

    assert.deepEqual(session.mock.generations().map((request) => (offersTools(request) ? 'tools' : 'plain')), ['plain', 'tools'], 'the reply first, then the keeper');
    assert.ok(shown(toolRequests()[0]!).includes(JSON.stringify(PLAIN_REPLY).slice(1, -1)), "the keeper's request holds the reply's text");
    assert.ok(!toolRequests()[0]!.body.tools.some((tool: { function: { name: string } }) => tool.function.name === 'workspace_commit'), 'a keeper is not offered commit');
    const lines = await chatLines(page);
    assert.deepEqual(lines.map((line) => line.mes).slice(1), ['The old mill burned down last night.', PLAIN_REPLY], 'the chat gains no message');

    await page.click(PANEL_BUTTON);
    await openSectionUntilShown(page, '.tavern-agent__history', `[data-history-run="${keeper!.runId}"] .tavern-agent__history-open`);
    await page.click(`[data-history-run="${keeper!.runId}"] .tavern-agent__history-open`);
    await page.locator('.tavern-agent__lore-proposal[data-state="pending"]', { hasText: 'Old mill' }).waitFor();
    await page.click(PANEL_BUTTON);
});

const MEMORY = '- Seraphina promised to find the owl.';

test("after=memory-keeper: once it finished, the reply message's extra carries the new memory, and a second browser context reads it", async () => {
    page = await openAgentChat(session, { panel: false, reuse: true });
    await setPipeline(page, 'reply=sillytavern after=memory-keeper');
    script([calls(call('workspace_write_file', { path: 'persist/threads.md', content: MEMORY }), call('workspace_finish', {}))]);
    await sendMessage(page, 'Promise me you will find the owl.');
    const [keeper] = await waitForKeepers(page, 1);
    assert.equal(keeper!.state, 'completed');
    const chatId = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    const marker = await page.evaluate(() => SillyTavern!.getContext().chat[2]!.extra?.tavern_agent as Record<string, unknown>);
    assert.deepEqual(marker, { memoryRunId: keeper!.runId, memory: { v: 1, files: { 'persist/threads.md': MEMORY } } }, "the reply carries the keeper's memory, and stays nobody's run");

    // Another device of the same user: a fresh browser context (fresh IndexedDB) opens the saved chat.
    const other = (await session.open()).page;
    try {
        await waitForExtension(other);
        await openCharacter(other);
        await other.evaluate((id) => SillyTavern!.getContext().openCharacterChat(id), chatId);
        await other.waitForFunction((id) => SillyTavern!.getContext().getCurrentChatId() === id && SillyTavern!.getContext().chat.length === 3, chatId, { timeout: 30_000 });
        const read = await other.evaluate(() => (SillyTavern!.getContext().chat[2]!.extra?.tavern_agent as { memory?: unknown } | undefined)?.memory);
        assert.deepEqual(read, { v: 1, files: { 'persist/threads.md': MEMORY } }, 'the saved chat carries it');
        // And the next agent run there starts from it.
        await setPipeline(other, 'reply=agent after=none');
        session.mock.reset();
        script([calls(call('workspace_read_file', { path: 'persist/threads.md' })), calls(call('workspace_write_file', { path: 'output/main.md', content: 'I will.' }), call('workspace_commit', {}), call('workspace_finish', {}))]);
        await sendMessage(other, 'Do you remember your promise?');
        const result = toolResults(toolRequests()[1]!).find((shownResult) => shownResult.name === 'workspace_read_file');
        assert.match(result?.content ?? '', /promised to find the owl/);
    } finally {
        await closePage(other);
    }
});

test('Send while an after-run waits on the model: the new turn starts at once', async () => {
    page = await openAgentChat(session, { panel: false, reuse: true });
    await setPipeline(page, 'reply=sillytavern after=lore-keeper');
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    script([{ waitFor: held, toolCalls: [call('workspace_finish', {})] }, calls(call('workspace_finish', {}))]);
    try {
        await sendMessage(page, 'First.');
        await session.mock.waitUntil(() => toolRequests().length === 1, 'the keeper asks the model', 30_000);
        assert.equal(await page.evaluate(() => globalThis.TavernAgent!.status().run), null, 'the keeper holds no run slot');
        assert.equal(JSON.parse(await slash(page, '/agent status')).run, null, "nor is it taken for another tab's run");
        assert.equal(await page.evaluate(() => document.body.dataset.generating), undefined, 'nor SillyTavern\'s generating state');

        await sendMessage(page, 'Second.');
        assert.equal(plainRequests().length, 2, 'the second reply was generated');
        assert.equal(toolRequests()[0]!.endedAt, undefined, 'while the keeper still waits on the model');
        assert.deepEqual((await chatLines(page)).map((line) => line.mes).slice(1), ['First.', PLAIN_REPLY, 'Second.', PLAIN_REPLY]);
        // Keepers run one at a time: the second reply's waits for the first one's (a keeper starts in well under
        // this on a quiet machine; started beside it, it would read the memory the first is about to replace).
        await page.waitForTimeout(2_000);
        assert.equal((await keeperRuns(page)).length, 1, "the second reply's keeper has not started while the first one works");
        assert.equal(toolRequests().length, 1, 'nor asked the model');
    } finally {
        release();
    }
    // The second reply's keeper follows the first one's.
    const keepers = await waitForKeepers(page, 2);
    assert.deepEqual(keepers.map((run) => run.state), ['completed', 'completed']);
    const [first, second] = toolRequests();
    assert.ok(first?.endedAt !== undefined && second && second.at >= first.endedAt, "the second keeper asked only after the first one's answer");
});

test('the panel shows a keeper live as After (background), beside the reply it follows, and its Stop ends it alone', async () => {
    page = await openAgentChat(session, { panel: true, reuse: true });
    await setPipeline(page, 'reply=sillytavern after=lore-keeper');
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    script([{ waitFor: held, toolCalls: [call('workspace_finish', {})] }]);
    try {
        await sendMessage(page, 'Watch the keeper.');
        await session.mock.waitUntil(() => toolRequests().length === 1, 'the keeper asks the model', 30_000);
        const [keeper] = await keeperRuns(page);
        // Its live events reach the panel: the view follows it, labelled with its phase, with its own Stop.
        const strip = page.locator(`.tavern-agent__turn-item[data-turn-run="${keeper!.runId}"]`);
        await strip.locator('[data-phase="after"]').waitFor();
        await page.locator('.tavern-agent__turn-item[data-phase="sillytavern"] [data-action="jump"]', { hasText: '#2' }).waitFor();
        await page.click('.tavern-agent__stop[data-stop="background"]');
        const [ended] = await waitForKeepers(page, 1);
        assert.equal(ended!.state, 'cancelled', 'the keeper stopped');
        await page.locator('.tavern-agent__stop').waitFor({ state: 'detached' });
        assert.deepEqual((await chatLines(page)).map((line) => line.mes).slice(1), ['Watch the keeper.', PLAIN_REPLY], 'the reply stays');
    } finally {
        release();
        await page.click(PANEL_BUTTON);
    }
});

test('Stop during the before-run stops the turn: no plain request follows', async () => {
    page = await openAgentChat(session, { panel: false, reuse: true });
    await setPipeline(page, 'before=director reply=sillytavern');
    script([{ ...directorWrites(), delayMs: 20_000 }]);
    await page.fill('#send_textarea', 'Tell me a story.');
    await page.click('#send_but');
    await session.mock.waitUntil(() => toolRequests().length === 1, 'the director asks the model');
    await page.locator('#mes_stop').click();
    await waitForIdle(page);
    await session.mock.waitUntil(() => toolRequests()[0]!.aborted === true, "the director's request is aborted");
    // Anything SillyTavern would do next happens within moments of the stop; give it that and more.
    await page.waitForTimeout(1000);
    assert.equal(plainRequests().length, 0, 'no plain generation request');
    const lines = await chatLines(page);
    assert.equal(lines.at(-1)!.mes, 'Tell me a story.', 'the user message stays, and no reply follows');
});

test('a failing before-run: the plain generation still runs, without a brief, and a toast names the failure', async () => {
    page = await openAgentChat(session, { panel: false, reuse: true });
    await setPipeline(page, 'before=director reply=sillytavern');
    const toasts = await watchToasts(page);
    script([{ status: 401, error: 'bad key' }]);
    await sendMessage(page, 'Is anyone there?');
    await waitForIdle(page);
    assert.equal(toolRequests().length, 1);
    assert.equal(plainRequests().length, 1, 'SillyTavern still generates');
    assert.ok(!shown(plainRequests()[0]!).includes('owl is hurt'), 'without a brief');
    assert.equal((await chatLines(page)).at(-1)!.mes, PLAIN_REPLY);
    const failure = (await toasts()).find((text) => text.includes('Planning failed'));
    assert.ok(failure, `a toast says planning failed: ${JSON.stringify(await toasts())}`);
    assert.match(failure, /\(model\.request_failed\)/, 'and names the code');
});
