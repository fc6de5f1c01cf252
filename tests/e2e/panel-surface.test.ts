import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openCharacter, saveSettingsNow, sendMessage, stPageOf, waitForSillyTavernReady } from '../harness/browser';
import { call, calls, openAgentChat } from '../harness/agent';
import { REPO_ROOT, slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

/**
 * Issue 16, the panel's surface: a first-class right-hand drawer, Agent Mode shown where the user presses
 * Send, a width the user drags, rows that end when their run does, a phone sheet above the send form, and
 * the block in SillyTavern's Extensions drawer. Screenshots go to test-results/panel-surface-*.png.
 */

const artifacts = path.join(REPO_ROOT, 'test-results');
let session: TavernSession;

before(async () => {
    mkdirSync(artifacts, { recursive: true });
    session = await startTavernSession({ builtIns: 'all' });
});

after(async () => {
    await session?.close();
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
const ROBOT = '#tavern_agent_button .drawer-icon';
const BADGE = '#tavern_agent_send_badge';

/** Is the element under the centre of `selector`'s box inside `inside`? */
function onTopAt(page: Page, selector: string, inside: string): Promise<boolean> {
    return page.evaluate(
        ({ selector, inside }) => {
            const box = document.querySelector(selector)!.getBoundingClientRect();
            const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
            return Boolean(hit?.closest(inside));
        },
        { selector, inside },
    );
}

async function status(page: Page): Promise<{ enabled: boolean; run: unknown }> {
    return JSON.parse(await slash(page, '/agent status')) as { enabled: boolean; run: unknown };
}

/** Rows of the shown run that still say they are working. */
function openRows(page: Page): Promise<number> {
    return page.evaluate(
        () =>
            document.querySelectorAll('.tavern-agent__run .tavern-agent__event[data-status="running"], .tavern-agent__run .tavern-agent__event[data-status="pending"], .tavern-agent__run .tavern-agent__event .fa-spin').length,
    );
}

/** Settings are per SillyTavern user, so they outlive a browser context: each test that changes them puts them back. */
async function resetPanelSettings(page: Page): Promise<void> {
    await page.evaluate(() => {
        delete (SillyTavern!.getContext().extensionSettings as Record<string, unknown>).tavern_agent_panel;
    });
    await saveSettingsNow(page);
}

test('the panel opens over the character drawer and closes it, an ST drawer closes the panel, and a pinned character list stays under it', async () => {
    // Every test here takes the last one's page again (a page load is seconds of CPU): each keeps to its own chat
    // and puts back what it changes for the whole page.
    const page = await openAgentChat(session, { reuse: true, panel: false });
    const { pageErrors } = stPageOf(page);
    if (!(await page.locator('#right-nav-panel.openDrawer').count())) await page.click('#rightNavDrawerIcon');
    await page.locator('#right-nav-panel.openDrawer').waitFor();

    await page.click(ROBOT);
    await page.locator('aside.tavern-agent').waitFor();
    assert.equal(await page.locator('#right-nav-panel.openDrawer').count(), 0, 'the character drawer closed, as SillyTavern drawers close each other');
    assert.ok(await onTopAt(page, 'aside.tavern-agent', 'aside.tavern-agent'), 'the panel is what the user sees and clicks');

    // Opening a SillyTavern drawer closes the panel, and the robot icon says so.
    await page.click('#rightNavDrawerIcon');
    await page.locator('#right-nav-panel.openDrawer').waitFor();
    await page.locator('aside.tavern-agent').waitFor({ state: 'detached' });
    assert.equal(await page.locator(`${ROBOT}.closedIcon`).count(), 1);

    // Pinned: the character list stays open; the panel opens above it and gives it back when closed.
    await page.click('label[for="rm_button_panel_pin"]');
    await page.locator('#right-nav-panel.pinnedOpen').waitFor();
    await page.click(ROBOT);
    await page.locator('aside.tavern-agent').waitFor();
    assert.equal(await page.locator('#right-nav-panel.openDrawer.pinnedOpen').count(), 1, 'the pinned list stays open');
    assert.ok(await onTopAt(page, 'aside.tavern-agent', 'aside.tavern-agent'), 'the panel is above the pinned list');
    // A click in the panel leaves both as they are.
    await page.click('aside.tavern-agent .tavern-agent__title');
    assert.equal(await page.locator('aside.tavern-agent').count(), 1);
    await page.click('aside.tavern-agent button[aria-label="Close"]');
    await page.locator('aside.tavern-agent').waitFor({ state: 'detached' });
    assert.ok(await onTopAt(page, '#right-nav-panel', '#right-nav-panel'), 'the pinned list is seen again');
    await page.click('label[for="rm_button_panel_pin"]'); // the pin is kept per user: leave it as found
    await page.locator('#right-nav-panel.pinnedOpen').waitFor({ state: 'detached' });
    await saveSettingsNow(page); // else the pinned list reopens in the next tests' pages
    assert.deepEqual(pageErrors, []);
});

test('with the panel closed, Agent Mode shows on the robot icon and the badge by Send, which also switches it', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await slash(page, '/agent off');
    const look = async () => ({
        badge: await page.locator(BADGE).screenshot(),
        robot: await page.locator(ROBOT).screenshot(),
        badgeColor: await page.locator(`${BADGE} .tavern-agent-send__icon`).evaluate((el) => `${getComputedStyle(el).color} ${getComputedStyle(el).opacity}`),
        robotColor: await page.locator(ROBOT).evaluate((el) => getComputedStyle(el).color),
    });
    await page.locator(`${BADGE}[data-agent-mode="off"]`).waitFor();
    const off = await look();
    // The badge is a switch: clicking it turns Agent Mode on for this chat.
    await page.click(`${BADGE} .tavern-agent-send__icon`);
    await page.locator(`${BADGE}[data-agent-mode="on"]`).waitFor();
    assert.equal((await status(page)).enabled, true);
    assert.equal(await page.locator('aside.tavern-agent').count(), 0, 'the panel stayed closed');
    const on = await look();
    assert.notEqual(on.badgeColor, off.badgeColor, 'the badge changes colour');
    assert.notEqual(on.robotColor, off.robotColor, 'the robot icon changes colour');
    assert.ok(!on.badge.equals(off.badge), 'the badge looks different');
    assert.ok(!on.robot.equals(off.robot), 'the robot icon looks different');
    assert.equal(await page.locator(`${BADGE} .tavern-agent-send__badge`).innerText(), 'Agent');
    await page.screenshot({ path: path.join(artifacts, 'panel-surface-send-badge-on.png'), clip: { x: 640, y: 780, width: 640, height: 120 } });
    await page.click(`${BADGE} .tavern-agent-send__icon`);
    await page.locator(`${BADGE}[data-agent-mode="off"]`).waitFor();
    assert.equal((await status(page)).enabled, false);
});

test('a run shows its turn and tool by Send; after Stop, and after a reload, no row of it is still working', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: true });
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Half a draft.' })),
        { delayMs: 20_000, toolCalls: [call('workspace_commit', {})] },
    );
    await page.fill('#send_textarea', 'Take your time.');
    await page.click('#send_but');
    await session.mock.waitForGenerations(2, 20_000);
    await page.locator('[data-testid="send-progress"]', { hasText: 'Turn 2' }).waitFor();
    await page.locator('.tavern-agent__event[data-kind="model"][data-status="running"]').waitFor();
    await page.click('#mes_stop');
    await page.locator('.tavern-agent__run[data-run-state="cancelled"]').waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.body.dataset.generating === undefined);
    assert.equal(await openRows(page), 0, 'no row keeps working after Stop');
    assert.equal(await page.locator('.tavern-agent__event[data-kind="model"][data-status="stopped"]').count(), 1, 'the unanswered turn says it stopped');
    assert.equal(await page.locator('[data-testid="send-progress"]').count(), 0, 'the progress by Send is gone');

    const chatId = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId());
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page);
    await page.evaluate((id) => SillyTavern!.getContext().openCharacterChat(id!), chatId);
    await page.waitForFunction((id) => SillyTavern!.getContext().getCurrentChatId() === id, chatId);
    await page.click(ROBOT);
    await page.locator('.tavern-agent__run[data-run-state="cancelled"]').waitFor();
    await page.locator('.tavern-agent__event[data-kind="model"]').first().waitFor();
    assert.equal(await openRows(page), 0, 'no row keeps working after a reload');
    assert.equal(await page.locator('.tavern-agent__event[data-kind="model"][data-status="stopped"]').count(), 1);
});

test('the panel width is dragged, saved in the extension settings, shown in the Extensions drawer and kept after a reload', async (t) => {
    const page = await openAgentChat(session, { reuse: true, panel: true });
    t.after(async () => {
        await resetPanelSettings(page).catch(() => undefined);
    });
    const panel = page.locator('aside.tavern-agent');
    const before = (await panel.boundingBox())!;
    // With no width set yet, the handle tells a screen reader the panel's width as drawn.
    await page.waitForFunction((drawn) => document.querySelector('.tavern-agent__resize')?.getAttribute('aria-valuenow') === String(drawn), Math.round(before.width));
    const handle = (await page.locator('.tavern-agent__resize').boundingBox())!;
    await page.mouse.move(handle.x + handle.width / 2, handle.y + 200);
    await page.mouse.down();
    await page.mouse.move(handle.x - 100, handle.y + 200, { steps: 5 });
    await page.mouse.move(handle.x - 200, handle.y + 200, { steps: 5 });
    await page.mouse.up();
    const after = (await panel.boundingBox())!;
    assert.ok(Math.abs(after.width - (before.width + 200)) <= 4, `the panel grew by the drag (${before.width} → ${after.width})`);
    const width = await page.evaluate(() => (SillyTavern!.getContext().extensionSettings as Record<string, { panelWidth?: number }>).tavern_agent_panel?.panelWidth);
    assert.equal(width, Math.round(after.width));
    // Saved on the server (SillyTavern saves settings debounced): what a reload reads. Asked in a loop here:
    // waitForFunction would take the async predicate's promise itself as a truthy answer.
    const onServer = () =>
        page.evaluate(async () => {
            const response = await fetch('/api/settings/get', { method: 'POST', headers: SillyTavern!.getContext().getRequestHeaders(), body: '{}' });
            const stored = JSON.parse(((await response.json()) as { settings: string }).settings) as { extension_settings?: Record<string, { panelWidth?: number }> };
            return stored.extension_settings?.tavern_agent_panel?.panelWidth ?? null;
        });
    for (let attempt = 0; (await onServer()) !== width; attempt += 1) {
        assert.ok(attempt < 40, 'the width reached the server');
        await page.waitForTimeout(500); // polling the server's copy, not racing the page
    }

    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page); // the badge by Send shows in a chat
    await page.click(ROBOT);
    assert.equal(Math.round((await panel.boundingBox())!.width), width, 'the width is remembered');

    // The Extensions drawer has the block: the same width, the indicator switch, and a way to the panel.
    await page.click('#extensions-settings-button .drawer-toggle');
    await page.locator('aside.tavern-agent').waitFor({ state: 'detached' }); // an ST drawer opened: the panel closed
    await page.click('#tavern_agent_settings .inline-drawer-toggle');
    await page.locator('#tavern_agent_panel_width').waitFor();
    assert.equal(await page.locator('#tavern_agent_panel_width').inputValue(), String(width));
    await page.screenshot({ path: path.join(artifacts, 'panel-surface-settings.png') });
    await page.uncheck('#tavern_agent_send_indicator');
    await page.locator(BADGE).waitFor({ state: 'hidden' });
    await page.check('#tavern_agent_send_indicator');
    await page.locator(BADGE).waitFor({ state: 'visible' });
    // Retention is set here too: the defaults (20 in full, 100 as summaries), and a change is saved.
    const retention = page.locator('[data-testid="settings-retention"]');
    assert.equal(await retention.locator('[data-testid="storage-keep-full"]').inputValue(), '20');
    assert.equal(await retention.locator('[data-testid="storage-keep-summaries"]').inputValue(), '100');
    await retention.locator('[data-testid="storage-keep-full"]').fill('5');
    await retention.locator('[data-testid="storage-keep-full"]').dispatchEvent('change');
    await page.waitForFunction(
        () => (SillyTavern!.getContext().extensionSettings as { tavern_agent?: { retention?: { keepFull?: number } } }).tavern_agent?.retention?.keepFull === 5,
    );
    await page.fill('#tavern_agent_panel_width', '');
    await page.locator('#tavern_agent_panel_width').dispatchEvent('change');
    await page.click('[data-testid="settings-open-panel"]');
    await panel.waitFor();
    assert.equal(await page.locator('#rm_extensions_block.openDrawer, .drawer-content.openDrawer:not(.pinnedOpen)').count(), 0, 'the Extensions drawer closed');
    assert.equal(await panel.getAttribute('data-width'), 'auto', 'an empty width is the default again');
});

async function useLightTheme(page: Page): Promise<void> {
    const light = {
        name: 'Panel Surface Light', blur_strength: 6, main_text_color: 'rgba(32, 33, 36, 1)', italics_text_color: 'rgba(95, 99, 104, 1)',
        underline_text_color: 'rgba(0, 102, 153, 1)', quote_text_color: 'rgba(176, 84, 0, 1)', blur_tint_color: 'rgba(246, 245, 241, 0.97)',
        chat_tint_color: 'rgba(252, 251, 248, 1)', user_mes_blur_tint_color: 'rgba(232, 236, 242, 0.9)', bot_mes_blur_tint_color: 'rgba(240, 238, 232, 0.9)',
        shadow_color: 'rgba(0, 0, 0, 0.15)', shadow_width: 2, border_color: 'rgba(0, 0, 0, 0.2)', font_scale: 1, fast_ui_mode: true, noShadows: true,
        chat_width: 50, timestamps_enabled: true, custom_css: '',
    };
    await page.setInputFiles('#ui_preset_import_file', { name: 'light.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(light)) });
    await page.waitForFunction(() => [...document.querySelectorAll('#themes option')].some((o) => o.textContent === 'Panel Surface Light'));
    await slash(page, '/theme Panel Surface Light');
    await page.waitForFunction(() => getComputedStyle(document.body).getPropertyValue('--SmartThemeBodyColor').includes('32, 33, 36'));
}

test('screenshots at 1280 and 390 px, dark and light: one-line run header, the phone sheet ends above the send form, the top bar fits', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: true });
    assert.equal(await page.locator('aside.tavern-agent').getAttribute('data-width'), 'auto', 'the default width');
    session.mock.enqueue(
        { text: 'Drafting.', usage: { input: 1200, output: 80 }, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'The forest is quiet tonight.' })) },
        calls(call('workspace_read_file', { path: 'output/main.md' })),
        calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'quiet', new_string: 'very quiet' })),
        calls(call('workspace_commit', {}), call('workspace_finish', { reason: 'done' })),
    );
    await sendMessage(page, 'Describe the forest.');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor();

    const shoot = async (viewport: typeof DESKTOP, name: string) => {
        await page.setViewportSize(viewport);
        await page.evaluate(() => document.querySelectorAll('#toast-container').forEach((toasts) => toasts.remove()));
        await page.locator('.tavern-agent__run').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        // The picture first, so a failed layout fact can be looked at.
        await page.screenshot({ path: path.join(artifacts, name) });
        // No named inner functions in page callbacks (tsx's keepNames would wrap them in a missing __name).
        const facts = await page.evaluate(() => {
            const line = document.querySelector('.tavern-agent__run-line')!;
            const tops = [...line.querySelectorAll('.tavern-agent__badge, .tavern-agent__stat')].filter((el) => (el as HTMLElement).offsetParent && el.getBoundingClientRect().top < line.getBoundingClientRect().bottom).map((el) => Math.round((el.getBoundingClientRect().top + el.getBoundingClientRect().bottom) / 2));
            const holder = document.getElementById('top-settings-holder')!;
            const icons = [...holder.querySelectorAll(':scope > .drawer')].map((el) => el.getBoundingClientRect());
            return {
                panel: document.querySelector('aside.tavern-agent')!.getBoundingClientRect().toJSON() as DOMRect,
                form: document.querySelector('#send_form')!.getBoundingClientRect().toJSON() as DOMRect,
                lineHeight: line.getBoundingClientRect().height,
                tops,
                topBarFits: icons.every((r) => r.right <= document.documentElement.clientWidth + 0.5 && r.left >= -0.5) && icons.every((r) => Math.abs(r.top - icons[0]!.top) < 2),
                robot: document.querySelector('#tavern_agent_button')!.getBoundingClientRect().toJSON() as DOMRect,
                sideways: [...document.querySelectorAll('aside.tavern-agent *')].filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((el) => el.className || el.tagName),
            };
        });
        assert.deepEqual(facts.sideways, [], `${name}: nothing sticks out of the screen`);
        assert.ok(facts.topBarFits, `${name}: every top-bar icon, the robot too, is on one row within the screen`);
        assert.ok(facts.robot.width > 0);
        if (viewport.width <= 1000) {
            assert.ok(facts.panel.bottom <= facts.form.top + 1, `${name}: the sheet ends above the send form (${facts.panel.bottom} ≤ ${facts.form.top})`);
            assert.ok(facts.panel.height > viewport.height / 2 && facts.panel.width >= viewport.width - 1, `${name}: the sheet covers the chat (${JSON.stringify(facts.panel)})`);
            assert.ok(await onTopAt(page, '#send_textarea', '#send_form'), `${name}: the message box is not covered`);
        } else {
            // The middles of the badge and every figure shown: one line when they agree within a few pixels.
            assert.ok(facts.tops.length >= 3 && Math.max(...facts.tops) - Math.min(...facts.tops) <= 3, `${name}: the run header is one line (${facts.tops.join(', ')})`);
            assert.ok(facts.lineHeight < 40, `${name}: the run header is one line high (${facts.lineHeight} px)`);
        }
    };
    await slash(page, '/theme Dark Lite');
    await shoot(DESKTOP, 'panel-surface-desktop-dark.png');
    await shoot(PHONE, 'panel-surface-phone-dark.png');
    await page.setViewportSize(DESKTOP);
    await useLightTheme(page);
    await shoot(DESKTOP, 'panel-surface-desktop-light.png');
    await shoot(PHONE, 'panel-surface-phone-light.png');
    await slash(page, '/theme Dark Lite'); // the theme is the user's: put back for the next test
});

test('a new chat runs with the default profile chosen in the Extensions drawer', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await page.evaluate(() => {
        const context = SillyTavern!.getContext();
        (context.extensionSettings as Record<string, unknown>).tavern_agent_panel = { defaultProfileId: 'editor' };
    });
    await slash(page, '/newchat');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
    const turnedOn = JSON.parse(await slash(page, '/agent on')) as { profileId: string };
    assert.equal(turnedOn.profileId, 'editor');
    await resetPanelSettings(page);
});
