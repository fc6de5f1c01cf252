import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { RESEARCHER_PROFILE } from '../../src/contract/profile';
import { call, calls, chatLines, offeredTools, openAgentChat, restoreSettingsAfter, toolMessages } from '../harness/agent';
import { sendMessage, stPageOf } from '../harness/browser';
import type { MockTurn, RecordedRequest } from '../harness/mock-model';
import { REPO_ROOT, startTavernSession, type TavernSession } from '../harness/tavern';
import { subagentRunExport } from '../fixtures/subagent-run';

/**
 * Sub-agents end to end (SPEC §1–§3): the writer delegates, its children run at once in the worker, each
 * asking the (mock) model on its own; the mock answers each by what its request offers — the parent's offers
 * `agent_delegate`, a child's offers `task_return` and carries its task's objective.
 */

const artifacts = path.join(REPO_ROOT, 'test-results');
const docs = path.join(REPO_ROOT, 'docs', 'images');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Long enough that two children asking "at once" overlap on a busy 2-core machine too. */
const CHILD_DELAY_MS = 800;

let session: TavernSession;

before(async () => {
    mkdirSync(artifacts, { recursive: true });
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const mentions = (req: RecordedRequest, text: string) => JSON.stringify(req.body?.messages ?? []).includes(text);
const isParent = (req: RecordedRequest) => offeredTools(req).includes('agent_delegate');
/** A child's request: it may return a task, and its prompt holds its task's objective (marked by `marker`). */
const isChild = (marker: string) => (req: RecordedRequest) => offeredTools(req).includes('task_return') && mentions(req, marker);

const RESEARCH = 'RESEARCH-TASK: find every mention of the silver lantern.';
const REVIEW = 'REVIEW-TASK: read output/main.md and list what to fix.';
const LANTERN = 'The lantern is in the ruins (#151).';
const DRAFT_OK = 'The draft reads well; tighten the second line.';

function delegate(agentId: string, objective: string, title: string) {
    return call('agent_delegate', { agentId, task: { objective, title } });
}

function finishWith(text: string): MockTurn {
    return calls(call('workspace_write_file', { path: 'output/main.md', content: text }), call('workspace_commit', {}), call('workspace_finish', {}));
}

/** Answers the parent from `turns`, in order. */
function parent(...turns: MockTurn[]): void {
    session.mock.route({ when: isParent, turns });
}

function child(marker: string, turns: MockTurn[], repeat = false): void {
    session.mock.route({ when: isChild(marker), turns, repeat });
}

function returns(summary: string, delayMs = CHILD_DELAY_MS): MockTurn {
    return { delayMs, usage: { input: 40, output: 8 }, ...calls(call('task_return', { summary, findings: [summary] })) };
}

async function waitForIdle(page: Page): Promise<void> {
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 60_000 });
}

/** Sends, waits until SillyTavern took the message and its generation ended, and the run with it. */
async function send(page: Page, text: string): Promise<void> {
    await sendMessage(page, text);
    await waitForIdle(page);
}

const parentRequests = () => session.mock.generations().filter(isParent);
const childRequests = (marker: string) => session.mock.generations().filter(isChild(marker));
/** Every tool result the parent was shown, over all its requests (later requests repeat earlier ones). */
const parentToolResults = () => (parentRequests().at(-1) ? toolMessages(parentRequests().at(-1)!).map((m) => m.content) : []);

function task(page: Page, agentId: string) {
    return page.locator(`.tavern-agent__run .tavern-agent__task[data-agent-id="${agentId}"]`).first();
}

async function stateOf(page: Page): Promise<string | null> {
    return page.evaluate(() => document.querySelector('.tavern-agent__run')?.getAttribute('data-run-state') ?? null);
}

/** Shoots the panel with the timeline scrolled to the delegate calls. */
async function shoot(page: Page, viewport: { width: number; height: number }, file: string): Promise<void> {
    await page.setViewportSize(viewport);
    await page.evaluate(() => document.querySelectorAll('#toast-container').forEach((toasts) => toasts.remove()));
    await page.locator('.tavern-agent__run').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.locator('.tavern-agent__task').first().evaluate((el) => {
        const scroller = el.closest('.tavern-agent__scroll')!;
        scroller.scrollTop += el.getBoundingClientRect().top - scroller.getBoundingClientRect().top - 60;
    });
    const wide = await page.$$eval('aside.tavern-agent *', (elements) =>
        elements.filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((el) => el.className || el.tagName),
    );
    assert.deepEqual(wide, [], `${file}: nothing sticks out of the screen`);
    await page.waitForTimeout(200); // let the ResizeObserver settle the rows' heights before the picture
    await page.screenshot({ path: file });
}

test('an imported run shows each task nested under its delegate call, with its result, and counts them in the header', async () => {
    // The tests here take the last one's page again (a page load is seconds of CPU): each keeps to its own chat,
    // or puts back the settings it changes.
    const page = await openAgentChat(session, { reuse: true, viewport: DESKTOP });
    const { pageErrors } = stPageOf(page);
    const exported = subagentRunExport();
    await page.setInputFiles('#tavern_agent_run_import', { name: 'subagents.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(exported)) });
    await page.locator('.tavern-agent__run[data-source="imported"][data-run-state="completed"]').waitFor();

    await page.locator('[data-testid="task-counts"]', { hasText: '0 running · 1 done · 1 failed' }).waitFor();
    const researcher = task(page, 'researcher');
    const editor = task(page, 'editor');
    assert.equal(await researcher.getAttribute('data-task-status'), 'completed');
    assert.equal(await editor.getAttribute('data-task-status'), 'failed');
    // Each task sits inside the row of the call that started it.
    const owners = await page.$$eval('.tavern-agent__task', (tasks) => tasks.map((el) => el.closest('.tavern-agent__event')?.getAttribute('data-row-key')));
    assert.deepEqual(owners, ['ccall-0001', 'ccall-0002']);
    assert.match(await researcher.locator('[data-testid="task-meta"]').innerText(), /1\.2 s · ↑2\.0k ↓150 · rounds 2/);
    // The header totals include the children: 1200+1500+1800 (parent) + 900+1100 (researcher) + 700 (editor).
    assert.match(await page.locator('.tavern-agent__run-header').innerText(), /7\.2k/);

    await researcher.locator('.tavern-agent__task-toggle').click();
    await researcher.locator('[data-testid="task-summary"]', { hasText: 'The lantern is in the ruins (#151)' }).waitFor();
    assert.deepEqual(
        await researcher.locator('.tavern-agent__events--nested > li .tavern-agent__event').evaluateAll((rows) => rows.map((r) => `${r.getAttribute('data-kind')}:${r.getAttribute('data-status')}`)),
        ['model:completed', 'tool:completed', 'model:completed', 'tool:completed'],
        "the researcher's own turns and calls",
    );
    await researcher.locator('[data-action="task-summary-file"]').click();
    await researcher.locator('pre[data-file="summaries/researcher-result.md"]', { hasText: '# Researcher result' }).waitFor();
    // A child's write opens to its diff like any other.
    const returnRow = researcher.locator('.tavern-agent__event[data-row-key="ccall-0006"]');
    await returnRow.locator('.tavern-agent__row-toggle').click();
    await returnRow.locator('ins.tavern-agent__diff-line', { hasText: 'Researcher result' }).waitFor();

    await editor.locator('.tavern-agent__task-toggle').click();
    await editor.locator('[data-testid="task-reason"]', { hasText: 'without task.return' }).waitFor();
    await editor.locator('.tavern-agent__event[data-status="error"]', { hasText: 'workspace.file_not_found' }).waitFor();
    await shoot(page, DESKTOP, path.join(artifacts, 'subagents-imported-desktop.png'));
    await shoot(page, PHONE, path.join(artifacts, 'subagents-imported-phone.png'));
    assert.deepEqual(pageErrors, []);
});

test('the profile editor flags an allowed caller that names no profile', async () => {
    // Nothing is saved: the form's changes go with the panel.
    const page = await openAgentChat(session, { reuse: true, viewport: DESKTOP });
    await page.click('#tavern_agent_profiles > summary');
    await page.click('[data-testid="profile-list"] [data-profile-id="researcher"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="profile-form"]')?.getAttribute('data-profile-id') === 'researcher');
    // Delegation is under the form's "Advanced".
    const openAdvanced = () => page.locator('[data-testid="profile-advanced"]').evaluate((el) => ((el as HTMLDetailsElement).open = true));
    await openAdvanced();
    const field = page.locator('[data-field="delegation.allowedCallers"]');
    await field.locator('input').fill('writer, wrtier');
    await field.locator('[data-testid="field-warning"]', { hasText: 'wrtier' }).waitFor();
    assert.equal(await field.locator('[data-testid="field-warning"]').count(), 1, '"writer" exists');
    await field.locator('input').fill('*');
    await field.locator('[data-testid="field-warning"]').waitFor({ state: 'detached' });
    // The writer's form says whom it may call.
    await page.click('[data-testid="profile-list"] [data-profile-id="writer"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="profile-form"]')?.getAttribute('data-profile-id') === 'writer');
    await openAdvanced();
    const canDelegate = page.locator('[data-field="delegation.canDelegate"] input');
    if (!(await canDelegate.isChecked())) await canDelegate.check();
    assert.match(await page.locator('[data-testid="delegation-targets"]').innerText(), /Researcher \(researcher\).*Editor \(editor\)/);
});

test('the writer delegates to the researcher and the editor in one turn: both work at once, the await returns both, one reply', async () => {
    const page = await openAgentChat(session, { reuse: true });
    parent(
        calls(delegate('researcher', RESEARCH, 'Find the lantern'), delegate('editor', REVIEW, 'Review the draft')),
        calls(call('agent_await', { mode: 'allCompleted' })),
        calls(call('workspace_read_file', { path: 'summaries/researcher-result.md' }), call('workspace_read_file', { path: 'summaries/editor-result.md' })),
        finishWith('The lantern waits in the ruins.'),
    );
    child(RESEARCH, [returns(LANTERN)]);
    child(REVIEW, [returns(DRAFT_OK)]);
    await send(page, 'Where is the lantern?');

    assert.equal(await stateOf(page), 'completed');
    const research = childRequests(RESEARCH);
    const review = childRequests(REVIEW);
    assert.equal(research.length, 1);
    assert.equal(review.length, 1);
    const [a, b] = [research[0]!, review[0]!];
    assert.ok(a.at < b.endedAt! && b.at < a.endedAt!, `both children's requests were in flight at once: [${a.at}, ${a.endedAt}] and [${b.at}, ${b.endedAt}]`);
    for (const req of [a, b]) {
        const tools = offeredTools(req);
        assert.ok(tools.includes('task_return'));
        for (const never of ['workspace_commit', 'workspace_finish']) assert.ok(!tools.includes(never), `a child is never offered ${never}`);
        assert.deepEqual(tools.filter((name) => name.startsWith('agent_')), [], 'nor agent_*');
    }

    const shown = parentToolResults();
    const awaited = shown.find((text) => text.includes(LANTERN) && text.includes(DRAFT_OK));
    assert.ok(awaited, 'agent_await with allCompleted returned both summaries in one result');
    assert.match(awaited!, /summaries\/researcher-result\.md/);
    assert.ok(shown.some((text) => !text.startsWith('ERROR') && text.includes(LANTERN) && text !== awaited), 'the researcher summary file is readable');
    assert.ok(shown.some((text) => !text.startsWith('ERROR') && text.includes(DRAFT_OK) && text !== awaited), 'the editor summary file is readable');

    const lines = await chatLines(page);
    assert.equal(lines.filter((m) => !m.is_user && m.runId).length, 1, 'one reply');
    assert.equal(lines.at(-1)!.mes, 'The lantern waits in the ruins.');

    // The timeline: two tasks, nested under their calls, done.
    await page.locator('[data-testid="task-counts"]', { hasText: '0 running · 2 done · 0 failed' }).waitFor();
    assert.equal(await task(page, 'researcher').getAttribute('data-task-status'), 'completed');
    assert.equal(await task(page, 'editor').getAttribute('data-task-status'), 'completed');
    await page.locator('.tavern-agent__run-files > summary').click();
    await page.locator('.tavern-agent__file[data-path="summaries/researcher-result.md"]').waitFor();
    await page.locator('.tavern-agent__file[data-path="summaries/editor-result.md"]').waitFor();
    await page.locator('.tavern-agent__run-files > summary').click();

    // Screenshots with both tasks, one opened to its steps and result.
    await task(page, 'researcher').locator('.tavern-agent__task-toggle').click();
    await task(page, 'researcher').locator('[data-testid="task-summary"]').waitFor();
    await shoot(page, DESKTOP, path.join(docs, 'subagents-desktop.png'));
    await shoot(page, PHONE, path.join(docs, 'subagents-phone.png'));
    await page.setViewportSize(DESKTOP);

    // Exported, the run carries its children; imported, it shows them nested again.
    await page.click('.tavern-agent__run-header [data-action="export"]');
    const warning = page.locator('dialog[open]', { hasText: 'persona' });
    await warning.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), warning.locator('.popup-button-ok').click()]);
    const file = path.join(artifacts, 'subagents-export.json');
    await download.saveAs(file);
    const exported = JSON.parse(readFileSync(file, 'utf8')) as { events: Array<{ type: string; payload: { taskId?: string } }> };
    assert.equal(exported.events.filter((e) => e.type === 'task-end').length, 2);
    assert.ok(exported.events.some((e) => e.type === 'model-response' && e.payload.taskId), "the children's own steps travel too");
    await page.setInputFiles('#tavern_agent_run_import', file);
    await page.locator('.tavern-agent__run[data-source="imported"][data-run-state="completed"]').waitFor();
    await page.locator('[data-testid="task-counts"]', { hasText: '0 running · 2 done · 0 failed' }).waitFor();
    assert.equal(await page.locator('.tavern-agent__run .tavern-agent__task[data-task-status="completed"]').count(), 2);
});

test('a child that never calls task_return fails its task, and the parent still commits', async (t) => {
    const page = await openAgentChat(session, { reuse: true });
    await restoreSettingsAfter(t, page); // it changes the researcher profile
    // A researcher with a budget of 2 rounds, so running out of it is quick.
    await page.evaluate((p) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles: Record<string, unknown> }>;
        settings.tavern_agent = { profiles: { ...(settings.tavern_agent?.profiles ?? {}), [p.id]: p } };
    }, { ...RESEARCHER_PROFILE, tools: { ...RESEARCHER_PROFILE.tools, maxRounds: 2, maxCallsPerRun: 4 } });
    parent(calls(delegate('researcher', RESEARCH, 'Dig')), calls(call('agent_await', { mode: 'allCompleted' })), finishWith('I could not find it.'));
    child(RESEARCH, [{ delayMs: 100, ...calls(call('workspace_list_files', {})) }], true);
    await send(page, 'Find the lantern.');

    assert.equal(await stateOf(page), 'completed');
    assert.ok(childRequests(RESEARCH).length >= 2, 'the child worked until its budget ran out');
    const awaited = parentToolResults().find((text) => /failed/i.test(text) && !text.startsWith('ERROR'));
    assert.ok(awaited, 'the await reports the failed task (not as an error of the parent)');
    assert.equal((await chatLines(page)).at(-1)!.mes, 'I could not find it.');
    await page.locator('[data-testid="task-counts"]', { hasText: '0 running · 0 done · 1 failed' }).waitFor();
    const researcher = task(page, 'researcher');
    assert.equal(await researcher.getAttribute('data-task-status'), 'failed');
    await researcher.locator('.tavern-agent__task-toggle').click();
    await researcher.locator('[data-testid="task-reason"]').waitFor();
});

test('Stop while children work aborts every request in flight, commits nothing, and cancels all tasks', async () => {
    const page = await openAgentChat(session, { reuse: true });
    parent(calls(delegate('researcher', RESEARCH, 'Dig'), delegate('editor', REVIEW, 'Review')), calls(call('agent_await', { mode: 'allCompleted', timeoutMs: 300_000 })), finishWith('Never shown.'));
    child(RESEARCH, [returns(LANTERN, 60_000)]);
    child(REVIEW, [returns(DRAFT_OK, 60_000)]);
    const before = await chatLines(page);
    await page.fill('#send_textarea', 'Take your time.');
    await page.click('#send_but');
    await page.waitForFunction(() => document.querySelectorAll('.tavern-agent__task[data-task-status="running"]').length === 2, undefined, { timeout: 30_000 });
    await session.mock.waitUntil(() => childRequests(RESEARCH).length + childRequests(REVIEW).length === 2, 'both children asking the model', 15_000);
    await page.click('#mes_stop');
    await page.locator('.tavern-agent__run[data-run-state="cancelled"]').waitFor({ timeout: 15_000 });
    await waitForIdle(page);

    await page.waitForFunction(() => document.querySelectorAll('.tavern-agent__task[data-task-status="cancelled"]').length === 2, undefined, { timeout: 10_000 });
    await page.locator('[data-testid="task-counts"]', { hasText: '0 running · 0 done · 0 failed · 2 cancelled' }).waitFor();
    const after = await chatLines(page);
    assert.equal(after.length, before.length + 1, 'only the user message was added');
    assert.ok(after.every((m) => !m.mes.includes('Never shown')));
    // Every model request that was in flight was aborted (recorded when its socket closed, which may come a moment later).
    const children = [...childRequests(RESEARCH), ...childRequests(REVIEW)];
    assert.equal(children.length, 2);
    await session.mock.waitUntil(() => session.mock.generations().every((r) => r.endedAt !== undefined), 'every request ended', 15_000);
    for (const req of children) assert.equal(req.aborted, true, 'the child request was aborted');
});

test('a denied delegation names the candidates, and awaiting a foreign task id is refused', async () => {
    const page = await openAgentChat(session, { reuse: true });
    parent(
        calls(
            delegate('game-master', 'Roll for it.', 'Roll'),
            delegate('nobody-here', 'Anything.', 'Nothing'),
            call('agent_await', { taskIds: ['task-of-another-run'] }),
            call('agent_list', {}),
        ),
        finishWith('Handled it myself.'),
    );
    await send(page, 'Do it.');
    const [denied, missing, foreign, listed] = toolMessages(parentRequests().at(-1)!).map((m) => m.content);
    assert.match(denied!, /^ERROR agent\.delegation_denied:/);
    assert.match(denied!, /researcher/);
    assert.match(denied!, /editor/);
    assert.match(missing!, /^ERROR agent\.not_found:/);
    assert.match(foreign!, /^ERROR agent\.task_not_found:/);
    assert.match(listed!, /researcher/);
    assert.doesNotMatch(listed!, /game-master/, 'agent_list shows only the agents the writer may call');
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Handled it myself.');
    assert.equal(await page.locator('.tavern-agent__task').count(), 0, 'no task was started');
});

test('a parent that never awaits still sees the finished result in its next request, once', async () => {
    const page = await openAgentChat(session, { reuse: true });
    parent(
        calls(delegate('researcher', RESEARCH, 'Dig')),
        // The parent keeps working; its next answer is slow, so the child is done before the request after it.
        { delayMs: 2500, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'Draft.' })) },
        calls(call('workspace_commit', {})),
        calls(call('workspace_finish', {})),
    );
    child(RESEARCH, [returns(LANTERN, 200)]);
    await send(page, 'Go.');
    assert.equal(await stateOf(page), 'completed');
    const requests = parentRequests();
    assert.equal(requests.length, 4);
    const count = (req: RecordedRequest) => JSON.stringify(req.body.messages).split(LANTERN).length - 1;
    assert.equal(count(requests[1]!), 0, 'not done yet when the parent asked the second time');
    assert.ok(count(requests[2]!) >= 1, 'the finished result is in the next request');
    assert.equal(count(requests[3]!), count(requests[2]!), 'and is not handed over a second time');
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Draft.');
});
