// One run lifecycle (issue 33): a reload cuts a run, and Resume continues it as the same run — a run that
// delegated (its finished child is not asked again), a scripted run (its prompt is still there), a guided run
// (the note the model saw is still there, and /agent guide reaches the resumed run); and each sub-agent sees
// the skills of its own profile.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { RESEARCHER_PROFILE, type Profile } from '../../src/contract/profile';
import { openCharacter, waitForSillyTavernReady } from '../harness/browser';
import { call, calls, chatLines, offeredTools, openAgentChat } from '../harness/agent';
import type { MockTurn, RecordedRequest } from '../harness/mock-model';
import { slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';
import { skillMd, skillsCall } from '../fixtures/skill-files';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

// Each test takes the last one's page again (a page load is seconds of CPU): it reloads that page to cut its
// run, and keeps to its own chat; only the last test installs skills and changes a profile.

/** Long enough that the reload always comes first. */
const NEVER = 120_000;

const mentions = (req: RecordedRequest, text: string) => JSON.stringify(req.body?.messages ?? []).includes(text);
const isParent = (req: RecordedRequest) => offeredTools(req).includes('agent_delegate');
const isChild = (marker: string) => (req: RecordedRequest) => offeredTools(req).includes('task_return') && mentions(req, marker);
const finishWith = (text: string): MockTurn => calls(call('workspace_write_file', { path: 'output/main.md', content: text }), call('workspace_commit', {}), call('workspace_finish', {}));

async function status(page: Page): Promise<{ run: { runId: string; state: string } | null }> {
    return JSON.parse(await slash(page, '/agent status')) as { run: { runId: string; state: string } | null };
}

/**
 * The page is reloaded mid-run (its worker with it); the chat is opened again and the panel started, which
 * finds the run cut off. Returns the page, ready to resume `runId`.
 */
async function reloadUntilInterrupted(page: Page, runId: string): Promise<void> {
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page);
    await page.click('#tavern_agent_button .drawer-icon');
    const deadline = Date.now() + 30_000;
    for (;;) {
        const run = (await status(page)).run;
        if (run?.runId === runId && run.state === 'interrupted') return;
        if (Date.now() > deadline) throw new Error(`the run was never found interrupted: ${JSON.stringify(run)}`);
        await page.waitForTimeout(250);
    }
}

/** The run working in the page now (started by Send or a script), once it has one. */
async function runningRunId(page: Page): Promise<string> {
    await page.waitForFunction(() => Boolean(globalThis.TavernAgent?.status().run), undefined, { timeout: 30_000 });
    return page.evaluate(() => globalThis.TavernAgent!.status().run!.runId);
}

/** Resumes without waiting for the end (the test acts while it works); `resumed()` waits for its outcome. */
async function startResume(page: Page, runId: string): Promise<() => Promise<{ state: string; runId: string }>> {
    await page.evaluate((id) => {
        (globalThis as { __resumed?: Promise<unknown> }).__resumed = globalThis.TavernAgent!.resume(id);
    }, runId);
    return () => page.evaluate(() => (globalThis as unknown as { __resumed: Promise<{ state: string; runId: string }> }).__resumed);
}

test('a reload cuts a run that delegated two tasks while one child is mid-request; Resume finishes it with one reply, the finished child not asked again', async () => {
    const page = await openAgentChat(session, { reuse: true });
    const RESEARCH = 'RESEARCH-TASK: where is the lantern?';
    const REVIEW = 'REVIEW-TASK: is the tone right?';
    session.mock.route({ when: isParent, turns: [calls(call('agent_delegate', { agentId: 'researcher', task: { objective: RESEARCH } }), call('agent_delegate', { agentId: 'editor', task: { objective: REVIEW } }), call('agent_await', { mode: 'allCompleted' }))] });
    session.mock.route({ when: isChild(REVIEW), turns: [calls(call('task_return', { summary: 'The tone is right.' }))] });
    session.mock.route({ when: isChild(RESEARCH), turns: [{ delayMs: NEVER, ...calls(call('task_return', { summary: 'never sent' })) }] });
    await page.fill('#send_textarea', 'Where did I leave the lantern?');
    await page.click('#send_but');
    const runId = await runningRunId(page);
    // The editor has returned; the researcher's request is in flight when the page goes.
    await session.mock.waitUntil(() => session.mock.generations().filter(isChild(REVIEW)).some((req) => req.endedAt !== undefined) && session.mock.generations().some(isChild(RESEARCH)), 'the editor done, the researcher asking');
    await page.waitForTimeout(500); // the editor's result lands in the journal
    await reloadUntilInterrupted(page, runId);

    session.mock.reset();
    session.mock.route({ when: isChild(RESEARCH), turns: [calls(call('task_return', { summary: 'Under the old bridge.' }))] });
    session.mock.route({ when: isParent, turns: [finishWith('It is under the old bridge.')] });
    const outcome = JSON.parse(await slash(page, `/agent resume ${runId}`)) as { state: string; runId: string };
    assert.deepEqual([outcome.runId, outcome.state], [runId, 'completed']);

    const after = session.mock.generations();
    assert.equal(after.filter(isChild(REVIEW)).length, 0, "the finished child's model is not asked again");
    assert.equal(after.filter(isChild(RESEARCH)).length, 1, 'the cut-off child asks again, once');
    const parentAfter = after.filter(isParent);
    assert.equal(parentAfter.length, 1);
    assert.ok(mentions(parentAfter[0]!, 'Under the old bridge.') && mentions(parentAfter[0]!, 'The tone is right.'), 'the parent gets both results');
    const replies = (await chatLines(page)).filter((line) => line.runId === runId);
    assert.deepEqual(replies.map((line) => line.mes), ['It is under the old bridge.'], 'one reply');
});

test('a reload during a TavernAgent.run with a script prompt: after Resume, the next request still carries the prompt', async () => {
    const page = await openAgentChat(session, { reuse: true });
    const PROMPT = 'SCRIPT-PROMPT: list the places the chat names.';
    session.mock.enqueue(calls(call('workspace_list_files', {})), { delayMs: NEVER, ...calls(call('workspace_finish', {})) });
    await page.evaluate((prompt) => void globalThis.TavernAgent!.run({ prompt, background: true }).catch(() => undefined), PROMPT);
    const runId = await runningRunId(page);
    await session.mock.waitForGenerations(2);
    await reloadUntilInterrupted(page, runId);

    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'summaries/summary.md', content: 'The glade and the bridge.' }), call('workspace_finish', {})));
    const outcome = JSON.parse(await slash(page, `/agent resume ${runId}`)) as { state: string };
    assert.equal(outcome.state, 'completed');
    const [resent] = session.mock.generations();
    assert.ok(resent && mentions(resent, PROMPT), 'the script prompt is in the request after the resume');
    const messages = resent.body.messages as Array<{ role: string; content: unknown }>;
    assert.ok(messages.some((m) => m.role === 'user' && String(m.content).includes(PROMPT)));
});

test('a reload after the model was sent a guidance note: after Resume the note is still in the request, and /agent guide reaches the resumed run', async () => {
    const page = await openAgentChat(session, { reuse: true });
    const FIRST = 'GUIDE-ONE: mention the owl.';
    const SECOND = 'GUIDE-TWO: keep it short.';
    session.mock.enqueue(calls(call('workspace_list_files', {})), { delayMs: 3_000, ...calls(call('workspace_list_files', {})) }, { delayMs: NEVER, ...calls(call('workspace_finish', {})) });
    await page.fill('#send_textarea', 'Tell me about the forest.');
    await page.click('#send_but');
    const runId = await runningRunId(page);
    await session.mock.waitForGenerations(2);
    assert.notEqual(await slash(page, `/agent guide ${FIRST}`), '', 'guidance queued while the model works');
    await session.mock.waitForGenerations(3);
    assert.ok(mentions(session.mock.generations()[2]!, FIRST), 'the note reached the model before the reload');
    await reloadUntilInterrupted(page, runId);

    session.mock.reset();
    session.mock.enqueue({ delayMs: 2_000, ...calls(call('workspace_list_files', {})) }, finishWith('The owl hoots.'));
    const resumed = await startResume(page, runId);
    await session.mock.waitForGenerations(1);
    assert.ok(mentions(session.mock.generations()[0]!, FIRST), 'the note the model saw is in the request sent again');
    assert.notEqual(await slash(page, `/agent guide ${SECOND}`), '', '/agent guide is taken by the resumed run');
    assert.equal((await resumed()).state, 'completed');
    const last = session.mock.generations().at(-1)!;
    assert.ok(mentions(last, SECOND), 'guidance sent during the resumed run reaches the model');
});

test('a researcher whose profile denies a skill cannot read it when the writer delegates; a skill of its own profile scope is listed for it', async () => {
    const page = await openAgentChat(session, { reuse: true });
    const researcher: Profile = { ...RESEARCHER_PROFILE, skills: { ...RESEARCHER_PROFILE.skills, deny: ['house-style'] } };
    await page.evaluate((profile) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles?: Record<string, unknown> }>;
        settings.tavern_agent = { ...settings.tavern_agent, profiles: { ...(settings.tavern_agent?.profiles ?? {}), [profile.id]: profile } };
    }, researcher);
    const md = (name: string, body: string) => Buffer.from(skillMd(name, `${name} for the test`, body)).toString('base64');
    const imported = [
        ...(await skillsCall<Array<{ action: string }>>(page, 'import', [{ base64: md('house-style', 'Write in the past tense.'), name: 'SKILL.md' }], { scope: 'global' })),
        ...(await skillsCall<Array<{ action: string }>>(page, 'import', [{ base64: md('map-lore', 'The bridge is north.'), name: 'SKILL.md' }], { scope: { profile: 'researcher' } })),
    ];
    assert.deepEqual(imported.map((r) => r.action), ['installed', 'installed']);
    const OBJECTIVE = 'SKILL-TASK: check the skills.';
    session.mock.route({ when: isParent, turns: [calls(call('agent_delegate', { agentId: 'researcher', task: { objective: OBJECTIVE } }), call('agent_await', { mode: 'allCompleted' })), finishWith('Done.')] });
    session.mock.route({ when: isChild(OBJECTIVE), turns: [calls(call('skill_list', {}), call('skill_read', { name: 'house-style' })), calls(call('task_return', { summary: 'Checked.' }))] });
    await page.fill('#send_textarea', 'Check the skills.');
    await page.click('#send_but');
    // The reply itself is the end: "not generating, no run" also holds in the moment before the run starts.
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Done.' && !globalThis.TavernAgent!.status().run, undefined, { timeout: 60_000 });
    const parentFirst = session.mock.generations().find(isParent)!;
    assert.ok(mentions(parentFirst, 'house-style') && !mentions(parentFirst, 'map-lore'), "the writer sees the global skill, not the researcher's own");
    const childSecond = session.mock.generations().filter(isChild(OBJECTIVE))[1]!;
    assert.ok(mentions(childSecond, 'map-lore'), "the researcher's own profile-scope skill is listed for it");
    assert.ok(mentions(childSecond, 'skill.not_visible'), 'the skill its profile denies cannot be read');
});
