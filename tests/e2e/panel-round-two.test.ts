import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { agentOn, call, calls, gate, openAgentChat, restoreSettingsAfter } from '../harness/agent';
import { openCharacter, waitForSillyTavernReady } from '../harness/browser';
import { REPO_ROOT, slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

const images = path.join(REPO_ROOT, 'docs/images');
const artifacts = path.join(REPO_ROOT, 'test-results');

/**
 * SillyTavern's character list open and pinned, as a user keeps it (an unpinned drawer closes when the panel
 * opens). The pin outlives the page (SillyTavern keeps it per user), so each step is taken only if needed.
 * Call it with the panel closed: the panel hides a pinned list while it is open.
 */
async function pinCharacterList(page: Page): Promise<void> {
    if (!(await page.locator('#right-nav-panel.openDrawer').count())) await page.click('#rightNavDrawerIcon');
    await page.locator('#right-nav-panel.openDrawer').waitFor();
    if (!(await page.locator('#rm_button_panel_pin').isChecked())) await page.locator('label[for="rm_button_panel_pin"]').click();
    await page.locator('#right-nav-panel.pinnedOpen').waitFor();
}

/**
 * The panel with the character drawer open, at 1280 and 390 px: English into docs/images (the README's
 * picture), other languages into test-results/ to be looked at.
 */
async function shootPanel(page: Page, name: string, language: string): Promise<void> {
    mkdirSync(images, { recursive: true });
    mkdirSync(artifacts, { recursive: true });
    for (const [size, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]] as const) {
        await page.setViewportSize(viewport);
        // The panel opened last is on top: open it again over the drawer.
        if (await page.locator('aside.tavern-agent').count()) await page.click('#tavern_agent_button .drawer-icon');
        await pinCharacterList(page);
        await page.click('#tavern_agent_button .drawer-icon');
        await page.locator('aside.tavern-agent .tavern-agent__run').waitFor();
        await page.waitForTimeout(300);
        const file = language === 'en' ? path.join(images, `${name}-${size}.png`) : path.join(artifacts, `${name}-${size}-${language}.png`);
        await page.screenshot({ path: file });
    }
    await page.setViewportSize({ width: 1280, height: 900 });
}

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

/** The header's elapsed time in ms, as drawn ("788 ms", "2.3 s"; a test run stays under a minute). */
function readElapsed(page: Page): Promise<number | null> {
    return page.evaluate(() => {
        const stat = document.querySelector('.tavern-agent__run-header [data-stat="elapsed"]');
        if (!stat) return null;
        const match = /(-?[\d.]+)\s*(ms|s)\s*$/.exec((stat.textContent ?? '').trim());
        return match ? Number(match[1]) * (match[2] === 'ms' ? 1 : 1000) : null;
    });
}

test('the elapsed time runs forward, at least once a second, while the model is held', async () => {
    const page = await openAgentChat(session, { reuse: true });
    // Held on a gate, not a timer: on a starved machine the sampling below may take far longer than planned,
    // and the request must still be out when the running row is read.
    const held = gate();
    session.mock.enqueue({ ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'Slow text.' })), waitFor: held.promise }, calls(call('workspace_commit', {}), call('workspace_finish', { reason: 'done' })));
    await page.fill('#send_textarea', 'Take your time.');
    await page.click('#send_but');
    await page.locator('.tavern-agent__run[data-run-state="running"] .tavern-agent__event[data-kind="model"][data-status="running"]').waitFor();
    const samples: number[] = [];
    const sampledAt: number[] = [];
    let rowMeta: string | null = null;
    // At least 13 samples over at least 2.6 s, one every 200 ms, while the held request is still out.
    const started = Date.now();
    // Opened however the sampling ends, so a failure here does not leave the run held for the next test.
    try {
        while (samples.length < 13 || Date.now() - started < 2_600) {
            const value = await readElapsed(page);
            if (value !== null) {
                samples.push(value);
                sampledAt.push(Date.now());
            }
            // Past a second and a half: the running model row ticks too.
            if (rowMeta === null && Date.now() - started > 1_500) rowMeta = await page.locator('.tavern-agent__event[data-kind="model"][data-status="running"] .tavern-agent__event-meta').textContent({ timeout: 5_000 });
            await page.waitForTimeout(200);
        }
    } finally {
        held.open();
    }
    samples.slice(1).forEach((value, i) => assert.ok(value >= samples[i]!, `elapsed went back: ${samples.join(', ')}`));
    // Ticking at least once a second, the last reading lags the truth by about a second (plus the 0.1 s
    // the header rounds to); a busy CI machine stretches the sampling, so the bound follows its real span.
    const span = sampledAt.at(-1)! - sampledAt[0]!;
    assert.ok(samples.length >= 13 && span >= 2_000, `too few samples: ${samples.length} over ${span} ms`);
    // A second more of slack: on a starved page (load 17 here) the once-a-second timer itself fires late.
    assert.ok(samples.at(-1)! - samples[0]! >= span - 2_100, `elapsed grew too little over ${span} ms: ${samples.join(', ')}`);
    assert.match(rowMeta ?? '', /^\d+(\.\d)? s$/, 'the running model row shows its elapsed time, past a second');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor({ timeout: 30_000 });
});

test('at 320 px the Guide input and button lie inside the panel, and Stop and Guide keep their words on one line', async () => {
    const page = await openAgentChat(session, { reuse: true });
    session.mock.enqueue({ ...calls(call('workspace_finish', { reason: 'held' })), delayMs: 60_000 });
    await page.locator('aside.tavern-agent').evaluate((el) => (el as HTMLElement).style.setProperty('--tavern-agent-width', '320px'));
    await page.fill('#send_textarea', 'Hold on.');
    await page.click('#send_but');
    await page.locator('#tavern_agent_guidance').waitFor();
    const box = (selector: string) => page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect);
    const boxes = {
        panel: await box('aside.tavern-agent'),
        input: await box('#tavern_agent_guidance'),
        button: await box('#tavern_agent_guidance_send'),
        stopHeight: (await box('.tavern-agent__runs-header .tavern-agent__stop')).height,
    };
    assert.ok(Math.abs(boxes.panel.width - 320) < 2, `the panel is 320 px wide: ${boxes.panel.width}`);
    for (const [name, box] of [['input', boxes.input], ['button', boxes.button]] as const) {
        assert.ok(box.left >= boxes.panel.left && box.right <= boxes.panel.right + 0.5, `the Guide ${name} lies inside the panel: ${JSON.stringify(box)} in ${JSON.stringify(boxes.panel)}`);
        assert.ok(box.width > 20, `the Guide ${name} is not squeezed away`);
    }
    assert.ok(boxes.stopHeight < 40, `Stop stays one line: ${boxes.stopHeight} px`);
    await page.evaluate(() => globalThis.TavernAgent!.stop());
    await page.locator('.tavern-agent__run[data-run-state="cancelled"]').waitFor();
});

/**
 * Runs of Latin letters the reader sees under `root`, outside code, ids and file paths: text in code,
 * pre, kbd and monospaced spans is skipped, and so are words with a dot, slash, # or digit in
 * them (tool names, paths, run ids; not an underscore: tool_calls is a word a reader meets), units after a number, and input values of those kinds.
 */
async function englishIn(page: Page, root: string): Promise<string[]> {
    // Collected in the page, judged here (a named function inside evaluate would need tsx's helpers there).
    const texts = await page.evaluate((selector) => {
        // The model's own words (its finish reason, a built-in's prompt to the model) are not the panel's.
        const skipped =
            'code, pre, kbd, .tavern-agent__code, .tavern-agent__mono, .tavern-agent__visually-hidden, [data-row-key] .tavern-agent__event-title, [data-event-type="run-finish"] .tavern-agent__event-detail, #tavern_agent_profile_systemPrompt, #tavern_agent_profile_id';
        const found: Array<[string, string]> = [];
        for (const scope of document.querySelectorAll(selector)) {
            const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const parent = node.parentElement!;
                if (parent.closest(skipped) || parent.closest('[hidden], [aria-hidden="true"]')) continue;
                if (parent.getClientRects().length === 0 && parent.tagName !== 'OPTION') continue;
                found.push([node.textContent ?? '', parent.className || parent.tagName]);
            }
            for (const field of scope.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[type="text"], input:not([type]), textarea')) {
                if (field.getClientRects().length && !field.matches(skipped)) found.push([`${field.value} ${field.placeholder ?? ''}`, field.id || field.name]);
            }
            for (const titled of scope.querySelectorAll('[title], [aria-label]')) {
                if (!titled.closest(skipped)) found.push([`${titled.getAttribute('title') ?? ''} ${titled.getAttribute('aria-label') ?? ''}`, `@title ${titled.className}`]);
            }
        }
        return found;
    }, root);
    const offenders: string[] = [];
    for (const [text, where] of texts) {
        // An id in parentheses after its name ("研究员 (researcher)") is the id, as the panel shows ids.
        const words = text.replace(/\([a-z0-9_-]+\)/g, '').split(/\s+/).filter((word) => !/[./#@\d]/.test(word));
        const cleaned = words.join(' ').replace(/\b(ms|s|k|M|v|SillyTavern|Seraphina|JSON|API|ID|Token|MVU|Tracker|Tavern Helper|Chat Completion)\b/g, '');
        const match = cleaned.match(/[A-Za-z]{2,}(?:[^\S\n]+[A-Za-z]{2,})*/g);
        if (match) offenders.push(`${match.join(' | ')} ⟵ ${where}: ${text.trim().slice(0, 80)}`);
    }
    return offenders;
}

/** Opens every closed row of the shown run, one at a time (each opening re-renders the list). */
async function openAllRows(page: Page): Promise<void> {
    const closed = page.locator('.tavern-agent__run .tavern-agent__row-toggle[aria-expanded="false"]');
    for (let i = 0; i < 30 && (await closed.count()) > 0; i++) await closed.first().click();
}

test('in Chinese, a stopped run, a finished run\'s rows and the profile editor hold no English sentence', async () => {
    const { page } = await session.open({ width: 1280, height: 900 });
    await page.evaluate(() => localStorage.setItem('language', 'zh-cn'));
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page);
    await slash(page, '/newchat');
    await agentOn(page);
    await page.click('#tavern_agent_button .drawer-icon');
    session.mock.reset();
    const offenders: string[] = [];
    // A finished run: draft, patch, commit, finish; every row opened.
    session.mock.enqueue(
        { text: 'Drafting.', usage: { input: 100, output: 10 }, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'Old text.' })) },
        { usage: { input: 200, output: 20 }, ...calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'Old', new_string: 'New' })) },
        { usage: { input: 300, output: 30 }, ...calls(call('workspace_commit', {}), call('workspace_finish', { reason: 'done' })) },
    );
    await page.fill('#send_textarea', '写一段。');
    await page.click('#send_but');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor({ timeout: 30_000 });
    await openAllRows(page);
    offenders.push(...(await englishIn(page, 'aside.tavern-agent .tavern-agent__runs')).map((o) => `finished: ${o}`));
    // The opened patch shows the words it changed within the line, not only the whole line.
    await page.locator('ins .tavern-agent__diff-word').first().waitFor();
    assert.deepEqual(await page.locator('del .tavern-agent__diff-word').allTextContents(), ['Old']);
    assert.deepEqual(await page.locator('ins .tavern-agent__diff-word').allTextContents(), ['New']);
    // A stopped run.
    session.mock.enqueue({ ...calls(call('workspace_finish', { reason: 'held' })), delayMs: 60_000 });
    await page.fill('#send_textarea', '等一下。');
    await page.click('#send_but');
    await page.locator('.tavern-agent__run[data-run-state="running"]').waitFor();
    offenders.push(...(await englishIn(page, 'aside.tavern-agent .tavern-agent__runs')).map((o) => `running: ${o}`));
    await page.locator('.tavern-agent__runs-header .tavern-agent__stop').click();
    await page.locator('.tavern-agent__run[data-run-state="cancelled"]').waitFor();
    await openAllRows(page);
    offenders.push(...(await englishIn(page, 'aside.tavern-agent .tavern-agent__runs')).map((o) => `stopped: ${o}`));
    await shootPanel(page, 'run', 'zh-cn');
    // The profile editor on a built-in profile, and the default-profile options in the Extensions drawer.
    await page.click('#tavern_agent_profiles > summary');
    await page.click('[data-testid="profile-list"] [data-profile-id="game-master"]');
    await page.locator('[data-testid="profile-form"][data-profile-id="game-master"]').waitFor();
    offenders.push(...(await englishIn(page, '#tavern_agent_profiles')).map((o) => `profiles: ${o}`));
    offenders.push(...(await englishIn(page, '.tavern-agent-settings')).map((o) => `settings: ${o}`));
    if (offenders.length) console.log(offenders.join('\n'));
    assert.deepEqual(offenders, []);
    await closePage(page);
});

test('the profile editor: Saved. at the Save button, errors in words, the default commit cap, a mixed tool group', async (t) => {
    // The last test's page again (a page load is seconds of CPU). Saving changes the writer for the whole page and
    // on the server: it is put back at the end, for the tests after this one.
    const page = await openAgentChat(session, { reuse: true });
    await restoreSettingsAfter(t, page, { save: true });
    await page.click('#tavern_agent_profiles > summary');
    await page.click('[data-testid="profile-list"] [data-profile-id="writer"]');
    await page.locator('[data-testid="profile-form"][data-profile-id="writer"]').waitFor();
    // The commit cap a blank field keeps is shown.
    assert.equal(await page.locator('#tavern_agent_profile_tools_maxCallsPerTool_workspace_commit').getAttribute('placeholder'), '10');
    // A refused number says what is allowed, not what the validator checked.
    await page.fill('#tavern_agent_profile_tools_maxRounds', '0');
    await page.click('[data-testid="profile-save"]');
    const error = page.locator('[data-field="tools.maxRounds"] [data-testid="field-error"]');
    assert.equal((await error.textContent())?.trim(), 'The smallest value allowed is 1.');
    // Saved, said at the button, on screen.
    await page.fill('#tavern_agent_profile_tools_maxRounds', '7');
    await page.click('[data-testid="profile-save"]');
    const saved = page.locator('[data-testid="profile-saved"]');
    await saved.waitFor();
    const box = (await saved.boundingBox())!;
    const viewport = page.viewportSize()!;
    assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, `"Saved." is on screen: ${JSON.stringify(box)}`);
    // A group with some of its tools allowed is drawn mixed (the writer allows some workspace tools, not all context ones).
    const mixed = await page.$$eval('.tavern-agent__capability-head input[type="checkbox"]', (boxes) =>
        boxes.filter((el) => (el as HTMLInputElement).indeterminate).map((el) => getComputedStyle(el, '::before').transform),
    );
    assert.ok(mixed.length > 0, 'some group of the writer is partly allowed');
    assert.ok(mixed.every((transform) => transform !== 'none' && !transform.startsWith('matrix(0')), `the mixed box is drawn: ${mixed.join(', ')}`);
});

test('the README picture: a finished run beside the chat, with the character drawer open, at 1280 and 390 px', async () => {
    const page = await openAgentChat(session, { reuse: true });
    session.mock.enqueue(
        { text: 'Drafting the scene.', reasoning: 'Start short.', usage: { input: 1200, output: 90 }, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'The glade is quiet.\nSeraphina smiles and hands you a cup of tea.' })) },
        { usage: { input: 1400, output: 40 }, ...calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'a cup of tea', new_string: 'a steaming cup of mint tea' })) },
        { usage: { input: 1500, output: 20 }, ...calls(call('workspace_commit', {}), call('workspace_finish', { reason: 'The reply is in the chat.' })) },
    );
    await page.fill('#send_textarea', 'I wake up in the glade.');
    await page.click('#send_but');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor({ timeout: 30_000 });
    await page.locator('.tavern-agent__event[data-event-type="patch-apply"], .tavern-agent__event[data-kind="tool"]', { hasText: 'apply_patch' }).first().locator('.tavern-agent__row-toggle').click();
    await shootPanel(page, 'run', 'en');
});

test('Retry is drawn disabled, with the reason, once it can only refuse; it is enabled again when the run\'s reply is the last message', async () => {
    const page = await openAgentChat(session, { reuse: true });
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'output/main.md', content: 'A reply to retry.' }), call('workspace_commit', {}), call('workspace_finish', { reason: 'done' })));
    await page.fill('#send_textarea', 'Say something.');
    await page.click('#send_but');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor({ timeout: 30_000 });
    const retry = page.locator('.tavern-agent__run-header [data-action="retry"]');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'A reply to retry.');
    assert.equal(await retry.isEnabled(), true, 'the reply is the last message: Retry can work');

    // A plain message after the reply (Agent Mode off): the chat moved on, and Retry says so without a click.
    await slash(page, '/sendas name=Seraphina The chat moved on.');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'The chat moved on.');
    await page.waitForFunction(() => (document.querySelector('.tavern-agent__run-header [data-action="retry"]') as HTMLButtonElement | null)?.disabled === true);
    assert.match((await retry.getAttribute('title')) ?? '', /no longer the last message/);

    // Deleting that message makes the run's reply the last one again: Retry follows.
    await page.evaluate(() => (SillyTavern!.getContext() as unknown as { deleteLastMessage(): Promise<void> }).deleteLastMessage());
    await page.waitForFunction(() => (document.querySelector('.tavern-agent__run-header [data-action="retry"]') as HTMLButtonElement | null)?.disabled === false);
    assert.ok(!(await retry.getAttribute('title')), 'no reason is left on it');
});

test('a pinned character list stays under the open panel, with no strip above it, and shows again when the panel closes', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await pinCharacterList(page);
    // Right of SillyTavern's top bar, above the panel's top edge: where the list's strip showed.
    const listAt = (x: number, y: number) => page.evaluate(([px, py]) => Boolean(document.elementFromPoint(px!, py!)?.closest('#right-nav-panel')), [x, y]);
    assert.equal(await listAt(1260, 10), true, 'the pinned list is drawn there before the panel opens');
    await page.click('#tavern_agent_button .drawer-icon');
    await page.locator('aside.tavern-agent').waitFor();
    assert.equal(await listAt(1260, 10), false, 'no strip of the list above the panel');
    assert.equal(await listAt(1260, 400), false, 'the panel covers the list');
    await page.click('#tavern_agent_button .drawer-icon');
    await page.locator('aside.tavern-agent').waitFor({ state: 'detached' });
    assert.equal(await listAt(1260, 10), true, 'the list is back, still pinned');
    assert.equal(await page.locator('#right-nav-panel.pinnedOpen.openDrawer').count(), 1);
});
