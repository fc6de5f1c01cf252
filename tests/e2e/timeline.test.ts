import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Dialog, Page } from 'playwright-core';
import { openCharacter, sendMessage, stPageOf, waitForSillyTavernReady } from '../harness/browser';
import { agentOn, call, calls, chatLines, openAgentChat, openSectionUntilShown } from '../harness/agent';
import { REPO_ROOT, slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';
import type { MockTurn } from '../harness/mock-model';

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
const PHONE = { width: 390, height: 844 };

/**
 * A new chat, Agent Mode on, the panel open; page errors are collected. In English the page the last test used
 * is taken again (a page load is seconds of CPU, and every test here keeps to its own chat); in another language
 * it is a fresh page loaded again in it.
 */
async function openTimeline(viewport = DESKTOP, language: string | null = null) {
    if (!language) {
        const page = await openAgentChat(session, { reuse: true, viewport });
        return { page, pageErrors: stPageOf(page).pageErrors };
    }
    const opened = await session.open(viewport);
    const { page } = opened;
    // SillyTavern reads its language at load: set it, then load again.
    await page.evaluate((code) => localStorage.setItem('language', code), language);
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page);
    await slash(page, '/newchat');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
    await agentOn(page);
    await page.click('#tavern_agent_button .drawer-icon');
    session.mock.reset();
    return opened;
}

/** Disconnects the observer a test left on the page (the next test takes the page again). */
function stopWatching(page: Page): Promise<void> {
    return page.evaluate(() => (globalThis as { __observer?: MutationObserver }).__observer?.disconnect());
}

/** Draft, revise with a patch (after a slow model turn, to watch it live), commit, finish. */
function patchRun(): MockTurn[] {
    return [
        { text: 'Drafting the scene.', reasoning: 'Start short.', usage: { input: 100, output: 10 }, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'Old text.\nThe forest is quiet.' })) },
        { delayMs: 1500, usage: { input: 200, output: 20 }, ...calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'Old text.', new_string: 'New text.' })) },
        { usage: { input: 300, output: 30 }, ...calls(call('workspace_commit', {}), call('workspace_finish', { reason: 'done' })) },
    ];
}

interface ShownRow {
    key: string;
    kind: string;
    status: string | null;
    type: string | null;
    title: string;
}

/** The top-level rows the timeline draws, in order. */
function shownRows(page: Page): Promise<ShownRow[]> {
    return page.$$eval('.tavern-agent__run .tavern-agent__timeline-frame > ol > li > .tavern-agent__event', (rows) =>
        rows.map((row) => ({
            key: row.getAttribute('data-row-key') ?? '',
            kind: row.getAttribute('data-kind') ?? '',
            status: row.getAttribute('data-status'),
            type: row.getAttribute('data-event-type'),
            title: row.querySelector('.tavern-agent__event-title')?.textContent ?? '',
        })),
    );
}

function row(page: Page, title: string) {
    return page.locator('.tavern-agent__run .tavern-agent__event', { has: page.locator('.tavern-agent__event-title', { hasText: title }) }).first();
}

async function waitForRunState(page: Page, state: string): Promise<void> {
    await page.locator(`.tavern-agent__run[data-run-state="${state}"]`).waitFor({ timeout: 30_000 });
}

const FINAL_ROWS = [
    'model:completed:Model #1',
    'tool:completed:workspace.write_file',
    'model:completed:Model #2',
    'tool:completed:workspace.apply_patch',
    'model:completed:Model #3',
    'tool:completed:workspace.commit',
    'tool:completed:workspace.finish',
    'commit::Committed to chat',
    'note::Finished',
];

test('a scripted run shows live, in order, with the right statuses, then its header totals', async () => {
    const { page, pageErrors } = await openTimeline();
    session.mock.enqueue(...patchRun());
    // Every row state the page ever shows, in order: pushed events, not a reload at the end.
    await page.evaluate(() => {
        const seen: string[] = [];
        (globalThis as Record<string, unknown>).__timelineSeen = seen;
        const observer = new MutationObserver(() => {
            document.querySelectorAll('.tavern-agent__run .tavern-agent__event').forEach((el) => {
                const entry = `${el.getAttribute('data-row-key')}:${el.getAttribute('data-status') ?? ''}`;
                if (!seen.includes(entry)) seen.push(entry);
            });
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status'] });
        // Disconnected at the end (stopWatching): the next test takes this page again.
        (globalThis as { __observer?: MutationObserver }).__observer = observer;
    });
    await page.fill('#send_textarea', 'Describe the forest.');
    await page.click('#send_but');
    // Mid-run, during the slow second model turn: the first step is done, the second is waiting.
    await page.locator('.tavern-agent__run[data-run-state="running"] .tavern-agent__event[data-kind="model"][data-status="running"]', { hasText: 'Model #2' }).waitFor();
    const midRun = await shownRows(page);
    assert.deepEqual(
        midRun.map((r) => `${r.kind}:${r.status}:${r.title}`),
        ['model:completed:Model #1', 'tool:completed:workspace.write_file', 'model:running:Model #2'],
    );
    // Each row tells a screen reader "n of 3", the rows drawn while the list was shorter too.
    const places = await page.$$eval('.tavern-agent__run .tavern-agent__timeline-frame > ol > li', (rows) => rows.map((li) => `${li.getAttribute('aria-posinset')} of ${li.getAttribute('aria-setsize')}`));
    assert.deepEqual(places, ['1 of 3', '2 of 3', '3 of 3']);
    await waitForRunState(page, 'completed');
    const final = await shownRows(page);
    assert.deepEqual(final.map((r) => `${r.kind}:${r.status ?? ''}:${r.title}`), FINAL_ROWS);
    const seen = await page.evaluate(() => (globalThis as Record<string, unknown>).__timelineSeen as string[]);
    const model2 = seen.filter((entry) => entry.startsWith(`${final[2]!.key}:`));
    assert.deepEqual(model2.map((entry) => entry.split(':')[1]), ['running', 'completed'], 'the slow model turn was shown running, then answered');

    const stat = (label: string) => page.locator(`.tavern-agent__run-stats .tavern-agent__stat[title="${label}"]`).textContent();
    assert.equal(await stat('Tokens sent'), 'Tokens sent: 600', '100 + 200 + 300');
    assert.equal(await stat('Tokens received'), 'Tokens received: 60', '10 + 20 + 30');
    assert.equal(await stat('Model turns'), 'Model turns: 3');
    assert.equal(await stat('Tool calls'), 'Tool calls: 4');
    // Collapsed by default; opening a model turn shows its narration and reasoning.
    assert.equal(await page.locator('.tavern-agent__row-body').count(), 0);
    await row(page, 'Model #1').locator('.tavern-agent__row-toggle').click();
    await page.locator('.tavern-agent__row-body pre', { hasText: 'Drafting the scene.' }).waitFor();
    await page.locator('.tavern-agent__reasoning summary').click();
    await page.locator('.tavern-agent__reasoning pre', { hasText: 'Start short.' }).waitFor();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await row(page, 'Model #1').locator('[data-action="copy"]').click();
    await page.locator('#toast-container', { hasText: 'Copied' }).waitFor();
    assert.match(await page.evaluate(() => navigator.clipboard.readText()), /^Drafting the scene\.\n+\[Reasoning\]\nStart short\./);
    // The commit jumps to the message it wrote.
    await page.click('.tavern-agent__run-header [data-action="jump"]');
    await page.locator('#chat .mes.tavern-agent--flash').waitFor();
    assert.equal(await page.locator('#chat .mes.tavern-agent--flash').getAttribute('mesid'), String((await chatLines(page)).length - 1));
    await stopWatching(page);
    assert.deepEqual(pageErrors, []);
});

/** Whether the element's box lies inside the panel's scroll area as shown (false when it is not drawn). */
function shownInPanel(selector: string): boolean {
    const element = document.querySelector(selector);
    const scroller = element?.closest('.tavern-agent__scroll');
    if (!element || !scroller) return false;
    const box = element.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    return box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
}

function inPanelView(page: Page, selector: string): Promise<boolean> {
    return page.evaluate(shownInPanel, selector);
}

async function waitInPanelView(page: Page, selector: string): Promise<void> {
    await page.waitForFunction(shownInPanel, selector, { timeout: 5000 });
}

test('a live run of 60 calls in one turn keeps its newest row in view, draws only the rows near it, Latest brings it back, and its last rows are scrolled to', async () => {
    const { page, pageErrors } = await openTimeline();
    session.mock.enqueue(
        calls(...Array.from({ length: 60 }, () => call('workspace_list_files', {}))),
        { delayMs: 6000, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'Quiet.' }), call('workspace_commit', {}), call('workspace_finish', {})) },
    );
    // Every run state the header shows, in order.
    await page.evaluate(() => {
        const states: string[] = [];
        (globalThis as Record<string, unknown>).__runStates = states;
        const observer = new MutationObserver(() => {
            const state = document.querySelector('.tavern-agent__run')?.getAttribute('data-run-state');
            if (state && states.at(-1) !== state) states.push(state);
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-run-state'] });
        // Disconnected at the end (stopWatching): the next test takes this page again.
        (globalThis as { __observer?: MutationObserver }).__observer = observer;
    });
    await page.fill('#send_textarea', 'Look around.');
    await page.click('#send_but');
    const newest = '.tavern-agent__run[data-run-state="running"] .tavern-agent__event[data-kind="model"][data-status="running"]';
    await page.locator(newest, { hasText: 'Model #2' }).waitFor();
    // The panel scrolled to the end as the burst came (after its next layout).
    await page.waitForFunction(() => document.querySelector('.tavern-agent__scroll')!.scrollTop > 0);
    assert.ok(await inPanelView(page, newest), 'the running model turn, the newest row, is in view');
    const drawn = await page.locator('.tavern-agent__run .tavern-agent__timeline-frame > ol > li').count();
    assert.ok(drawn > 5 && drawn < 60, `only the rows near the end are drawn (${drawn} of 62)`);
    assert.equal(await page.locator('.tavern-agent__run .tavern-agent__timeline-frame > ol > li[aria-posinset="2"]').count(), 0, 'the first call, scrolled away, is not drawn');

    // Scrolling up stops following; Latest goes back to the newest row.
    await page.evaluate(() => {
        document.querySelector('.tavern-agent__scroll')!.scrollTop = 0;
    });
    const latest = page.locator('.tavern-agent__to-latest');
    await latest.waitFor();
    assert.equal(await inPanelView(page, newest), false, 'scrolled up: the newest row is out of view');
    await latest.click();
    await waitInPanelView(page, newest);
    await waitForRunState(page, 'completed');
    // The run's last rows come with its end, when following stops: they are still scrolled into view.
    const lastRow = `.tavern-agent__run .tavern-agent__timeline-frame > ol > li[aria-posinset="${62 + 5}"]`;
    await waitInPanelView(page, lastRow);
    assert.match((await page.locator(lastRow).textContent()) ?? '', /Finished/);
    // The run's end reaches the panel after its last events, never before them.
    const states = (await page.evaluate(() => (globalThis as Record<string, unknown>).__runStates)) as string[];
    assert.equal(states.at(-1), 'completed');
    assert.equal(states.indexOf('completed'), states.length - 1, `no state after completed: ${states.join(' → ')}`);
    await stopWatching(page);
    assert.deepEqual(pageErrors, []);
});

test('a patch shows its diff, and restoring a checkpoint brings the old text back', async () => {
    const { page } = await openTimeline();
    session.mock.enqueue(...patchRun());
    await sendMessage(page, 'Describe the forest.');
    await waitForRunState(page, 'completed');
    const patch = row(page, 'workspace.apply_patch');
    await patch.locator('.tavern-agent__row-toggle').click();
    await patch.locator('del.tavern-agent__diff-line', { hasText: 'Old text.' }).waitFor();
    await patch.locator('ins.tavern-agent__diff-line', { hasText: 'New text.' }).waitFor();
    assert.equal(await patch.locator('.tavern-agent__diff-line', { hasText: 'The forest is quiet.' }).count(), 1, 'unchanged context line');
    // The write's checkpoint holds the first draft: restore it.
    const write = row(page, 'workspace.write_file');
    await write.locator('.tavern-agent__row-toggle').click();
    await write.locator('[data-action="restore"]').click();
    await page.locator('#toast-container', { hasText: "The checkpoint's text is the file's current version again, in the run's workspace." }).waitFor();
    // The restore is journaled: its row arrives at the end of the (virtualized) list.
    await page.locator('aside.tavern-agent .tavern-agent__scroll').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await row(page, 'Checkpoint restored').waitFor();
    await page.locator('.tavern-agent__run-files > summary').click();
    await page.locator('.tavern-agent__file[data-path="output/main.md"] button.tavern-agent__link').click();
    const content = await page.locator('pre[data-file="output/main.md"]').innerText();
    assert.equal(content, 'Old text.\nThe forest is quiet.');
    assert.equal((await chatLines(page)).at(-1)!.mes, 'New text.\nThe forest is quiet.', 'a restore changes the workspace, not the chat');
});

test("a failed run's plain text is committed from the timeline, and Retry starts a new run for the turn", async () => {
    const { page } = await openTimeline();
    session.mock.enqueue({ text: 'Plain one.' }, { text: 'Plain two.' }, { text: 'The plain answer.' });
    await sendMessage(page, 'Answer without tools.');
    await waitForRunState(page, 'failed');
    await page.locator('.tavern-agent__run [role="alert"]', { hasText: 'model.tool_call_required' }).waitFor();
    const failedRun = await page.locator('.tavern-agent__run').getAttribute('data-run-id');

    session.mock.enqueue(calls(call('workspace_write_file', { path: 'output/main.md', content: 'Second try.' })), calls(call('workspace_commit', {}), call('workspace_finish', {})));
    await page.click('.tavern-agent__run-header [data-action="retry"]');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Second try.', undefined, { timeout: 30_000 });
    await waitForRunState(page, 'completed');
    assert.notEqual(await page.locator('.tavern-agent__run').getAttribute('data-run-id'), failedRun, 'the retry is a new run');

    // History: both runs, newest first; the failed one opens again and commits its text.
    await openSectionUntilShown(page, '.tavern-agent__history', `[data-history-run="${failedRun}"]`);
    await page.locator('.tavern-agent__history-item').nth(1).waitFor();
    assert.deepEqual(await page.locator('.tavern-agent__history-list').first().locator('li').evaluateAll((items) => items.map((i) => i.getAttribute('data-state'))), ['completed', 'failed']);
    await page.click(`[data-history-run="${failedRun}"] .tavern-agent__history-open`);
    await page.locator(`.tavern-agent__run[data-run-id="${failedRun}"]`).waitFor();
    await page.click('.tavern-agent__run-header [data-action="commit-draft"]');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'The plain answer.', undefined, { timeout: 10_000 });
    const last = (await chatLines(page)).at(-1)!;
    assert.equal(last.is_user, false);
    assert.equal(last.runId, failedRun, 'the committed text carries its run');

    // Deleting a record removes it from the history, not from the chat.
    await page.click(`[data-history-run="${failedRun}"] [data-action="delete"]`);
    await page.locator('dialog[open] .popup-button-ok').click();
    await page.locator(`[data-history-run="${failedRun}"]`).waitFor({ state: 'detached' });
    assert.equal((await chatLines(page)).at(-1)!.mes, 'The plain answer.');
});

test('export and import round-trip: the imported run shows the same steps, read-only', async () => {
    const { page } = await openTimeline();
    session.mock.enqueue(...patchRun());
    await sendMessage(page, 'Describe the forest.');
    await waitForRunState(page, 'completed');
    const original = (await shownRows(page)).map(({ key: _key, ...rest }) => rest);
    await page.click('.tavern-agent__run-header [data-action="export"]');
    // The export says what it holds (prompt, card, persona, chat) and asks first.
    const warning = page.locator('dialog[open]', { hasText: 'persona' });
    await warning.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), warning.locator('.popup-button-ok').click()]);
    const file = path.join(artifacts, 'timeline-export.json');
    await download.saveAs(file);
    const exported = JSON.parse(readFileSync(file, 'utf8'));
    assert.equal(exported.kind, 'tavern-agent.run');
    assert.equal(exported.run.state, 'completed');
    assert.ok(exported.events.length > 20 && exported.files.length > 0 && exported.checkpoints.length >= 2);

    await page.setInputFiles('#tavern_agent_run_import', file);
    await page.locator('.tavern-agent__run[data-source="imported"][data-run-state="completed"]').waitFor();
    assert.deepEqual((await shownRows(page)).map(({ key: _key, ...rest }) => rest), original);
    const patch = row(page, 'workspace.apply_patch');
    await patch.locator('.tavern-agent__row-toggle').click();
    await patch.locator('ins.tavern-agent__diff-line', { hasText: 'New text.' }).waitFor();
    assert.equal(await page.locator('.tavern-agent__run [data-action="restore"]').count(), 0, 'an imported run is read-only');
    assert.equal(await page.locator('.tavern-agent__run-header [data-action="retry"]').count(), 0);
});

/** An export of a long run: `rounds` model turns of one tool call each (every tenth fails), 4 events a round. */
function longRunExport(events: number) {
    const runId = 'long-run';
    const at = Date.UTC(2025, 0, 1);
    const list: Array<Record<string, unknown>> = [];
    const push = (type: string, payload: Record<string, unknown>) => list.push({ v: 1, runId, seq: list.length, at: at + list.length * 50, type, payload });
    push('run-create', { chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', foreground: true });
    push('run-state', { from: 'created', to: 'running' });
    for (let round = 1; list.length < events - 2; round += 1) {
        const callId = `call-${round}`;
        push('model-request', { round, messageCount: round * 2, tools: [], wrapUp: false });
        push('model-response', { round, durationMs: 90, usage: { input: 100, output: 10 }, text: `Step ${round}`, reasoning: '', toolCalls: [{ id: callId, name: 'workspace_list_files' }], finishReason: 'tool_calls', stored: `model-responses/round-${round}.json` });
        push('tool-call-start', { callId, name: 'workspace_list_files', canonical: 'workspace.list_files', argsPath: `tool-args/${callId}.json` });
        if (round % 10 === 0) push('tool-call-fail', { callId, name: 'workspace_list_files', durationMs: 2, code: 'workspace.invalid_path', message: 'Bad path', hint: 'Use a relative path', resultPath: `tool-results/${callId}.json` });
        else push('tool-call-complete', { callId, name: 'workspace_list_files', durationMs: 2, summary: `listing ${round}`, resultPath: `tool-results/${callId}.json` });
    }
    push('run-finish', { reason: 'done' });
    push('run-state', { from: 'running', to: 'completed' });
    const run = { v: 1, runId, chatKey: 'k', chatId: 'c', profileId: 'writer', generationType: 'normal', state: 'completed', messageId: null, error: null, createdAt: at, updatedAt: at + list.length * 50 };
    return { text: JSON.stringify({ kind: 'tavern-agent.run', version: 1, run, events: list, files: [], checkpoints: [] }), events: list.length, rows: (list.length - 4) / 2 + 1 };
}

// How fast it opens and scrolls is measured by the bench (bench/timeline-scroll.ts), not asserted here.
test('an imported run of 5,000 events opens, draws only the rows in view while scrolling, and is reachable by keyboard', async () => {
    const { page, pageErrors } = await openTimeline();
    const long = longRunExport(5000);
    assert.equal(long.events, 5000);
    await page.setInputFiles('#tavern_agent_run_import', { name: 'long-run.json', mimeType: 'application/json', buffer: Buffer.from(long.text) });
    await page.locator(`.tavern-agent__run[data-source="imported"] li[aria-setsize="${long.rows}"]`).first().waitFor({ timeout: 20_000 });
    const drawn = await page.locator('.tavern-agent__timeline-frame > ol > li').count();
    assert.ok(drawn > 5 && drawn < 80, `only the rows in view are drawn (${drawn} of ${long.rows})`);

    // Scroll through a third of it in steps, each step until the frame after it is painted.
    const positions = await page.evaluate(async () => {
        const scroller = document.querySelector<HTMLElement>('aside.tavern-agent .tavern-agent__scroll')!;
        const firstDrawn: number[] = [];
        for (let step = 0; step < 60; step += 1) {
            scroller.scrollTop += 700;
            await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
            firstDrawn.push(Number(scroller.querySelector('ol > li')?.getAttribute('aria-posinset')));
        }
        return firstDrawn;
    });
    assert.ok(positions.at(-1)! > positions[0]!, `the drawn rows follow the scroll (first drawn row ${positions[0]} → ${positions.at(-1)})`);
    assert.ok(await page.locator('.tavern-agent__timeline-frame > ol > li').count() < 80, 'still only the rows in view');

    // The end of the run, by keyboard: End on a focused row goes to the last row.
    await page.locator('.tavern-agent__timeline-frame .tavern-agent__row-toggle').first().focus();
    await page.keyboard.press('End');
    await page.waitForFunction((n) => document.activeElement?.closest('li')?.getAttribute('aria-posinset') === String(n), long.rows);
    assert.match(await page.evaluate(() => document.activeElement?.textContent ?? ''), /Finished/);
    await page.keyboard.press('ArrowUp');
    await page.waitForFunction((n) => document.activeElement?.closest('li')?.getAttribute('aria-posinset') === String(n - 1), long.rows);
    await page.keyboard.press('Enter');
    await page.locator('.tavern-agent__event--open .tavern-agent__row-body').waitFor();
    assert.deepEqual(pageErrors, []);
});

test('a tool result holding HTML shows as text and runs nothing', async () => {
    const { page, pageErrors } = await openTimeline();
    const hostile = '<img src=x onerror=alert(1)>';
    let dialogs = 0;
    const onDialog = (dialog: Dialog) => {
        dialogs += 1;
        void dialog.dismiss();
    };
    page.on('dialog', onDialog);
    session.mock.enqueue(
        { text: hostile, reasoning: hostile, ...calls(call('workspace_write_file', { path: 'scratch/x.html', content: hostile })) },
        calls(call('workspace_read_file', { path: 'scratch/x.html' }), call('workspace_read_file', { path: hostile })),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Safe.' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Show me HTML.');
    await waitForRunState(page, 'completed');
    for (const title of ['Model #1', 'workspace.read_file']) await row(page, title).locator('.tavern-agent__row-toggle').click();
    await page.locator('.tavern-agent__row-body pre', { hasText: `1\t${hostile}` }).or(page.locator('.tavern-agent__row-body pre', { hasText: hostile })).first().waitFor();
    const texts = await page.locator('.tavern-agent__run .tavern-agent__row-body').allInnerTexts();
    assert.ok(texts.some((text) => text.includes(hostile)), 'the markup is shown as text');
    assert.equal(await page.locator('aside.tavern-agent img').count(), 0, 'no element was made from it');
    // Without an element there is no onerror to run: that is the check. No wait for a dialog that should not come.
    assert.equal(await page.locator('[onerror]').count(), 0, 'nowhere on the page');
    assert.equal(dialogs, 0, 'no script ran');
    page.off('dialog', onDialog); // the next test takes this page again
    assert.deepEqual(pageErrors, []);
});

const LIGHT_THEME = {
    name: 'Tavern Agent Light', blur_strength: 6, main_text_color: 'rgba(32, 33, 36, 1)', italics_text_color: 'rgba(95, 99, 104, 1)',
    underline_text_color: 'rgba(0, 102, 153, 1)', quote_text_color: 'rgba(176, 84, 0, 1)', blur_tint_color: 'rgba(246, 245, 241, 0.97)',
    chat_tint_color: 'rgba(252, 251, 248, 1)', user_mes_blur_tint_color: 'rgba(232, 236, 242, 0.9)', bot_mes_blur_tint_color: 'rgba(240, 238, 232, 0.9)',
    shadow_color: 'rgba(0, 0, 0, 0.15)', shadow_width: 2, border_color: 'rgba(0, 0, 0, 0.2)', font_scale: 1, fast_ui_mode: true, noShadows: true,
    chat_width: 50, timestamps_enabled: true, custom_css: '',
};

test('screenshots: desktop and 390 px, in a dark and a light theme', async () => {
    const { page, pageErrors } = await openTimeline();
    session.mock.enqueue(...patchRun());
    await sendMessage(page, 'Describe the forest.');
    await waitForRunState(page, 'completed');
    await row(page, 'workspace.apply_patch').locator('.tavern-agent__row-toggle').click();
    await page.locator('ins.tavern-agent__diff-line').first().waitFor();
    const shoot = async (viewport: typeof DESKTOP, name: string) => {
        await page.setViewportSize(viewport);
        await page.evaluate(() => document.querySelectorAll('#toast-container').forEach((toasts) => toasts.remove()));
        await page.locator('.tavern-agent__run').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        // The opened patch row, its diff in view inside the timeline.
        await page.locator('.tavern-agent__event--open').first().evaluate((el) => {
            const scroller = el.closest('.tavern-agent__scroll')!;
            scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 40;
        });
        const panel = page.locator('aside.tavern-agent');
        const wide = await page.$$eval('aside.tavern-agent *', (elements) =>
            elements.filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((el) => el.className || el.tagName),
        );
        assert.deepEqual(wide, [], `${name}: nothing sticks out of the screen`);
        assert.equal(await panel.evaluate((el) => el.scrollWidth > el.clientWidth), false, `${name}: no sideways scrolling`);
        await page.waitForTimeout(200);
        await page.screenshot({ path: path.join(artifacts, name) });
    };
    await slash(page, '/theme Dark Lite');
    await shoot(DESKTOP, 'timeline-desktop-dark.png');
    await shoot(PHONE, 'timeline-phone-dark.png');
    await page.setInputFiles('#ui_preset_import_file', { name: 'light.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(LIGHT_THEME)) });
    await page.waitForFunction(() => [...document.querySelectorAll('#themes option')].some((o) => o.textContent === 'Tavern Agent Light'));
    await slash(page, '/theme Tavern Agent Light');
    await page.waitForFunction(() => getComputedStyle(document.body).getPropertyValue('--SmartThemeBodyColor').includes('32, 33, 36'));
    await shoot(PHONE, 'timeline-phone-light.png');
    await shoot(DESKTOP, 'timeline-desktop-light.png');
    await slash(page, '/theme Dark Lite');
    assert.deepEqual(pageErrors, []);
});

test('the timeline speaks Simplified Chinese through SillyTavern\'s i18n', async () => {
    const { page, pageErrors } = await openTimeline(DESKTOP, 'zh-cn');
    session.mock.enqueue(...patchRun());
    await sendMessage(page, '描述森林。');
    await waitForRunState(page, 'completed');
    await page.locator('.tavern-agent__run-status', { hasText: '已完成' }).waitFor();
    await row(page, '模型 #1').waitFor();
    await row(page, '已提交到聊天').waitFor();
    assert.match(await page.locator('.tavern-agent__run-header [data-action="retry"]').innerText(), /重试/);
    await row(page, 'workspace.apply_patch').locator('.tavern-agent__row-toggle').click();
    await page.locator('.tavern-agent__diff [data-action="restore"]', { hasText: '在工作区中恢复' }).waitFor();
    await page.setViewportSize(PHONE);
    await page.evaluate(() => document.querySelectorAll('#toast-container').forEach((toasts) => toasts.remove()));
    await page.locator('.tavern-agent__run').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(artifacts, 'timeline-phone-zh-cn.png') });
    assert.deepEqual(pageErrors, []);
    await closePage(page);
});
