// The `npm start` demo, played end to end: SillyTavern set up as the demo sets it up (the demo extension,
// the Demo profile), the demo model answering at once (DEMO_DELAY_MS=0), and a newcomer typing what the
// README says to try each feature.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { demoResponder } from '../../scripts/demo-model';
import { demoExtensions, patchDemoSettings } from '../../scripts/demo-setup';
import { SCENARIOS, type ScenarioId } from '../../scripts/demo/scenarios';
import { lastBotMessageText, sendMessage } from '../harness/browser';
import { chatLines, lastRunState, openAgentChat } from '../harness/agent';
import { REPO_ROOT, slash, startTavernSession, type TavernSession } from '../harness/tavern';

let session: TavernSession;

before(async () => {
    session = await startTavernSession({ setup: { linkExtensions: demoExtensions(REPO_ROOT), patchSettings: patchDemoSettings } });
});

after(async () => {
    await session?.close();
});

/**
 * A new chat with Seraphina, Agent Mode on and the panel open, the demo model answering (openAgentChat resets the
 * mock). On the last test's page (a page load is seconds of CPU): each test plays in its own chat.
 */
async function demoChat(): Promise<Page> {
    const page = await openAgentChat(session, { reuse: true });
    session.mock.setResponder((request) => demoResponder(request, 0));
    return page;
}

const example = (id: ScenarioId): string => SCENARIOS.find((scenario) => scenario.id === id)!.example;

/** Resolves with what `probe` finds once it finds something (checked every 200 ms), or fails after 60 s naming `what`. */
async function eventually<T>(probe: () => Promise<T | undefined | false>, what: string): Promise<T> {
    for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 200))) {
        const found = await probe();
        if (found) return found;
    }
    throw new Error(`waited 60 s for ${what}`);
}

/** Why the chat's newest run failed, from its journal: what a failed assertion should say. */
async function lastFailure(page: Page): Promise<string> {
    return page.evaluate(async () => {
        const agent = globalThis.TavernAgent!;
        const run = (await agent.runs()).at(-1);
        if (!run) return 'no run';
        const events = await agent.events(run.runId);
        return JSON.stringify(events.filter((event) => /fail|error/.test(event.type)).map((event) => [event.type, event.payload])).slice(0, 2000);
    });
}

/** Sends what the docs say to type for a scenario, and waits for the reply. */
async function play(page: Page, id: ScenarioId): Promise<string> {
    await sendMessage(page, example(id));
    const state = await lastRunState(page);
    assert.equal(state, 'completed', `the ${id} run ended ${state}: ${state === 'completed' ? '' : await lastFailure(page)}`);
    return lastBotMessageText(page);
}

test('one demo session: a delegate row, a lore proposal with Accept, a dice row and an approval prompt', async () => {
    const page = await demoChat();
    assert.equal(JSON.parse(await slash(page, '/agent status')).profileId, 'demo', 'the demo runs the Demo profile');

    const delegated = await play(page, 'delegate');
    const task = page.locator('.tavern-agent__run .tavern-agent__task[data-agent-id="researcher"]');
    await task.waitFor();
    assert.equal(await task.getAttribute('data-task-status'), 'completed');
    assert.match(delegated, /Found \d+ chat message\(s\) and \d+ lore entr/, "the reply carries the researcher's report");

    await play(page, 'lore');
    const proposal = page.locator('.tavern-agent__lore-proposal[data-state="pending"]', { hasText: 'Moonwell' });
    await proposal.waitFor();
    await proposal.locator('[data-action="accept"]').click();
    await page.locator('.tavern-agent__lore-proposal[data-state="accepted"]', { hasText: 'Moonwell' }).waitFor();

    const rolled = await play(page, 'roll');
    await page.locator('.tavern-agent__run .tavern-agent__event', { hasText: 'dice.roll' }).first().waitFor();
    assert.match(rolled, /rolled \d+ on 1d20/);

    const sent = sendMessage(page, example('approve'));
    const approval = page.locator('[data-testid="ext-tool-approval"]');
    await approval.waitFor({ timeout: 120_000 });
    assert.equal(await approval.getAttribute('data-tool'), 'ext.GladeLanterns');
    await page.click('[data-testid="ext-tool-approve"]');
    await sent;
    assert.match(await lastBotMessageText(page), /lanterns of the glade glow/);
    const replies = (await chatLines(page)).filter((line) => !line.is_user);
    assert.ok(replies.every((line) => !line.mes.includes(example("delegate"))), "Seraphina never says the user's words back");
});

test('the demo skill runs its script, the state scenario sets a chat variable, and a fix revises the reply without its instructions', async () => {
    const page = await demoChat();
    await eventually(async () => (await page.evaluate(() => globalThis.TavernAgent!.skills.list())).some((skill) => skill.name === 'glade-oracle'), 'the demo skill to be installed');

    assert.match(await play(page, 'script'), /The forest says: [a-z]/);
    await play(page, 'state');
    assert.equal(await slash(page, '/getvar trust'), '1');

    const before = await lastBotMessageText(page);
    await slash(page, '/agent fix make it shorter');
    await page.waitForFunction(() => globalThis.TavernAgent!.status().run === null);
    const lines = await chatLines(page);
    const fixed = lines.at(-1)!.mes;
    assert.ok(fixed.length < before.length, 'the fix made it shorter');
    assert.doesNotMatch(fixed, /Revise your reply|Request:/);
});

test('a director briefs SillyTavern\'s own reply, and a keeper keeps the memory after it', async () => {
    const page = await demoChat();
    await slash(page, '/agent pipeline before=director reply=sillytavern after=memory-keeper');
    await sendMessage(page, 'Good morning, Seraphina.');
    assert.match(await lastBotMessageText(page), /director's brief was in its prompt/);
    const keeper = await eventually(async () => {
        const runs = await page.evaluate(() => globalThis.TavernAgent!.runs());
        return runs.find((run) => run.profileId === 'memory-keeper' && run.state === 'completed');
    }, 'the memory keeper to finish');
    const memory = await page.evaluate((id) => globalThis.TavernAgent!.readFile(id, 'persist/threads.md'), keeper.runId);
    assert.match(memory, /^# Threads\n\n- .*glade will keep you safe/m);
});
