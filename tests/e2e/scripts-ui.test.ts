// The user's side of scripts (issue 35), in real SillyTavern: a card's install offer lists its skill's scripts
// and says when they run; the skill manager lists each script with its size and the profiles that may run
// it; the profile editor switches a profile's scripts off, after which the manager no longer lists it and its
// runs are offered neither script tool. A script_run shows in the timeline as its program, each tool it
// called as a nested row, and its result. Screenshots at 1280 and 390 px, in English and Chinese (the English
// ones docs/scripts.md shows go to docs/images/, the others to test-results/).
import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { agentOn, call, calls, offeredTools } from '../harness/agent';
import { openCharacter, sendMessage, waitForSillyTavernReady } from '../harness/browser';
import { REPO_ROOT, slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';
import { cardJson, importCard, offered, OFFER } from '../fixtures/cards';
import { skillMd } from '../fixtures/skill-files';

const artifacts = path.join(REPO_ROOT, 'test-results');
const images = path.join(REPO_ROOT, 'docs', 'images');
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
let session: TavernSession;

before(async () => {
    mkdirSync(artifacts, { recursive: true });
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const finish = (text = 'Done.') => calls(call('workspace_write_file', { path: 'output/main.md', content: text }), call('workspace_commit', {}), call('workspace_finish', {}));

const TOTAL = "import { sum } from './lib/sum.js';\nexport default (args) => ({ total: sum(args.values) });";
const SUM = 'export const sum = (values) => values.reduce((a, b) => a + b, 0);';

function statsPayload() {
    return {
        version: 1,
        items: [
            {
                bundleFormat: 'inline-files-v1',
                skillName: 'stat-table',
                files: [
                    { path: 'SKILL.md', encoding: 'utf8', content: skillMd('stat-table', 'Computes a stat table.', 'Run `total` with `{ "values": [...] }`.') },
                    { path: 'scripts/total.js', encoding: 'utf8', content: TOTAL },
                    { path: 'scripts/lib/sum.js', encoding: 'utf8', content: SUM },
                ],
                source: { kind: 'character', id: 'tally', label: 'Tally' },
            },
        ],
    };
}

const bytes = (text: string) => `${Buffer.byteLength(text)} B`;

async function codes(page: Page, selector: string): Promise<string[]> {
    return (await page.locator(selector).allInnerTexts()).map((text) => text.trim());
}

/** The stat-table skill opened in the manager, as a fresh mount (it asks who may run its scripts when opened). */
async function openSkill(page: Page) {
    const item = page.locator('[data-testid="skill-item"][data-skill="stat-table"]');
    if ((await item.locator('[data-testid="skill-body"]').count()) > 0) await item.locator('[data-testid="skill-toggle"]').click();
    await item.locator('[data-testid="skill-toggle"]').click();
    await item.locator('[data-testid="skill-seen-by"] code').first().waitFor();
    await item.locator('[data-testid="skill-script-runners"] code').first().waitFor();
    return item;
}

test("a card's scripts: the offer lists them, the manager shows their sizes and who may run them, and a profile switched off in the editor leaves that list and is offered neither tool", async () => {
    const { page, pageErrors } = await session.open(DESKTOP);
    await waitForExtension(page);
    const avatar = await importCard(page, cardJson('Tally', statsPayload()));
    await openCharacter(page, avatar);

    // The offer lists the skill's scripts and says when they run: not the old "stored, never run".
    assert.equal(await offered(page), true);
    const offer = page.locator(OFFER);
    assert.deepEqual(await offer.locator('.tavern-agent-skill-offer__script').evaluateAll((items) => items.map((item) => item.textContent)), [
        `scripts/lib/sum.js · ${bytes(SUM)}`,
        `scripts/total.js · ${bytes(TOTAL)}`,
    ]);
    const note = await offer.locator('.tavern-agent-skill-offer__note').innerText();
    assert.match(note, /scripts run in a sandbox .* when the agent's profile allows scripts/);
    assert.doesNotMatch(note, /never run/);
    await offer.locator('.popup-button-ok').click();
    await page.waitForFunction(() => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { index?: Array<{ name: string }> } | undefined>;
        return (settings.tavern_agent_skills?.index ?? []).some((line) => line.name === 'stat-table');
    });

    // The manager: each script with its size, and the profiles that may run them (all that see it: every built-in runs scripts).
    await page.click('#tavern_agent_button .drawer-icon');
    await page.locator('aside.tavern-agent').waitFor();
    await page.click('#tavern_agent_skills > summary');
    let item = await openSkill(page);
    assert.deepEqual(await codes(page, '[data-skill="stat-table"] [data-testid="skill-script"]'), [`scripts/lib/sum.js ${bytes(SUM)}`, `scripts/total.js ${bytes(TOTAL)}`]);
    const seenBy = await item.locator('[data-testid="skill-seen-by"] code').allInnerTexts();
    const runners = await item.locator('[data-testid="skill-script-runners"] code').allInnerTexts();
    assert.ok(runners.includes('writer'), runners.join(', '));
    assert.deepEqual([...runners].sort(), [...seenBy].sort(), 'every built-in that sees it may run its scripts');
    assert.equal(await page.locator('[data-testid="skill-script-badge"]').count(), 0, 'no "stored only, never run" mark');

    // The profile editor: the writer's Scripts set to off and saved; the matrix has no box for the script tools.
    await page.click('#tavern_agent_profiles > summary');
    await page.click('[data-testid="profile-list"] [data-profile-id="writer"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="profile-form"]')?.getAttribute('data-profile-id') === 'writer');
    assert.equal(await page.inputValue('#tavern_agent_profile_scripts'), 'all');
    assert.equal(await page.locator('[data-testid="capability-matrix"] [data-tool="script.run"], [data-testid="capability-matrix"] [data-tool="skill.run_script"]').count(), 0);
    await page.selectOption('#tavern_agent_profile_scripts', 'off');
    await page.click('[data-testid="profile-save"]');
    await page.locator('[data-profile-id="writer"] [data-testid="profile-changed"]').waitFor();
    assert.equal(
        await page.evaluate(() => (SillyTavern!.getContext().extensionSettings.tavern_agent as { profiles: Record<string, { scripts?: string }> }).profiles.writer?.scripts),
        'off',
    );

    // The manager, reopened: the writer still sees the skill but may no longer run its scripts.
    item = await openSkill(page);
    assert.ok((await item.locator('[data-testid="skill-seen-by"] code').allInnerTexts()).includes('writer'));
    assert.ok(!(await item.locator('[data-testid="skill-script-runners"] code').allInnerTexts()).includes('writer'));

    // And a writer run is offered neither script tool.
    await slash(page, '/newchat');
    assert.equal(JSON.parse(await slash(page, '/agent profile writer')).profileId, 'writer');
    await agentOn(page);
    session.mock.reset();
    session.mock.enqueue(finish());
    await sendMessage(page, 'Hello.');
    const tools = offeredTools(session.mock.generations()[0]!);
    assert.ok(tools.includes('skill_read'), tools.join(', '));
    assert.ok(!tools.includes('skill_run_script') && !tools.includes('script_run'), tools.join(', '));
    assert.deepEqual(pageErrors, []);
    await closePage(page);
});

const PROGRAM = `const tally = {};
for (const word of args.words) {
    const text = await tools.chat_search({ query: word });
    tally[word] = (text.match(/ref chat:current#/g) || []).length;
}
try { await tools.chat_search({}); } catch (error) { console.log('no query: ' + error.code); }
return { tally, note: '<b>not bold</b>' };`;

/** A fresh page in a language on a new chat with Agent Mode on, the panel open, after one run that ran PROGRAM. */
async function programRun(language: 'en' | 'zh-cn') {
    const opened = await session.open(DESKTOP);
    const { page } = opened;
    if (language !== 'en') {
        // SillyTavern reads its language at load: set it, then load again.
        await page.evaluate((code) => localStorage.setItem('language', code), language);
        await page.reload({ waitUntil: 'domcontentloaded' });
        await waitForSillyTavernReady(page);
    }
    await waitForExtension(page);
    await openCharacter(page);
    await slash(page, '/newchat');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
    assert.equal(JSON.parse(await slash(page, '/agent profile game-master')).profileId, 'game-master');
    await agentOn(page);
    await page.click('#tavern_agent_button .drawer-icon');
    session.mock.reset();
    session.mock.enqueue(calls(call('script_run', { code: PROGRAM, args: { words: ['Seraphina', 'forest', 'glade'] } })), finish('Counted.'));
    await sendMessage(page, 'How often did we mention each thing?');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor({ timeout: 30_000 });
    return opened;
}

const programRow = (page: Page) => page.locator('.tavern-agent__run .tavern-agent__timeline-frame > ol > li > .tavern-agent__event[data-kind="tool"]', { has: page.locator('.tavern-agent__event-title', { hasText: 'script.run' }) });

test('a script_run row opens into its program, each tool it called as a nested row, and its result, all as text', async () => {
    const { page, pageErrors } = await programRun('en');
    const row = programRow(page);
    assert.match(await row.locator('.tavern-agent__event-detail').first().innerText(), /^tool calls: 4 \(1 ✕\) · \{"tally"/);
    await row.locator('.tavern-agent__row-toggle').first().click();
    const code = row.locator('[data-testid="program-code"] pre');
    await code.waitFor();
    assert.equal(await code.textContent(), PROGRAM, 'the program as the model wrote it');
    const nested = row.locator('[data-testid="program-calls"] > ol > li > .tavern-agent__event');
    assert.deepEqual(
        await nested.evaluateAll((rows) => rows.map((el) => `${el.querySelector('.tavern-agent__event-title')?.textContent}=${el.getAttribute('data-status')}`)),
        ['chat.search=completed', 'chat.search=completed', 'chat.search=completed', 'chat.search=error'],
    );
    // An inner call opens into its own arguments and result.
    await nested.first().locator('.tavern-agent__row-toggle').click();
    await nested.first().locator('[aria-label="Arguments"] pre', { hasText: '"query": "Seraphina"' }).waitFor();
    await nested.first().locator('[aria-label="Result"] pre').waitFor();
    // The failed one says its code.
    assert.match(await nested.nth(3).locator('.tavern-agent__event-detail').innerText(), /^tool\.\w+|^\w+\.\w+/);
    // The result: the returned JSON and the console output; markup from the program stays text.
    const result = row.locator(':scope > .tavern-agent__row-body > [aria-label="Result"] pre');
    await result.waitFor();
    const text = (await result.textContent()) ?? '';
    assert.match(text, /^Program result:\n\{"tally":\{"Seraphina":\d+,"forest":\d+,"glade":\d+\},"note":"<b>not bold<\/b>"\}\nConsole:\nno query: \w+\.\w+/);
    assert.equal(await page.locator('aside.tavern-agent b').count(), 0, 'no element is made from script text');
    assert.deepEqual(pageErrors, []);
    await closePage(page);
});

/** The panel scrolled to the program's row: nothing sticks out, no sideways scrolling; then a picture. */
async function shoot(page: Page, viewport: typeof DESKTOP, file: string): Promise<void> {
    await page.setViewportSize(viewport);
    await page.evaluate(() => document.querySelectorAll('#toast-container').forEach((toasts) => toasts.remove()));
    const wide = await page.$$eval('aside.tavern-agent *', (elements) =>
        elements.filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((el) => String(el.className || el.tagName)),
    );
    assert.deepEqual(wide, [], `${file}: nothing sticks out of the screen`);
    assert.equal(await page.locator('aside.tavern-agent').evaluate((el) => el.scrollWidth > el.clientWidth), false, `${file}: no sideways scrolling`);
    await programRow(page).evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.waitForTimeout(200);
    await page.screenshot({ path: file });
}

test('screenshots: a script_run row opened, at 1280 and 390 px, in English and Chinese', async () => {
    mkdirSync(images, { recursive: true });
    for (const language of ['en', 'zh-cn'] as const) {
        const { page, pageErrors } = await programRun(language);
        const file = (name: string) => (language === 'en' ? path.join(images, `${name}.png`) : path.join(artifacts, `${name}-zh-cn.png`));
        const row = programRow(page);
        await row.locator('.tavern-agent__row-toggle').first().click();
        await row.locator('[data-testid="program-calls"]').waitFor();
        // One inner call opened too, to show what a nested row holds.
        await row.locator('[data-testid="program-calls"] > ol > li > .tavern-agent__event').first().locator('.tavern-agent__row-toggle').click();
        if (language === 'zh-cn') assert.match(await row.locator('[data-testid="program-calls"] > h5').innerText(), /程序调用的工具/);
        await shoot(page, { width: DESKTOP.width, height: 1400 }, file('script-run-desktop'));
        await shoot(page, { width: PHONE.width, height: 1400 }, file('script-run-phone'));
        assert.deepEqual(pageErrors, []);
        await closePage(page);
    }
});
