// Issue 13 §1, §2: a run cut off by a reload is `interrupted` and `/agent resume` continues it from its
// journal (one reply, no confirmed call replayed, the cut model call sent again); on a plain-HTTP origin
// without Web Locks, a second tab that opens, reloads and tries to start a run never disturbs the live run
// of the first, which completes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, openCharacter, waitForSillyTavernReady } from '../harness/browser';
import { call, calls, chatLines, openAgentChat, openSectionUntilShown, toolMessages } from '../harness/agent';
import type { MockTurn } from '../harness/mock-model';
import { journalTypes } from '../harness/stored-runs';
import { slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

interface Status {
    enabled: boolean;
    run: { runId: string; state: string } | null;
}

async function status(page: Page): Promise<Status> {
    return JSON.parse(await slash(page, '/agent status')) as Status;
}

async function waitForStatus(page: Page, holds: (s: Status) => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const now = await status(page);
        if (holds(now)) return;
        if (Date.now() > deadline) throw new Error(`status never held: ${JSON.stringify(now)}`);
        await page.waitForTimeout(250);
    }
}

/** Sends a message without waiting for the turn to end (the run is to be cut off). */
async function startTurn(page: Page, text: string): Promise<void> {
    await page.fill('#send_textarea', text);
    await page.click('#send_but');
}

test('a run cut off by a reload is interrupted; /agent resume continues it with one reply, nothing replayed', async () => {
    // Takes the last test's page again (a page load is seconds of CPU) and reloads it to cut the run; the next
    // tests do the same: each keeps to its own chat, the newest of the character.
    const page = await openAgentChat(session, { reuse: true });
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'The hearth crackles; Seraphina smiles.' })),
        calls(call('workspace_commit', { path: 'output/main.md' })),
        // The page is reloaded while this call is in flight.
        { ...calls(call('workspace_finish', { reason: 'never sent' })), delayMs: 60_000 },
    );
    await startTurn(page, 'Is it warm in here?');
    await session.mock.waitForGenerations(3);
    await page.waitForFunction(() => SillyTavern!.getContext().chat.some((m) => Boolean(m.extra?.tavern_agent)));
    const runId = (await chatLines(page)).find((line) => line.runId)!.runId!;

    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page); // its newest chat: the one cut off
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 3).catch(async (error: unknown) => {
        throw new Error(`${String(error)}: ${await page.evaluate(() => JSON.stringify({ id: SillyTavern!.getContext().chatId, c: SillyTavern!.getContext().characterId, chat: SillyTavern!.getContext().chat.map((m) => m.mes.slice(0, 30)) }))}`);
    });
    // Opening the panel starts the engine; it finds the run cut off (no lock, no fresh lease): interrupted.
    await page.click('#tavern_agent_button .drawer-icon');
    await waitForStatus(page, (s) => s.run?.state === 'interrupted');
    assert.deepEqual((await status(page)).run, { runId, state: 'interrupted' });
    // The panel's history shows it interrupted; its header offers Resume.
    await openSectionUntilShown(page, '.tavern-agent__history', `[data-history-run="${runId}"]`);
    await page.locator(`[data-history-run="${runId}"][data-state="interrupted"]`).waitFor({ timeout: 15_000 }).catch(async (error: unknown) => {
        throw new Error(`${String(error)}: ${await page.evaluate(() => JSON.stringify([...document.querySelectorAll('.tavern-agent__history-item')].map((e) => [e.getAttribute('data-history-run'), e.getAttribute('data-state')]).concat([[document.querySelector('.tavern-agent__history')?.textContent?.slice(0, 300) ?? '', '']])))}`);
    });
    await page.click(`[data-history-run="${runId}"] .tavern-agent__history-open`);
    await page.locator('.tavern-agent__run-header [data-action="resume"]').waitFor();

    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_finish', { reason: 'done' })));
    const outcome = JSON.parse(await slash(page, '/agent resume')) as { runId: string; state: string; messageId: number };
    assert.equal(outcome.runId, runId);
    assert.equal(outcome.state, 'completed');

    // One reply, the committed text; the cut-off model call was sent again, once.
    const lines = await chatLines(page);
    assert.deepEqual(lines.filter((line) => line.runId === runId).map((line) => line.mes), ['The hearth crackles; Seraphina smiles.']);
    assert.equal(lines.length, 3);
    const resent = session.mock.generations();
    assert.equal(resent.length, 1);
    // The model saw each confirmed result once: the write and the commit, answered from the journal.
    const shown = toolMessages(resent[0]!);
    assert.equal(shown.length, 2);
    assert.match(shown[1]!.content, /Committed output\/main\.md to the chat as message #2/);
    const types = await journalTypes(page, runId);
    assert.equal(types.filter((type) => type === 'commit').length, 1, 'the commit is never replayed');
    assert.equal(types.filter((type) => type === 'tool-call-complete').length, 3);
    assert.ok(types.includes('run-resume'));
    assert.equal(types.at(-1), 'run-state');
    assert.equal((await status(page)).run, null);
});

test("the user edits the reply of a run cut off by a reload: the resumed run's commit is refused with their text, which stays", async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'The kettle sings.' }), call('workspace_commit', {})),
        { ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'The kettle sings louder.' })), delayMs: 60_000 },
    );
    await startTurn(page, 'Make tea.');
    await session.mock.waitForGenerations(2);
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'The kettle sings.');
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page);
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 3);
    // The user's own words, saved, before anyone resumes the run.
    await page.evaluate(async () => {
        const context = SillyTavern!.getContext();
        const reply = context.chat[2]!;
        reply.mes = 'I made the tea myself.';
        if (reply.swipes) reply.swipes[reply.swipe_id ?? 0] = reply.mes;
        await context.saveChat();
    });
    // Opening the panel starts the engine, which finds the run cut off.
    await page.click('#tavern_agent_button .drawer-icon');
    await waitForStatus(page, (s) => s.run?.state === 'interrupted');
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_commit', {})), calls(call('workspace_finish', {})));
    const outcome = JSON.parse(await slash(page, '/agent resume')) as { state: string };
    assert.equal(outcome.state, 'completed');
    assert.match(toolMessages(session.mock.generations()[1]!).at(-1)!.content, /^ERROR workspace\.commit_conflict:/);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'I made the tea myself.', "the user's edit wins");
});

/** A browser where lan.test is this machine: a page there is not a secure context (no Web Locks). */
async function launchLanBrowser(): Promise<Browser> {
    return chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, headless: true, args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP lan.test 127.0.0.1'] });
}

test('two tabs on plain HTTP without Web Locks: tab A\'s live run completes while tab B opens, reloads and tries to start one', async () => {
    const browser = await launchLanBrowser();
    try {
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
        const lanUrl = `http://lan.test:${session.st.port}/`;
        const a = await context.newPage();
        await a.goto(lanUrl, { waitUntil: 'domcontentloaded' });
        await waitForSillyTavernReady(a);
        await waitForExtension(a);
        assert.deepEqual(await a.evaluate(() => [isSecureContext, Boolean(navigator.locks)]), [false, false], 'a plain-HTTP LAN origin');
        await openCharacter(a);
        await slash(a, '/newchat');
        await a.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
        await slash(a, '/agent on');
        session.mock.reset();
        // Tab A's agent keeps working (a slow model) until the test lets it commit and finish.
        let release = false;
        let step = 0;
        session.mock.setResponder((): MockTurn => {
            if (release) {
                step += 1;
                return step === 1 ? calls(call('workspace_commit', { path: 'output/main.md' })) : calls(call('workspace_finish', { reason: 'done' }));
            }
            return { ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'Tab A wrote this.' })), delayMs: 1_500 };
        });
        await startTurn(a, 'Write something, slowly.');
        await session.mock.waitForGenerations(1);
        const chatId = await a.evaluate(() => SillyTavern!.getContext().chatId);

        // Tab B opens the same chat, sees the run live (read-only), reloads, and cannot start a second run.
        const b = await context.newPage();
        await b.goto(lanUrl, { waitUntil: 'domcontentloaded' });
        await waitForSillyTavernReady(b);
        await waitForExtension(b);
        await openCharacter(b);
        await b.waitForFunction((id) => SillyTavern!.getContext().chatId === id, chatId);
        await b.click('#tavern_agent_button .drawer-icon');
        await b.waitForFunction(() => document.querySelector('.tavern-agent__run[data-run-state="running"]') !== null, undefined, { timeout: 30_000 }).catch(async (error: unknown) => {
            throw new Error(`${String(error)}: ${await b.evaluate(() => JSON.stringify({ id: SillyTavern!.getContext().chatId, states: [...document.querySelectorAll('.tavern-agent__run')].map((e) => e.getAttribute('data-run-state')), text: document.querySelector('.tavern-agent')?.textContent?.slice(0, 400) }))}`);
        });
        await b.reload({ waitUntil: 'domcontentloaded' });
        await waitForSillyTavernReady(b);
        await waitForExtension(b);
        await openCharacter(b);
        await b.waitForFunction((id) => SillyTavern!.getContext().chatId === id, chatId);
        await b.click('#tavern_agent_button .drawer-icon');
        await b.waitForFunction(() => document.querySelector('.tavern-agent__run[data-run-state="running"]') !== null, undefined, { timeout: 30_000 });
        await waitForStatus(b, (s) => s.run !== null && s.run.state !== 'interrupted');
        const before = session.mock.generations().length;
        await slash(b, '/trigger');
        await b.locator('#toast-container', { hasText: 'An agent is already working on this chat in another tab' }).waitFor({ timeout: 30_000 });

        release = true;
        await a.waitForFunction(() => SillyTavern!.getContext().chat.some((m) => Boolean(m.extra?.tavern_agent)), undefined, { timeout: 60_000 });
        await a.waitForFunction(() => document.body.dataset.generating === undefined, undefined, { timeout: 60_000 });
        const runId = (await chatLines(a)).find((line) => line.runId)!.runId!;
        const types = await journalTypes(a, runId);
        assert.equal(types.includes('run-fail'), false, 'nobody marked the live run interrupted');
        assert.ok(types.includes('run-finish'));
        assert.deepEqual((await chatLines(a)).filter((line) => line.runId).map((line) => line.mes), ['Tab A wrote this.']);
        // Every model request came from tab A's one run: tab B never started one.
        assert.ok(session.mock.generations().length > before);
        assert.ok(session.mock.generations().every((request) => JSON.stringify(request.body.messages).includes('Write something, slowly.')));
        await context.close();
    } finally {
        await browser.close();
    }
});

test('a worker that dies mid-run: SillyTavern stops generating, the run is interrupted, and it resumes', async () => {
    const page = await openAgentChat(session, { reuse: true });
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Still standing after the crash.' })),
        // The worker dies while this call is in flight.
        { ...calls(call('workspace_commit', { path: 'output/main.md' })), delayMs: 60_000 },
    );
    await startTurn(page, 'Tell me something sturdy.');
    await session.mock.waitForGenerations(2);
    const worker = page.workers().find((w) => w.url().includes('worker.js'));
    assert.ok(worker, 'the agent worker runs');
    await worker.evaluate(() => void setTimeout(() => {
        throw new Error('simulated crash');
    }));
    // The page noticed: SillyTavern is no longer generating, and the user is told.
    await page.waitForFunction(() => document.body.dataset.generating === undefined, undefined, { timeout: 30_000 });
    await page.locator('#toast-container', { hasText: "The agent's worker stopped" }).waitFor({ timeout: 30_000 });
    await waitForStatus(page, (s) => s.run?.state === 'interrupted');
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_commit', { path: 'output/main.md' })), calls(call('workspace_finish', { reason: 'done' })));
    const outcome = JSON.parse(await slash(page, '/agent resume')) as { state: string; runId: string };
    assert.equal(outcome.state, 'completed');
    assert.deepEqual((await chatLines(page)).filter((line) => line.runId === outcome.runId).map((line) => line.mes), ['Still standing after the crash.']);
});
