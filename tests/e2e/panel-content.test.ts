import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openCharacter, saveSettingsNow, sendMessage, stPageOf, waitForSillyTavernReady } from '../harness/browser';
import { WRITER_PROFILE } from '../../src/contract/profile';
import { call, calls, chatLines, openAgentChat, openSectionUntilShown, restoreSettingsAfter } from '../harness/agent';
import { REPO_ROOT, slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';
import type { MockTurn } from '../harness/mock-model';

/** Issue 16 items 5-8: undo that says where it acts, /agent typed alone, the capability matrix, history. */

const artifacts = path.join(REPO_ROOT, 'test-results');
let session: TavernSession;

before(async () => {
    mkdirSync(artifacts, { recursive: true });
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const DESKTOP = { width: 1280, height: 900 };

/**
 * A new chat with Seraphina, Agent Mode on, the panel open; the mock's records cleared; page errors are
 * collected. The page the last test used is taken again (a page load is seconds of CPU): each test keeps to its
 * own chat, and the two that change the Writer profile put it back before they end.
 */
async function openChat() {
    const page = await openAgentChat(session, { reuse: true, viewport: DESKTOP });
    return { page, pageErrors: stPageOf(page).pageErrors };
}

/** Draft, patch, commit, finish: checkpoints of a write, a patch and a commit of output/main.md. */
function patchRun(first = 'Old text.', second = 'New text.'): MockTurn[] {
    return [
        calls(call('workspace_write_file', { path: 'output/main.md', content: `${first}\nThe forest is quiet.` })),
        calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: first, new_string: second })),
        calls(call('workspace_commit', {}), call('workspace_finish', { reason: 'done' })),
    ];
}

async function waitForRunState(page: Page, state: string): Promise<void> {
    await page.locator(`.tavern-agent__run[data-run-state="${state}"]`).waitFor({ timeout: 30_000 });
}

async function clearToasts(page: Page): Promise<void> {
    await page.evaluate(() => document.querySelectorAll('#toast-container .toast').forEach((toast) => toast.remove()));
}

test('/agent status typed alone answers in a toast; piped it only passes its value on', async () => {
    const { page, pageErrors } = await openChat();
    await clearToasts(page);
    // Typed in the chat box and sent, as a user does.
    await page.fill('#send_textarea', '/agent status');
    await page.click('#send_but');
    const toast = page.locator('#toast-container .toast', { hasText: 'Agent Mode is on in this chat.' });
    await toast.waitFor();
    assert.match(await toast.innerText(), /Profile: writer\. No run is working\./);
    assert.equal((await chatLines(page)).length, 1, 'a command is not a message');

    // Piped, in the chat box too: the value goes on to the next command, and no toast is shown.
    await clearToasts(page);
    await page.fill('#send_textarea', '/agent status | /setvar key=agentStatus {{pipe}}');
    await page.click('#send_but');
    // Waits for the effect, the variable set: SillyTavern's success mark on the form lasts about a second, which
    // a starved page's polling missed on CI. The value is the one the wait saw: a second read came back empty
    // once on CI, so the chat it was read in is checked below instead.
    const chatId = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId());
    const piped = String(
        await (
            await page.waitForFunction(
                async () => String((await SillyTavern!.getContext().executeSlashCommandsWithOptions('/getvar agentStatus'))?.pipe ?? '') || false,
                undefined,
                { polling: 250, timeout: 30_000 },
            )
        ).jsonValue(),
    );
    assert.equal(await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()), chatId, 'the same chat');
    // The raw value in the message: it was once read without a profile id on a loaded machine, cause not found.
    assert.equal(JSON.parse(piped).profileId, 'writer', `the piped status as read: ${piped}`);
    assert.equal(JSON.parse(piped).enabled, true, `the piped status as read: ${piped}`);
    assert.equal(await page.locator('#toast-container .toast', { hasText: 'Agent Mode is' }).count(), 0, 'no toast when the value goes on');
    // Run by a script (another extension's executeSlashCommands), the value is all there is.
    assert.equal(JSON.parse(await slash(page, '/agent status')).enabled, true);
    assert.equal(await page.locator('#toast-container .toast', { hasText: 'Agent Mode is' }).count(), 0);

    await page.fill('#send_textarea', '/agent off');
    await page.click('#send_but');
    await page.locator('#toast-container .toast', { hasText: 'Agent Mode is off in this chat.' }).waitFor();
    assert.deepEqual(pageErrors, []);
});

test('a toast says a name it was given as text, even with toastr set to read HTML by another extension', async () => {
    const { page, pageErrors } = await openChat();
    await clearToasts(page);
    // SillyTavern escapes toasts by default; another extension may turn that off for the whole page.
    await page.evaluate(() => ((globalThis as unknown as { toastr: { options: { escapeHtml: boolean } } }).toastr.options.escapeHtml = false));
    try {
        await page.fill('#send_textarea', '/agent profile <b>bold</b>');
        await page.click('#send_but');
        const toast = page.locator('#toast-container .toast', { hasText: 'does not exist' });
        await toast.waitFor();
        assert.match(await toast.innerText(), /<b>bold<\/b>/, 'the name as typed, tags and all');
        assert.equal(await toast.locator('b').count(), 0, 'no element made from it');
    } finally {
        await page.evaluate(() => ((globalThis as unknown as { toastr: { options: { escapeHtml: boolean } } }).toastr.options.escapeHtml = true));
    }
    assert.deepEqual(pageErrors, []);
});

test('checkpoints are labelled by what made them; the commit shows its text; "Put this version in the chat" replaces the reply', async () => {
    const { page, pageErrors } = await openChat();
    session.mock.enqueue(...patchRun());
    await sendMessage(page, 'Describe the forest.');
    await waitForRunState(page, 'completed');
    const runId = (await chatLines(page)).at(-1)!.runId;
    assert.ok(runId);

    await page.locator('.tavern-agent__run-files > summary').click();
    const items = page.locator('.tavern-agent__run-files li[data-checkpoint]');
    await items.first().waitFor();
    const main = await items.evaluateAll((lis) =>
        lis.filter((li) => li.textContent?.includes('output/main.md')).map((li) => ({ seq: li.getAttribute('data-checkpoint'), kind: li.getAttribute('data-kind'), label: li.querySelector('[data-checkpoint-kind]')?.textContent ?? '' })),
    );
    assert.deepEqual(main.map((c) => c.kind), ['write', 'patch', 'commit']);
    assert.match(main[2]!.label, /committed to the chat · v2/);

    // The commit checkpoint is the text as it went into the chat, not "+0 −0 No change".
    const commit = page.locator(`.tavern-agent__run-files li[data-checkpoint="${main[2]!.seq}"]`);
    await commit.locator('button.tavern-agent__link').click();
    await commit.locator('pre[data-committed="true"]', { hasText: 'New text.' }).waitFor();
    assert.equal(await commit.locator('.tavern-agent__diff-stats').count(), 0);
    await commit.locator('[data-action="put-in-chat"]').waitFor();

    // Each restore says where it acts.
    const write = page.locator(`.tavern-agent__run-files li[data-checkpoint="${main[0]!.seq}"]`);
    await write.locator('button.tavern-agent__link').click();
    await write.locator('.tavern-agent__restore-choice', { hasText: 'The chat is not changed.' }).waitFor();
    await write.locator('.tavern-agent__restore-choice', { hasText: "Replaces this run's reply in the chat" }).waitFor();
    await write.locator('[data-action="put-in-chat"]').click();
    await page.locator('#toast-container', { hasText: "This version is now the run's reply in the chat." }).waitFor();
    const last = (await chatLines(page)).at(-1)!;
    assert.equal(last.mes, 'Old text.\nThe forest is quiet.');
    assert.equal(last.runId, runId, 'the same message, still the run\'s');
    assert.equal((await chatLines(page)).length, 3, 'replaced, not added');
    await page.locator('#chat .mes').last().locator('.mes_text', { hasText: 'Old text.' }).waitFor();
    // Saved: a reload of the chat shows the same text.
    const saved = await page.evaluate(async () => {
        const context = SillyTavern!.getContext();
        await (context as unknown as { reloadCurrentChat(): Promise<void> }).reloadCurrentChat();
        return context.chat.at(-1)!.mes;
    });
    assert.equal(saved, 'Old text.\nThe forest is quiet.');
    // It left a trace like a restore: a commit row in the timeline, the file's text again, and a commit
    // checkpoint; the earlier commit is no longer called the text in the chat.
    await page.locator('.tavern-agent__run .tavern-agent__event[data-kind="commit"]').nth(1).waitFor();
    await page.locator('.tavern-agent__run .tavern-agent__event[data-event-type="checkpoint-restore"]').waitFor();
    const after = await items.evaluateAll((lis) =>
        lis.filter((li) => li.textContent?.includes('output/main.md')).map((li) => ({ kind: li.getAttribute('data-kind'), replaced: li.getAttribute('data-replaced'), label: li.querySelector('[data-checkpoint-kind]')?.textContent ?? '' })),
    );
    assert.deepEqual(after.map((c) => c.kind), ['write', 'patch', 'commit', 'commit']);
    assert.equal(after[2]!.replaced, 'true');
    assert.match(after[2]!.label, /committed earlier, since replaced/);
    assert.match(after[3]!.label, /committed to the chat · v3/);
    await items.last().locator('button.tavern-agent__link').click();
    await items.last().locator('pre[data-committed="true"]', { hasText: 'Old text.' }).waitFor();
    assert.deepEqual(pageErrors, []);
});

test('History says when a run\'s reply was replaced by a later run, and offers no jump to it', async () => {
    const { page, pageErrors } = await openChat();
    session.mock.enqueue(...patchRun('First draft.', 'First reply.'));
    await sendMessage(page, 'Hello.');
    await waitForRunState(page, 'completed');
    const firstRun = (await chatLines(page)).at(-1)!.runId!;
    // Regenerate: a second run replaces the first one's reply.
    session.mock.enqueue(...patchRun('Second draft.', 'Second reply.'));
    await page.locator('.tavern-agent__run-header [data-action="retry"]').click();
    await page.waitForFunction((first) => {
        const last = SillyTavern!.getContext().chat.at(-1) as { extra?: { tavern_agent?: { runId?: string } } } | undefined;
        return Boolean(last?.extra?.tavern_agent?.runId) && last!.extra!.tavern_agent!.runId !== first && document.body.dataset.generating === undefined;
    }, firstRun);
    await waitForRunState(page, 'completed');
    const secondRun = (await chatLines(page)).at(-1)!.runId!;

    await openSectionUntilShown(page, '.tavern-agent__history', `[data-history-run="${firstRun}"]`);
    const first = page.locator(`[data-history-run="${firstRun}"]`);
    const second = page.locator(`[data-history-run="${secondRun}"]`);
    await first.waitFor();
    await second.waitFor();
    assert.equal(await first.getAttribute('data-reply'), 'replaced');
    assert.match(await first.locator('[data-testid="reply-note"]').innerText(), new RegExp(`Replaced by a later run \\(#${secondRun.slice(0, 8)}\\)`));
    assert.equal(await first.locator('[data-action="jump"]').count(), 0, 'no jump to a message another reply took');
    assert.equal(await second.getAttribute('data-reply'), 'shown');
    assert.equal(await second.locator('[data-testid="reply-note"]').count(), 0);
    await second.locator('[data-action="jump"]').waitFor();
    // The first run's own header does not jump to the message either: it says what happened.
    await first.locator('.tavern-agent__history-open').click();
    const shownRun = page.locator(`.tavern-agent__run[data-run-id="${firstRun}"]`);
    await shownRun.waitFor();
    await clearToasts(page);
    await shownRun.locator('.tavern-agent__run-header [data-action="jump"]').click();
    await page.locator('#toast-container .toast', { hasText: "This run's reply was replaced" }).waitFor();
    assert.deepEqual(pageErrors, []);
});

test('the profile editor is a capability matrix: a glob checks its members, unchecking one denies just it', async (t) => {
    const { page, pageErrors } = await openChat();
    await restoreSettingsAfter(t, page, { save: true }); // the next test takes this page: the Writer as it was
    await page.locator('#tavern_agent_profiles > summary').waitFor();
    assert.equal(await page.locator('#tavern_agent_profiles .tavern-agent__profiles-body').count(), 0, 'the closed section builds no editor');
    await page.click('#tavern_agent_profiles > summary');
    await page.click('[data-testid="profile-list"] [data-profile-id="writer"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="profile-form"]')?.getAttribute('data-profile-id') === 'writer');
    const matrix = page.locator('[data-testid="capability-matrix"]');
    await matrix.waitFor();
    const groups = await matrix.locator('[data-group]').evaluateAll((sections) => sections.map((s) => s.getAttribute('data-group')));
    assert.deepEqual(groups.slice(0, 4), ['context', 'workspace-read', 'workspace-write', 'control']);
    assert.ok(groups.includes('dice') && groups.includes('agents') && groups.includes('skills'));
    const box = (name: string) => matrix.locator(`[data-tool="${name}"] input`);
    assert.equal(await box('chat.search').isChecked(), true, 'the writer allows chat.*: chat.search is checked');
    assert.equal(await box('worldinfo.read_activated').isChecked(), true);
    assert.equal(await box('dice.roll').isChecked(), false);
    assert.equal(await page.locator('[data-testid="profile-advanced"]').evaluate((el) => (el as HTMLDetailsElement).open), false, 'the rest waits under Advanced');

    await page.evaluate(() => document.querySelector('#tavern_agent_profiles')?.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(artifacts, 'panel-content-profile-editor-1280.png') });

    await box('chat.search').uncheck();
    assert.equal(await box('chat.search').isChecked(), false);
    assert.equal(await box('chat.read_messages').isChecked(), true, 'the rest of chat.* stays');
    assert.equal(await matrix.locator('[data-group="context"] .tavern-agent__capability-head input').evaluate((el) => (el as HTMLInputElement).indeterminate), true);
    // Closing the section and opening it again keeps the unsaved change.
    await page.click('#tavern_agent_profiles > summary');
    await page.click('#tavern_agent_profiles > summary');
    assert.equal(await box('chat.search').isChecked(), false, 'the draft survived closing the section');
    await page.locator('[data-testid="profile-advanced"] > summary').click();
    assert.equal(await page.inputValue('#tavern_agent_profile_tools_deny'), 'chat.search');
    await page.click('[data-testid="profile-save"]');
    await page.locator('[data-profile-id="writer"] [data-testid="profile-changed"]').waitFor();
    const stored = await page.evaluate(() => (SillyTavern!.getContext().extensionSettings.tavern_agent as { profiles: Record<string, { tools: { allow: string[]; deny: string[] } }> }).profiles.writer!.tools);
    assert.ok(stored.allow.includes('chat.*'));
    assert.deepEqual(stored.deny, ['chat.search']);

    // What the model is offered follows: no chat_search, chat_read_messages still there.
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'output/main.md', content: 'Hi.' })), calls(call('workspace_commit', {}), call('workspace_finish', {})));
    await sendMessage(page, 'Hello.');
    // Under load sendMessage can return before the run began: its committed reply is the sure sign it ran.
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Hi.', undefined, { timeout: 30_000 });
    const offered = (session.mock.requests().find((r) => r.kind === 'generate' && Array.isArray((r.body as { tools?: unknown[] }).tools))!.body as { tools: Array<{ function: { name: string } }> }).tools.map((tool) => tool.function.name);
    assert.ok(!offered.includes('chat_search'));
    assert.ok(offered.includes('chat_read_messages'));
    assert.deepEqual(pageErrors, []);
});

// Last: it loads its page again (to show the run was kept), so no test takes the page after it.
test('a run that fails before it starts (its connection profile is gone) is kept: the timeline and History show it failed with its reason, after a reload too', async () => {
    const { page, pageErrors } = await openChat();
    const chatId = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId());
    const writer = { ...WRITER_PROFILE, model: { mode: 'connection-profile', profileId: 'deleted-claude', profileName: 'Deleted Claude' } };
    await page.evaluate((profile) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, any>;
        settings.tavern_agent ??= { profiles: {} };
        settings.tavern_agent.profiles ??= {};
        settings.tavern_agent.profiles.writer = profile;
    }, writer);
    await sendMessage(page, 'Write something.');
    const failed = page.locator('.tavern-agent__run[data-run-state="failed"]');
    await failed.waitFor({ timeout: 30_000 });
    const runId = await failed.getAttribute('data-run-id');
    assert.ok(runId);
    assert.match(await failed.locator('.tavern-agent__run-header [role="alert"]').innerText(), /no longer exists[\s\S]*agent profile "Writer", connection profile "Deleted Claude"[\s\S]*profile\.connection_missing/);
    assert.equal(session.mock.requests().length, 0, 'no model was asked');

    // Kept in the journal, not only shown: a new page of the same chat lists it in History and opens it.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page);
    await page.waitForFunction((id) => SillyTavern!.getContext().getCurrentChatId() === id, chatId);
    await page.click('#tavern_agent_button .drawer-icon');
    const item = `[data-history-run="${runId}"][data-state="failed"]`;
    await openSectionUntilShown(page, '.tavern-agent__history', item);
    await page.locator(item).locator('.tavern-agent__history-open').click();
    const shown = page.locator(`.tavern-agent__run[data-run-id="${runId}"][data-run-state="failed"]`);
    await shown.waitFor();
    assert.match(await shown.locator('.tavern-agent__run-header [role="alert"]').innerText(), /no longer exists/);
    assert.deepEqual(pageErrors, []);
    // The broken Writer was saved with SillyTavern's settings: put the built-in back, or a test after this one
    // would run with a connection that no longer exists.
    await page.evaluate(() => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles?: Record<string, unknown> } | undefined>;
        delete settings.tavern_agent?.profiles?.writer;
    });
    await saveSettingsNow(page);
    await closePage(page);
});
