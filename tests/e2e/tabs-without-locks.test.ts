// Tabs without Web Locks (issue 39 §3), in a real SillyTavern on http://lan.test (not a secure context: no
// Web Locks, in the page or its worker): a tab frozen past its run's lease (the DevTools protocol freezes a
// page and its worker) wakes after another tab took the chat over and never commits; and two tabs starting
// a run on one chat in the same instant: exactly one runs, the other is told the chat is busy.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, openCharacter, waitForSillyTavernReady } from '../harness/browser';
import { call, calls, chatLines } from '../harness/agent';
import { freePort } from '../harness/free-port';
import type { MockTurn } from '../harness/mock-model';
import { journalTypes, storedRuns } from '../harness/stored-runs';
import { slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

let session: TavernSession;
let tabs: { context: BrowserContext; newTab(): Promise<Page>; close(): Promise<void> };

/**
 * Chromium where lan.test is this machine, attached over CDP without Playwright's default overrides: under
 * its focus emulation a page is never frozen (Page.setWebLifecycleState does nothing). The tabs share the
 * browser's default context, so one IndexedDB database, as two tabs of one user do; each opens in a window
 * of its own, so each is visible (a hidden page draws no frames, and Playwright's waits need them).
 */
async function launchFreezableLanBrowser(): Promise<{ context: BrowserContext; newTab(): Promise<Page>; close(): Promise<void> }> {
    const port = await freePort();
    const profile = mkdtempSync(path.join(os.tmpdir(), 'tavern-agent-tabs-'));
    const chrome: ChildProcess = spawn(
        CHROMIUM_EXECUTABLE,
        [...CHROMIUM_ARGS, '--headless', '--disable-background-timer-throttling', '--disable-renderer-backgrounding', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, '--window-size=1280,900', '--host-resolver-rules=MAP lan.test 127.0.0.1', 'about:blank'],
        { stdio: 'ignore' },
    );
    let browser: Browser | null = null;
    try {
        for (let tries = 0; !browser; tries += 1) {
            try {
                browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`, { noDefaults: true, timeout: 10_000 });
            } catch (error) {
                if (tries > 60) throw error;
                await new Promise((resolve) => setTimeout(resolve, 500));
            }
        }
    } catch (error) {
        chrome.kill();
        throw error;
    }
    const connected = browser;
    const context = connected.contexts()[0]!;
    const devtools = await connected.newBrowserCDPSession();
    return {
        context,
        async newTab() {
            const opened = context.waitForEvent('page');
            await devtools.send('Target.createTarget', { url: 'about:blank', newWindow: true });
            return opened;
        },
        async close() {
            // Chromium shuts down on its own (its helper processes with it), then its profile goes.
            const exited = new Promise((resolve) => chrome.once('exit', resolve));
            await devtools.send('Browser.close').catch(() => chrome.kill());
            await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
            chrome.kill('SIGKILL');
            await connected.close().catch(() => undefined);
            rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
        },
    };
}

before(async () => {
    session = await startTavernSession();
    tabs = await launchFreezableLanBrowser();
});

after(async () => {
    await tabs?.close();
    await session?.close();
});

/** A tab on the LAN origin with SillyTavern and the extension ready; its Web Locks are missing, as on a LAN. */
async function openTab(): Promise<Page> {
    const page = await tabs.newTab();
    await page.goto(`http://lan.test:${session.st.port}/`, { waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    assert.deepEqual(await page.evaluate(() => [isSecureContext, Boolean(navigator.locks)]), [false, false], 'a plain-HTTP LAN origin');
    return page;
}

/** A second tab on the chat `first` has open. */
async function openSameChat(first: Page): Promise<Page> {
    const chatId = await first.evaluate(() => SillyTavern!.getContext().chatId);
    const page = await openTab();
    await openCharacter(page);
    await page.waitForFunction((id) => SillyTavern!.getContext().chatId === id, chatId);
    return page;
}

/** A new chat with Agent Mode on, in a new tab; its engine started (the panel opened), so it has swept. */
async function openAgentTab(): Promise<Page> {
    const page = await openTab();
    await openCharacter(page);
    await slash(page, '/newchat');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
    await slash(page, '/agent on');
    return page;
}

async function openPanel(page: Page): Promise<void> {
    await page.click('#tavern_agent_button .drawer-icon');
    await page.locator('aside.tavern-agent').waitFor();
}

async function waitFor(what: string, holds: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await holds())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
    }
}

const isEnded = (state: string) => ['completed', 'failed', 'cancelled', 'interrupted'].includes(state);

const FROZEN_TEXT = 'Written by the frozen tab.';
const TAKEN_TEXT = 'Written by the tab that took over.';

test('a tab frozen past its lease wakes after another tab took the chat over: it never commits, and leaves the run as the other tab did', async () => {
    const a = await openAgentTab();
    await openPanel(a);
    const b = await openSameChat(a);
    session.mock.reset();
    // Tab A's model answers (a write and a commit) while tab A is frozen; every later request is tab B's.
    let asked = 0;
    session.mock.setResponder((): MockTurn => {
        asked += 1;
        if (asked === 1) return { ...calls(call('workspace_write_file', { path: 'output/main.md', content: FROZEN_TEXT }), call('workspace_commit', {})), delayMs: 8_000 };
        if (asked === 2) return { ...calls(call('workspace_write_file', { path: 'output/main.md', content: TAKEN_TEXT }), call('workspace_commit', {})), delayMs: 1_500 };
        return calls(call('workspace_finish', {}));
    });
    const chatId = await a.evaluate(() => SillyTavern!.getContext().chatId);
    await a.fill('#send_textarea', 'Write something while I look away.');
    await a.click('#send_but');
    await session.mock.waitForGenerations(1);

    // Tab A (page and worker) is frozen while its model thinks: its lease runs out, unrenewed.
    const devtools = await tabs.context.newCDPSession(a);
    await devtools.send('Page.setWebLifecycleState', { state: 'frozen' });
    const frozenAt = Date.now();
    let runA = '';
    let wokeAt = 0;
    try {
        await waitFor("tab A's lease ran out", async () => {
            const run = (await storedRuns(b)).find((stored) => stored.chatId === chatId && !isEnded(stored.state));
            runA = run?.runId ?? '';
            return run?.lease !== undefined && run.lease.until < Date.now();
        }, 25_000);
        // Tab B sees the chat as it is now, and starts a run on it: its claim takes the chat over.
        // (A SillyTavern function the extension's context type does not name.)
        await b.evaluate(() => (SillyTavern!.getContext() as unknown as { reloadCurrentChat(): Promise<void> }).reloadCurrentChat());
        await b.evaluate(() => void SillyTavern!.getContext().executeSlashCommandsWithOptions('/trigger', { handleParserErrors: false, handleExecutionErrors: false }));
        await waitFor("tab B's run holds the chat", async () => (await storedRuns(b)).some((run) => run.runId !== runA && (run.lease?.until ?? 0) > Date.now()));
    } finally {
        await devtools.send('Page.setWebLifecycleState', { state: 'active' });
        wokeAt = Date.now();
    }
    assert.ok(wokeAt - frozenAt < 30_000, `frozen for ${wokeAt - frozenAt} ms: under the page's heartbeat deadline, so the worker lives to wake`);
    const answered = session.mock.generations()[0]!.endedAt ?? 0;
    assert.ok(answered > frozenAt && answered < wokeAt, "tab A's model answered while tab A was frozen");

    // Tab A wakes with its model's answer: a commit it must not make.
    // Polled: a page woken from a freeze may draw no frame until it is shown again.
    await a.waitForFunction(() => !globalThis.TavernAgent!.status().run, undefined, { timeout: 30_000, polling: 250 });
    assert.deepEqual((await chatLines(a)).filter((line) => line.mes === FROZEN_TEXT || line.runId === runA), [], 'tab A wrote nothing into its chat');
    await a.locator('#toast-container', { hasText: 'Another tab took this run over' }).waitFor({ timeout: 10_000 });
    await b.waitForFunction((text) => SillyTavern!.getContext().chat.some((m) => m.mes === text) && !globalThis.TavernAgent!.status().run, TAKEN_TEXT, { timeout: 60_000, polling: 250 });
    assert.deepEqual((await chatLines(b)).filter((line) => line.runId).map((line) => line.mes), [TAKEN_TEXT], "the chat holds tab B's reply alone");
    const types = await journalTypes(b, runA);
    assert.equal(types.includes('commit'), false, "tab A's run journaled no commit");
    assert.deepEqual(types.slice(-2), ['run-fail', 'run-state'], "its journal ends where tab B's sweep marked it interrupted");
    const left = (await storedRuns(b)).find((run) => run.runId === runA)!;
    assert.deepEqual([left.state, left.messageId, left.lease], ['interrupted', null, undefined], 'the record is as tab B left it');
    await a.close();
    await b.close();
});

test('two tabs start a run on one chat in the same instant: exactly one runs, the other is told the chat is busy', { timeout: 300_000 }, async () => {
    const a = await openAgentTab();
    await openPanel(a);
    const b = await openSameChat(a);
    await openPanel(b);
    session.mock.reset();
    // The winner's model takes its time: a claim that comes late on a loaded machine still finds the chat held.
    session.mock.setResponder(() => ({ ...calls(call('workspace_write_file', { path: 'summaries/summary.md', content: 'Summed up once.' }), call('workspace_finish', {})), delayMs: 5_000 }));
    // Tab A holds the runs store: both runs reach their claim and wait there, then go in the same instant.
    // As source text: a named function inside an evaluate callback would not survive tsx's compilation (browser.ts).
    await a.evaluate(`new Promise((resolve, reject) => {
        const open = indexedDB.open('tavern-agent:default-user');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
            const store = open.result.transaction('runs', 'readwrite').objectStore('runs');
            globalThis.releaseRuns = false;
            const spin = () => {
                if (!globalThis.releaseRuns) store.get('nothing').onsuccess = spin;
            };
            spin();
            resolve();
        };
    })`);
    const start = (page: Page) =>
        page.evaluate(() => {
            (globalThis as { raced?: Promise<unknown> }).raced = SillyTavern!.getContext().executeSlashCommandsWithOptions('/agent run Sum up the chat so far.', { handleParserErrors: false, handleExecutionErrors: false });
        });
    await Promise.all([start(a), start(b)]);
    await Promise.all([a, b].map((page) => page.waitForFunction(() => Boolean(globalThis.TavernAgent!.status().run), undefined, { timeout: 30_000 })));
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    assert.equal(session.mock.generations().length, 0, 'neither run went past its claim while the store was held');
    // The refused tab's warning shows while the winner still works (a toast fades in seconds).
    const warned = Promise.any([a, b].map((page) => page.locator('#toast-container', { hasText: 'An agent is already working on this chat in another tab' }).waitFor({ timeout: 30_000 }).then(() => page)));
    warned.catch(() => undefined);
    await a.evaluate(() => void ((globalThis as { releaseRuns?: boolean }).releaseRuns = true));

    const piped = await Promise.all([a, b].map((page) => page.evaluate(async () => String(((await (globalThis as { raced?: Promise<{ pipe?: unknown }> }).raced) ?? {}).pipe ?? ''))));
    const chatId = await a.evaluate(() => SillyTavern!.getContext().chatId);
    const runs = (await storedRuns(a)).filter((run) => run.chatId === chatId);
    assert.deepEqual([...piped].sort(), ['', 'Summed up once.'], `one run summed up, the other never ran: ${JSON.stringify(runs)}`);
    assert.equal(await warned, piped[0] === '' ? a : b, 'the tab whose run never ran is told the chat is busy');
    assert.deepEqual(runs.map((run) => run.state), ['completed'], 'one run stored: the busy one left nothing behind');
    assert.equal(session.mock.generations().length, 1, "the model was asked by one run");
    await a.close();
    await b.close();
});
