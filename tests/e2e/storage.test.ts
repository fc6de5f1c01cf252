// Storage and imports end to end (issue 13 items 4–5): a run whose writes meet a storage quota fails
// with store.quota_exceeded, the engine starts again after a reload and earlier runs are intact; crafted imports leave the panel usable; the Storage section counts and deletes a chat's runs.
// Run: npm test -- tests/e2e/storage.test.ts
import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openCharacter, waitForSillyTavernReady } from '../harness/browser';
import { agentOn, call, calls, openAgentChat } from '../harness/agent';
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

function replyRun(text: string) {
    return [{ ...calls(call('workspace_write_file', { path: 'output/main.md', content: text })) }, { ...calls(call('workspace_commit', {}), call('workspace_finish', {})) }];
}

async function send(page: Page, text: string): Promise<void> {
    await page.fill('#send_textarea', text);
    await page.click('#send_but');
}

async function runEnded(page: Page, state: string): Promise<void> {
    await page.locator(`.tavern-agent__run[data-run-state="${state}"]`).waitFor({ timeout: 60_000 });
}

async function openHistory(page: Page): Promise<void> {
    const history = page.locator('details.tavern-agent__history, details:has(> summary:has-text("History"))').first();
    if (!(await history.evaluate((el) => (el as HTMLDetailsElement).open))) await history.locator('summary').first().click();
}

/**
 * A storage quota for the extension's worker: any record over QUOTA_RECORD_CHARS is refused with the
 * browser's QuotaExceededError, as a full disk refuses it. (Chromium's CDP Storage.overrideQuotaForOrigin
 * has no effect on this build — the estimate keeps its 10 GB quota and writes go through — so the quota is
 * put in front of IndexedDB in the worker script instead.)
 */
const QUOTA_RECORD_CHARS = 1_000_000;
const QUOTA_SHIM = `
for (const method of ['put', 'add']) {
    const original = IDBObjectStore.prototype[method];
    IDBObjectStore.prototype[method] = function (value, ...rest) {
        let size = 0;
        try { size = JSON.stringify(value)?.length ?? 0; } catch {}
        if (size > ${QUOTA_RECORD_CHARS}) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
        return original.call(this, value, ...rest);
    };
}
`;

test('a storage quota fails the run with store.quota_exceeded; after a reload the engine starts and the earlier run is whole', async () => {
    const { page } = await session.open();
    await page.context().route('**/tavern-agent/dist/worker.js', async (route) => {
        const response = await route.fetch();
        await route.fulfill({ response, body: QUOTA_SHIM + (await response.text()) });
    });
    await waitForExtension(page);
    await openCharacter(page);
    await slash(page, '/newchat');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
    await agentOn(page);
    await page.click('#tavern_agent_button .drawer-icon');
    session.mock.reset();
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    try {
        session.mock.enqueue(...replyRun('The first reply.'));
        await send(page, 'Hello.');
        await runEnded(page, 'completed');

        session.mock.enqueue({ ...calls(call('workspace_write_file', { path: 'scratch/huge.md', content: 'x'.repeat(QUOTA_RECORD_CHARS + 10) })) }, ...replyRun('Never sent.'));
        await send(page, 'Write a lot.');
        await runEnded(page, 'failed').catch(async (error: unknown) => {
            const shown = await page.locator('.tavern-agent__run').first().getAttribute('data-run-state').catch(() => null);
            throw new Error(`the run did not fail (shown: ${shown}): ${String(error)}`);
        });
        await page.locator('.tavern-agent__run [role="alert"] code', { hasText: 'store.quota_exceeded' }).waitFor();

        // The engine opens again (the quota still in place), and history and delete are reachable.
        await page.reload({ waitUntil: 'domcontentloaded' });
        await waitForSillyTavernReady(page);
        await waitForExtension(page);
        // Back to the same chat (the character's newest).
        await openCharacter(page);
        await page.waitForFunction(() => SillyTavern!.getContext().chat.some((message) => message.mes === 'The first reply.'));
        if (!(await page.locator('.tavern-agent').count())) await page.click('#tavern_agent_button .drawer-icon');
        await page.locator('[data-engine="ready"]').waitFor({ timeout: 60_000 });
        await openHistory(page);
        await page.locator('[data-history-run][data-state="completed"]').waitFor();
        await page.locator('[data-history-run][data-state="failed"]').waitFor();
        assert.equal(await page.locator('[data-history-run][data-state="running"]').count(), 0, 'no run is left running');
        await page.locator('[data-history-run][data-state="completed"] .tavern-agent__history-open').click();
        await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor();
        const lines = await page.evaluate(() => SillyTavern!.getContext().chat.map((message) => message.mes));
        assert.ok(lines.includes('The first reply.'), 'the earlier reply is in the chat');
        assert.ok(!lines.includes('Never sent.'));
        assert.deepEqual(pageErrors, []);
    } finally {
        await closePage(page);
    }
});

test('crafted imports are refused with a message and the panel stays usable; the Storage section counts and deletes runs', async () => {
    const page = await openAgentChat(session);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
    session.mock.enqueue(...replyRun('A reply to keep.'));
    await send(page, 'Hello.');
    await runEnded(page, 'completed');
    await openHistory(page);

    const bad = (name: string, data: unknown) => {
        const file = path.join(artifacts, `storage-${name}.json`);
        writeFileSync(file, JSON.stringify(data));
        return file;
    };
    const run = { v: 1, runId: 'x', chatKey: 'c', chatId: 'c', profileId: 'writer', generationType: 'normal', state: 'completed', messageId: null, error: null, createdAt: 1, updatedAt: 1 };
    const event = (seq: number, type: string, payload: unknown) => ({ v: 1, runId: 'x', seq, at: 1, type, payload });
    const crafted = [
        bad('wrong-payload', { kind: 'tavern-agent.run', version: 1, run, events: [event(0, 'tool-call-start', { callId: { html: '<img src=x onerror=alert(1)>' } })], files: [], checkpoints: [] }),
        bad('unknown-type', { kind: 'tavern-agent.run', version: 1, run, events: [event(0, '<b>boom</b>', null)], files: [], checkpoints: [] }),
        bad('delta-only', { kind: 'tavern-agent.run', version: 1, run, events: [], files: [], checkpoints: [{ v: 1, runId: 'x', seq: 0, path: 'output/main.md', delta: '@@ -1 +1 @@\n-a\n+b\n', full: null, at: 1 }] }),
        bad('not-an-export', { hello: 'world' }),
    ];
    for (const file of crafted) {
        await page.setInputFiles('#tavern_agent_run_import', file);
        await page.locator('.tavern-agent__transfer [role="alert"]', { hasText: 'run.import_invalid' }).waitFor();
    }
    assert.equal(await page.locator('img[src="x"]').count(), 0, 'payload text is never HTML');
    assert.equal(await page.locator('[data-history-run][data-state="completed"]').count(), 1, 'nothing was imported');

    // A profile file with a reserved id is refused, field by field.
    await page.locator('#tavern_agent_profiles > summary').click();
    const profiles = bad('proto-profile', { kind: 'tavern-agent.profiles', version: 3, profiles: [{ id: '__proto__', displayName: 'P' }] });
    await page.setInputFiles('#tavern_agent_profile_import', profiles);
    await page.locator('[data-testid="profile-import-errors"] [data-path="id"]').first().waitFor();

    // The panel still works: the Storage section counts this chat's run, and deletes it.
    await page.locator('#tavern_agent_storage > summary').click();
    await page.locator('[data-testid="storage-usage"]').waitFor();
    const chatKey = await page.evaluate(() => String(SillyTavern!.getContext().chatMetadata.integrity));
    const mine = page.locator(`[data-testid="storage-chat"][data-chat-key="${chatKey}"]`);
    await mine.waitFor();
    assert.equal(await mine.getAttribute('data-runs'), '1');
    await mine.locator('[data-testid="storage-delete-chat"]').click();
    await page.locator('dialog[open] .popup-button-ok').click();
    await mine.waitFor({ state: 'detached' });
    await page.locator('[data-history-run]').first().waitFor({ state: 'detached' });
    assert.equal(await page.locator('[data-testid="error-boundary"]').count(), 0);
    assert.deepEqual(pageErrors, []);
    await closePage(page);
});
