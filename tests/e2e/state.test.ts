// Issue 36: state that follows the story. The agent reads and stages changes of the chat's state systems;
// a commit writes them, each the way its system expects. SillyTavern's own chat variables are made
// branch-aware: a swipe, swiping back and a deletion each show the branch's value in /getvar and {{getvar}}.
// MVU and Tavern Helper are not installed here: their formats are exercised with fixtures of their documented
// shapes (a message whose variables for its swipe hold stat_data and schema), and the update block the reply
// gets is checked against MVU's documented JSON-Patch grammar by a checker written here, independently.
import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openCharacter, sendMessage } from '../harness/browser';
import { call, calls, chatLines, openAgentChat, openInLanguage, toolResults } from '../harness/agent';
import type { MockTurn } from '../harness/mock-model';
import { REPO_ROOT, slash, startTavernSession, type TavernSession } from '../harness/tavern';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

/** The parts of SillyTavern's context these tests read that the harness's StContext type leaves out (ST 1.19 has them). */
interface StatePage {
    substituteParams(text: string): string;
    swipe: { state(): string };
    variables: { local: { get(key: string): unknown } };
}

const finishWith = (text: string): MockTurn => calls(call('workspace_write_file', { path: 'output/main.md', content: text }), call('workspace_commit', {}), call('workspace_finish', {}));

async function waitForIdle(page: Page): Promise<void> {
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 60_000 });
}

const getvar = async (page: Page, key: string) => slash(page, `/getvar ${key}`);
const macro = (page: Page, text: string) => page.evaluate((t) => (SillyTavern!.getContext() as unknown as StatePage).substituteParams(t), text);

/** The result text the model was shown for the first call of `name` in the latest request that has one. */
function shownResult(name: string): string {
    for (const request of [...session.mock.generations()].reverse()) {
        const found = toolResults(request).find((result) => result.name === name);
        if (found) return found.content;
    }
    return '';
}

test('state_set of chat /hp: committed, {{getvar}} and /getvar answer 7; a swipe shows the value before, swiping back 7 again, deleting the reply the old value', async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    await slash(page, '/setvar key=hp 10');
    session.mock.enqueue(calls(call('state_set', { scope: 'chat', path: '/hp', value: 7, reason: 'She drank the potion.' })), finishWith('She drinks the potion and feels stronger.'));
    await sendMessage(page, 'Drink the potion.');
    assert.match(shownResult('state_set'), /\/hp: "10" → 7/, 'the model was shown the change as a diff');
    assert.equal(await getvar(page, 'hp'), '7');
    assert.equal(await macro(page, 'HP is {{getvar::hp}}.'), 'HP is 7.');
    const reply = (await chatLines(page)).at(-1)!;
    assert.equal(reply.mes, 'She drinks the potion and feels stronger.', 'the chat variable leaves the reply text as it is');

    // A swipe: the agent writes another take, which changes no state.
    session.mock.enqueue(calls(call('state_get', { scope: 'chat', path: '/hp' })), finishWith('She hesitates and puts the potion away.'));
    await page.locator('#chat .mes').last().locator('.swipe_right').click();
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'She hesitates and puts the potion away.', undefined, { timeout: 60_000 });
    await waitForIdle(page);
    assert.match(shownResult('state_get'), /\n"10"$/, 'the swipe run read the state before the reply it replaces');
    assert.equal(await getvar(page, 'hp'), '10', 'the new swipe shows the value from before');

    await page.locator('#chat .mes').last().locator('.swipe_left').click();
    // SillyTavern's swipe animation ends after the swipe itself: the next action waits for it, as a user does.
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.swipe_id === 0 && (SillyTavern!.getContext() as unknown as StatePage).swipe.state() !== 'swiping');
    await page.waitForFunction(() => (SillyTavern!.getContext() as unknown as StatePage).variables.local.get('hp') === 7);
    assert.equal(await getvar(page, 'hp'), '7', 'swiping back shows 7 again');

    await slash(page, '/del 1');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.is_user === true);
    await page.waitForFunction(() => (SillyTavern!.getContext() as unknown as StatePage).variables.local.get('hp') === 10);
    assert.equal(await getvar(page, 'hp'), '10', 'deleting the reply shows the old value');
    assert.equal(await macro(page, '{{getvar::hp}}'), '10');
});

test('a run that stages a write and is stopped leaves the variable unchanged', async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    await slash(page, '/setvar key=gold 3');
    session.mock.enqueue(calls(call('state_set', { scope: 'chat', path: '/gold', value: 300 })), { delayMs: 20_000, ...finishWith('Never written.') });
    await page.fill('#send_textarea', 'Find treasure.');
    await page.click('#send_but');
    await session.mock.waitForGenerations(2, 30_000);
    assert.match(shownResult('state_set'), /\/gold: "3" → 300/, 'the write was staged');
    await page.click('#mes_stop');
    await waitForIdle(page);
    assert.equal(await getvar(page, 'gold'), '3');
    assert.ok((await chatLines(page)).every((line) => !line.mes.includes('Never written')));
});

test('a regenerated reply reads the state from before the reply it replaces, not what that reply wrote', async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    await slash(page, '/setvar key=hp 10');
    session.mock.enqueue(calls(call('state_patch', { scope: 'chat', ops: [{ op: 'delta', path: '/hp', value: -4 }] })), finishWith('The wolf bites.'));
    await sendMessage(page, 'Fight the wolf.');
    assert.equal(await getvar(page, 'hp'), '6');
    session.mock.enqueue(calls(call('state_get', { scope: 'chat', path: '/hp' })), finishWith('The wolf misses.'));
    await page.click('#options_button');
    await page.click('#option_regenerate');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'The wolf misses.', undefined, { timeout: 60_000 });
    await waitForIdle(page);
    assert.match(shownResult('state_get'), /\n"10"$/, 'the regenerate run read 10, not the 6 the replaced reply wrote');
    assert.equal(await getvar(page, 'hp'), '10', 'the replaced reply took its change with it');
});

/**
 * MVU's JSON-Patch dialect as its documentation states it (design note §3.3), checked independently of the
 * code that writes it: an `<UpdateVariable>` block with an `<Analyze>` part and a `<JSONPatch>` array of ops,
 * each `replace`/`delta`/`add`/`insert`/`remove`/`move`, with JSON Pointer paths, a number for delta, a
 * source and a target for move.
 */
function checkMvuBlock(text: string): Array<Record<string, unknown>> {
    const block = /<UpdateVariable>\s*<Analyze>[\s\S]*?<\/Analyze>\s*<JSONPatch>([\s\S]*?)<\/JSONPatch>\s*<\/UpdateVariable>\s*$/.exec(text);
    assert.ok(block, 'the reply ends with an <UpdateVariable> block with <Analyze> and <JSONPatch>');
    const ops = JSON.parse(block[1]!) as unknown;
    assert.ok(Array.isArray(ops) && ops.length > 0, 'the patch is a non-empty JSON array');
    const pointer = (value: unknown) => typeof value === 'string' && /^(\/([^~/]|~[01])*)+$/.test(value);
    for (const op of ops as Array<Record<string, unknown>>) {
        assert.ok(['replace', 'delta', 'add', 'insert', 'remove', 'move'].includes(String(op.op)), `a known op: ${JSON.stringify(op)}`);
        if (op.op === 'move') assert.ok(pointer(op.from) && (pointer(op.path) || pointer(op.to)), 'move has from and a target');
        else assert.ok(pointer(op.path), `a JSON Pointer path: ${JSON.stringify(op)}`);
        if (op.op === 'delta') assert.equal(typeof op.value, 'number');
        if (['replace', 'add', 'insert'].includes(String(op.op))) assert.ok('value' in op);
    }
    return ops as Array<Record<string, unknown>>;
}

test('an MVU-shaped chat: state_get reads /stat_data, a delta appends an update block in MVU grammar, and the snapshot follows', async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    await page.evaluate(async () => {
        const context = SillyTavern!.getContext();
        const greeting = context.chat[0] as unknown as { variables?: unknown[] };
        greeting.variables = [
            {
                stat_data: { hp: [10, 'Health points, 0 to 10'], place: 'Mill', bag: ['rope'] },
                schema: { type: 'object', properties: { hp: { type: 'number' }, place: { type: 'string' }, bag: { type: 'array', extensible: true, elementType: { type: 'string' } } } },
                initialized_lorebooks: {},
            },
        ];
        await context.saveChat();
    });
    session.mock.enqueue(
        calls(call('state_scopes', {}), call('state_get', { scope: 'mvu', path: '/stat_data/hp' })),
        calls(
            call('state_patch', { scope: 'mvu', ops: [{ op: 'delta', path: '/stat_data/hp', value: -3 }, { op: 'insert', path: '/stat_data/bag/-', value: 'torch' }], reason: 'The trap hurt her; she found a torch.' }),
            call('state_set', { scope: 'mvu', path: '/stat_data/place', value: 7 }),
            call('state_set', { scope: 'message', path: '/mood', value: 'wary' }),
        ),
        finishWith('A dart flies from the wall. She finds a torch.'),
    );
    await sendMessage(page, 'Search the room.');
    const scopes = shownResult('state_scopes');
    assert.match(scopes, /^mvu — .*snapshot of message #0/m);
    assert.match(scopes, /\/stat_data\/hp: number — Health points, 0 to 10/, 'the schema outline carries the description');
    assert.match(shownResult('state_get'), /\n10$/);
    assert.match(shownResult('state_set'), /state\.schema_rejected/, "MVU's schema refuses a number for place");

    const reply = await page.evaluate(() => {
        const message = SillyTavern!.getContext().chat.at(-1) as unknown as { mes: string; swipe_id?: number; variables?: Array<Record<string, unknown>> };
        return { mes: message.mes, table: message.variables?.[message.swipe_id ?? 0] ?? null };
    });
    assert.ok(reply.mes.startsWith('A dart flies from the wall. She finds a torch.\n\n<UpdateVariable>'));
    const ops = checkMvuBlock(reply.mes);
    assert.deepEqual(ops, [{ op: 'delta', path: '/hp', value: -3 }, { op: 'insert', path: '/bag/-', value: 'torch' }]);
    assert.match(reply.mes, /<Analyze>The trap hurt her; she found a torch\.<\/Analyze>/);
    // Without MVU on the page, the snapshot is written in its format: the description pair kept.
    assert.deepEqual((reply.table as { stat_data?: unknown }).stat_data, { hp: [7, 'Health points, 0 to 10'], place: 'Mill', bag: ['rope', 'torch'] });
    assert.equal((reply.table as { mood?: unknown }).mood, 'wary', "Tavern Helper's message variables of the reply's swipe");
    assert.ok((reply.table as { schema?: unknown }).schema, 'the schema is carried forward');
});

test('a global write waits for Approve in the timeline; Deny answers tool.denied_by_user and writes nothing', async () => {
    const page = await openAgentChat(session, { reuse: true });
    await page.evaluate(() => {
        const seen: unknown[] = [];
        (globalThis as { __stateEvents?: unknown[] }).__stateEvents = seen;
        SillyTavern!.getContext().eventSource.on('tavern_agent_state_committed', (data: unknown) => seen.push(data));
    });
    session.mock.enqueue(calls(call('state_set', { scope: 'global', path: '/season', value: 'winter' })), finishWith('Snow falls.'));
    const first = sendMessage(page, 'Let winter come.');
    const approval = page.locator('[data-testid="ext-tool-approval"]');
    await approval.waitFor({ timeout: 60_000 });
    assert.equal(await approval.getAttribute('data-tool'), 'state.set');
    assert.match(await approval.locator('pre').innerText(), /winter/);
    await page.click('[data-testid="ext-tool-approve"]');
    await first;
    assert.equal(await slash(page, '/getglobalvar season'), 'winter');
    const events = await page.evaluate(() => (globalThis as { __stateEvents?: unknown[] }).__stateEvents);
    assert.deepEqual(events, [{ scope: 'global', messageId: 2, swipeId: 0, ops: [{ op: 'replace', path: '/season', value: 'winter' }] }]);

    session.mock.enqueue(calls(call('state_set', { scope: 'global', path: '/season', value: 'summer' })), finishWith('The snow stays.'));
    const second = sendMessage(page, 'Now summer.');
    await approval.waitFor({ timeout: 60_000 });
    await page.click('[data-testid="ext-tool-deny"]');
    await second;
    assert.match(shownResult('state_set'), /tool\.denied_by_user/);
    assert.equal(await slash(page, '/getglobalvar season'), 'winter', 'nothing was written');
    await slash(page, '/flushglobalvar season');
});

test("the state keeper after SillyTavern's own reply: its change goes into that reply, and a new swipe of it goes back", async () => {
    const page = await openAgentChat(session, { panel: false, reuse: true });
    const offersTools = (request: { body?: { tools?: unknown } }) => Array.isArray(request.body?.tools) && (request.body.tools as unknown[]).length > 0;
    session.mock.route({ when: (request) => !offersTools(request), turns: [{ text: 'Seraphina hums, calm again.' }, { text: 'Seraphina frowns.' }] });
    session.mock.route({
        when: offersTools,
        turns: [calls(call('state_set', { scope: 'chat', path: '/mood', value: 'calm', reason: 'She calmed down.' }), call('workspace_finish', {})), calls(call('workspace_finish', {}))],
    });
    await slash(page, '/agent pipeline reply=sillytavern after=state-keeper');
    await sendMessage(page, 'Are you all right?');
    await page.waitForFunction(() => (SillyTavern!.getContext() as unknown as StatePage).variables.local.get('mood') === 'calm', undefined, { timeout: 60_000 });
    const reply = (await chatLines(page)).at(-1)!;
    assert.equal(reply.mes, 'Seraphina hums, calm again.', "SillyTavern's reply, its text untouched");
    assert.equal(reply.runId, null, 'the reply is SillyTavern’s');

    await page.locator('#chat .mes').last().locator('.swipe_right').click();
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Seraphina frowns.', undefined, { timeout: 60_000 });
    // The keeper of the new swipe changes nothing: the variable is as it was before the reply (unset).
    await session.mock.waitUntil(() => session.mock.generations().filter(offersTools).length === 2, 'the second keeper run');
    await page.waitForFunction(() => (SillyTavern!.getContext() as unknown as StatePage).variables.local.get('mood') === '', undefined, { timeout: 30_000 });
    await slash(page, '/agent pipeline reply=agent after=none');
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A run that stages two changes and commits, shown in the panel with its state change opened. */
async function stateRunShown(page: Page): Promise<void> {
    await slash(page, '/setvar key=hp 10');
    session.mock.enqueue(
        calls(call('state_patch', { scope: 'chat', ops: [{ op: 'delta', path: '/hp', value: -3 }, { op: 'replace', path: '/place', value: 'Old mill' }], reason: 'The wolf bit her at the mill.' })),
        finishWith('The wolf bites, and she limps into the old mill.'),
    );
    await sendMessage(page, 'Run to the mill.');
    const change = page.locator('.tavern-agent__event[data-event-type="state-change"]').first();
    await change.waitFor();
    await change.locator('.tavern-agent__row-toggle').click();
    await page.locator('.tavern-agent__event[data-event-type="state-write"]').first().waitFor();
}

test('screenshots: a staged state change and its write in the timeline, at 1280 and 390 px, in English and Chinese', async () => {
    const images = path.join(REPO_ROOT, 'docs', 'images');
    const artifacts = path.join(REPO_ROOT, 'test-results');
    mkdirSync(artifacts, { recursive: true });
    for (const language of ['en', 'zh-cn'] as const) {
        const { page } = await openInLanguage(session, language, DESKTOP);
        await openCharacter(page);
        await slash(page, '/newchat');
        await slash(page, '/agent on');
        await page.click('#tavern_agent_button .drawer-icon');
        session.mock.reset();
        await stateRunShown(page);
        const title = await page.locator('.tavern-agent__event[data-event-type="state-change"] .tavern-agent__event-title').first().innerText();
        assert.equal(title, language === 'en' ? 'State change staged' : '已暂存状态变更');
        const diff = await page.locator('.tavern-agent__event[data-event-type="state-change"] pre').first().innerText();
        assert.match(diff, /- \/hp: "10"\n\+ \/hp: 7\n\+ \/place: "Old mill"/, 'the change as a diff of the state');
        for (const [name, viewport] of [['desktop', DESKTOP], ['phone', PHONE]] as const) {
            await page.setViewportSize(viewport);
            await page.evaluate(() => document.querySelectorAll('#toast-container').forEach((toasts) => toasts.remove()));
            await page.locator('.tavern-agent__event[data-event-type="state-change"]').first().scrollIntoViewIfNeeded();
            await page.waitForTimeout(200);
            await page.screenshot({ path: language === 'en' ? path.join(images, `state-${name}.png`) : path.join(artifacts, `state-${name}-zh-cn.png`) });
        }
        await closePage(page);
    }
});
