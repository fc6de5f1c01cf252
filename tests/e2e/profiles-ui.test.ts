import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { BUILT_IN_PROFILES, RESEARCHER_PROFILE, WRITER_PROFILE } from '../../src/contract/profile';
import { stPageOf } from '../harness/browser';
import { openAgentChat } from '../harness/agent';
import { REPO_ROOT, slash, startTavernSession, type TavernSession } from '../harness/tavern';

const artifacts = path.join(REPO_ROOT, 'test-results');
let session: TavernSession;

before(async () => {
    mkdirSync(artifacts, { recursive: true });
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

/**
 * A new chat, no stored profiles, the panel open and the Profiles section expanded; page errors are collected.
 * `stored` seeds the user's profiles (raw JSON, as SillyTavern keeps them) before the panel loads them.
 *
 * The page the last test used is taken again (a page load is seconds of CPU): each test keeps to its own chat,
 * and the profiles, the one page-wide thing these tests change, are set here whole, as on a fresh page. The
 * panel's listing of the last test's profiles outlives the panel, so the picker is waited for until it lists
 * exactly this test's profiles (the built-ins and `stored`), not until it lists any.
 */
async function openEditor(viewport?: { width: number; height: number }, stored: Record<string, unknown> = {}) {
    const page = await openAgentChat(session, { reuse: true, panel: false, viewport });
    await page.evaluate((profiles) => {
        SillyTavern!.getContext().extensionSettings.tavern_agent = { profiles };
    }, stored);
    await page.click('#tavern_agent_button .drawer-icon');
    const expected = [...new Set([...BUILT_IN_PROFILES.map((profile) => profile.id), ...Object.keys(stored)])].sort();
    await page.waitForFunction(
        (ids) => JSON.stringify([...document.querySelectorAll<HTMLOptionElement>('#tavern_agent_profile_select option')].map((option) => option.value).sort()) === JSON.stringify(ids),
        expected,
    );
    await page.click('#tavern_agent_profiles > summary');
    await page.locator('[data-testid="profile-form"]').waitFor();
    return { page, pageErrors: stPageOf(page).pageErrors };
}

async function storedSettings(page: Page): Promise<string> {
    return page.evaluate(() => JSON.stringify(SillyTavern!.getContext().extensionSettings.tavern_agent ?? null));
}

async function storedProfile(page: Page, id: string): Promise<any> {
    return page.evaluate((key) => (SillyTavern!.getContext().extensionSettings.tavern_agent as { profiles: Record<string, unknown> }).profiles[key] ?? null, id);
}

async function pickerOptions(page: Page): Promise<Array<{ value: string; text: string; problem: string | null }>> {
    return page.$$eval('#tavern_agent_profile_select option', (options) =>
        options.map((option) => ({ value: (option as HTMLOptionElement).value, text: option.textContent ?? '', problem: option.getAttribute('data-problem') })),
    );
}

async function listedIds(page: Page): Promise<string[]> {
    return page.$$eval('[data-testid="profile-list"] [data-profile-id]', (items) => items.map((item) => item.getAttribute('data-profile-id') ?? ''));
}

async function importText(page: Page, text: string, name = 'profiles.json'): Promise<void> {
    await page.setInputFiles('#tavern_agent_profile_import', { name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

async function selectInList(page: Page, id: string): Promise<void> {
    await page.click(`[data-testid="profile-list"] [data-profile-id="${id}"]`);
    await page.waitForFunction((key) => document.querySelector('[data-testid="profile-form"]')?.getAttribute('data-profile-id') === key, id);
}

async function confirmPopup(page: Page): Promise<void> {
    await page.locator('dialog[open] .popup-button-ok').click();
}

async function status(page: Page): Promise<{ profileId: string }> {
    return JSON.parse(await slash(page, '/agent status')) as { profileId: string };
}

function exportFile(profiles: unknown[]): string {
    return JSON.stringify({ kind: 'tavern-agent.profiles', version: 2, profiles }, null, 2);
}

test('an invalid import names every field error and changes nothing', async () => {
    const { page, pageErrors } = await openEditor();
    const settingsBefore = await storedSettings(page);
    const optionsBefore = await pickerOptions(page);
    const listBefore = await listedIds(page);

    const broken: Record<string, unknown> = {
        ...structuredClone(WRITER_PROFILE),
        id: 'broken',
        tools: { ...WRITER_PROFILE.tools, maxRounds: 0, allow: ['workspace.*', 'Not A Pattern'] },
    };
    delete broken.displayName;
    // A valid profile in the same file is not imported either: an import is all or nothing.
    await importText(page, exportFile([{ ...structuredClone(RESEARCHER_PROFILE), id: 'fine' }, broken]));

    const alert = page.locator('[data-testid="profile-import-errors"][role="alert"]');
    await alert.waitFor();
    const lines = await alert.locator('[data-testid="import-error"]').allInnerTexts();
    assert.ok(lines.some((line) => /^broken · displayName: /.test(line)), `displayName is named: ${lines.join(' | ')}`);
    assert.ok(lines.some((line) => /^broken · tools\.maxRounds: /.test(line)), `maxRounds is named: ${lines.join(' | ')}`);
    assert.ok(lines.some((line) => /^broken · tools\.allow\.1: .*canonical tool name/.test(line)), `the bad pattern is named: ${lines.join(' | ')}`);
    assert.equal(lines.length, 3, `exactly the three errors: ${lines.join(' | ')}`);

    assert.equal(await storedSettings(page), settingsBefore, 'the stored settings are unchanged');
    assert.deepEqual(await pickerOptions(page), optionsBefore, 'the picker is unchanged');
    assert.deepEqual(await listedIds(page), listBefore, 'the profile list is unchanged');

    // Not JSON at all is one clear error too.
    await importText(page, '{ nope');
    await page.locator('[data-testid="import-error"]', { hasText: 'not valid JSON' }).waitFor();
    assert.equal(await storedSettings(page), settingsBefore);
    assert.deepEqual(pageErrors, []);
});

test('a valid import adds the profile to the picker, its text shown as text', async () => {
    const { page, pageErrors } = await openEditor();
    const scout = { ...structuredClone(RESEARCHER_PROFILE), id: 'scout', displayName: 'Scout <b>bold</b>', presentation: 'foreground', tools: { ...WRITER_PROFILE.tools } };
    await importText(page, exportFile([scout]));
    await page.locator('#tavern_agent_profile_select option[value="scout"]').waitFor({ state: 'attached' });
    const option = (await pickerOptions(page)).find((item) => item.value === 'scout');
    assert.equal(option?.text, 'Scout <b>bold</b> (scout)', 'display name and id, markup shown literally');
    assert.equal(option?.problem, null);
    assert.equal(await page.locator('.tavern-agent b').count(), 0, 'no markup from a profile is rendered');
    assert.equal((await storedProfile(page, 'scout'))?.displayName, 'Scout <b>bold</b>');
    assert.equal(await page.locator('[data-testid="profile-import-errors"]').count(), 0);
    // The imported profile is opened in the editor.
    assert.equal(await page.inputValue('#tavern_agent_profile_displayName'), 'Scout <b>bold</b>');
    assert.deepEqual(pageErrors, []);
});

test('a built-in edited to maxRounds 0 is refused next to the field; 12 saves, shows as changed, and Reset restores it', async () => {
    const { page, pageErrors } = await openEditor();
    await selectInList(page, 'writer');
    const settingsBefore = await storedSettings(page);

    await page.fill('#tavern_agent_profile_tools_maxRounds', '0');
    await page.click('[data-testid="profile-save"]');
    const fieldError = page.locator('[data-field="tools.maxRounds"] [data-testid="field-error"]');
    await fieldError.waitFor();
    assert.match(await fieldError.innerText(), /\b1\b/, 'the message names the limit');
    assert.equal(await page.getAttribute('#tavern_agent_profile_tools_maxRounds', 'aria-invalid'), 'true');
    await page.locator('[data-testid="profile-save-refused"]').waitFor();
    assert.equal(await storedSettings(page), settingsBefore, 'nothing is saved');
    assert.equal(await page.locator('[data-profile-id="writer"] [data-testid="profile-changed"]').count(), 0);

    await page.fill('#tavern_agent_profile_tools_maxRounds', '12');
    await page.click('[data-testid="profile-save"]');
    await page.locator('[data-profile-id="writer"] [data-testid="profile-changed"]').waitFor();
    assert.equal(await fieldError.count(), 0, 'the error is gone');
    assert.equal((await storedProfile(page, 'writer'))?.tools.maxRounds, 12);
    assert.equal(await page.inputValue('#tavern_agent_profile_tools_maxRounds'), '12');

    await page.click('[data-testid="profile-reset"]');
    await confirmPopup(page);
    await page.locator('[data-profile-id="writer"] [data-testid="profile-changed"]').waitFor({ state: 'detached' });
    assert.equal(await storedProfile(page, 'writer'), null, 'the stored copy is gone');
    assert.equal(await page.inputValue('#tavern_agent_profile_tools_maxRounds'), String(WRITER_PROFILE.tools.maxRounds));
    assert.equal(await page.locator('[data-testid="profile-reset"]').count(), 0, 'nothing left to reset');
    assert.deepEqual(pageErrors, []);
});

test('duplicate makes a new profile with a unique id; delete removes it', async () => {
    const { page, pageErrors } = await openEditor();
    await selectInList(page, 'researcher');
    await page.click('[data-testid="profile-duplicate"]');
    const idInput = page.locator('#tavern_agent_profile_id');
    await page.waitForFunction(() => (document.getElementById('tavern_agent_profile_id') as HTMLInputElement).value === 'researcher-copy');
    assert.equal(await idInput.getAttribute('readonly'), null, 'a new profile names its id');
    assert.equal(await storedProfile(page, 'researcher-copy'), null, 'not stored before Save');
    await page.click('[data-testid="profile-save"]');
    await page.locator('[data-testid="profile-list"] [data-profile-id="researcher-copy"]').waitFor();
    await page.locator('#tavern_agent_profile_select option[value="researcher-copy"]').waitFor({ state: 'attached' });
    const copy = await storedProfile(page, 'researcher-copy');
    assert.equal(copy?.presentation, 'background');
    assert.deepEqual(copy?.tools.allow, RESEARCHER_PROFILE.tools.allow);
    assert.notEqual(await idInput.getAttribute('readonly'), null, 'a saved profile keeps its id');

    // A second duplicate of the same profile gets the next free id.
    await selectInList(page, 'researcher');
    await page.click('[data-testid="profile-duplicate"]');
    await page.waitForFunction(() => (document.getElementById('tavern_agent_profile_id') as HTMLInputElement).value === 'researcher-copy-2');
    await page.click('[data-testid="profile-cancel"]');

    await selectInList(page, 'researcher-copy');
    await page.click('[data-testid="profile-delete"]');
    await confirmPopup(page);
    await page.locator('[data-testid="profile-list"] [data-profile-id="researcher-copy"]').waitFor({ state: 'detached' });
    assert.equal(await storedProfile(page, 'researcher-copy'), null);
    assert.ok(!(await pickerOptions(page)).some((option) => option.value === 'researcher-copy'));
    await selectInList(page, 'writer');
    assert.equal(await page.locator('[data-testid="profile-delete"]').count(), 0, 'built-ins cannot be deleted');
    assert.deepEqual(pageErrors, []);
});

test('export downloads a JSON file that the import accepts', async () => {
    const mine = { ...structuredClone(WRITER_PROFILE), id: 'my-writer', displayName: 'My writer', systemPrompt: 'Keep it short.' };
    const { page, pageErrors } = await openEditor(undefined, { 'my-writer': mine });
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="profile-export"]')]);
    assert.equal(download.suggestedFilename(), 'tavern-agent-profiles.json');
    const file = await download.path();
    const text = readFileSync(file, 'utf8');
    const data = JSON.parse(text) as { kind: string; version: number; profiles: Array<{ id: string }> };
    assert.equal(data.kind, 'tavern-agent.profiles');
    assert.deepEqual(data.profiles.map((profile) => profile.id), [...BUILT_IN_PROFILES.map((profile) => profile.id), 'my-writer']);

    // Into a page without the user's profile: the import brings it back, built-ins stay unchanged.
    await page.evaluate(() => {
        SillyTavern!.getContext().extensionSettings.tavern_agent = { profiles: {} };
    });
    await importText(page, text, 'tavern-agent-profiles.json');
    await page.locator('[data-testid="profile-notice"]', { hasText: 'my-writer' }).waitFor();
    assert.equal(await page.locator('[data-testid="profile-import-errors"]').count(), 0);
    assert.deepEqual(Object.keys(JSON.parse(await storedSettings(page)).profiles), ['my-writer'], 'built-ins as shipped are not stored as changed copies');
    assert.equal((await storedProfile(page, 'my-writer'))?.systemPrompt, 'Keep it short.');
    assert.equal(await page.locator('[data-testid="profile-changed"]').count(), 0);
    assert.deepEqual(pageErrors, []);
});

test('the picker sets the chat profile, and /agent profile moves the picker', async () => {
    const { page, pageErrors } = await openEditor();
    const picker = page.locator('#tavern_agent_profile_select');
    assert.equal(await picker.inputValue(), (await status(page)).profileId);
    await picker.selectOption('researcher');
    await page.waitForFunction(() => (SillyTavern!.getContext().chatMetadata.tavern_agent as { profileId?: string } | undefined)?.profileId === 'researcher');
    assert.equal((await status(page)).profileId, 'researcher');

    await slash(page, '/agent profile game-master');
    await page.waitForFunction(() => (document.getElementById('tavern_agent_profile_select') as HTMLSelectElement).value === 'game-master');
    assert.equal((await status(page)).profileId, 'game-master');
    assert.equal(await page.locator('[data-testid="profile-picker-warning"]').count(), 0);
    assert.deepEqual(pageErrors, []);
});

test('profiles that cannot run are flagged in the picker and the editor', async () => {
    const lost = { ...structuredClone(WRITER_PROFILE), id: 'lost-model', displayName: 'Lost model', model: { mode: 'connection-profile', profileId: 'gone-1234', profileName: 'Old Claude' } };
    const bad = { ...structuredClone(WRITER_PROFILE), id: 'bad', displayName: 'Bad', tools: { ...WRITER_PROFILE.tools, maxCallsPerRun: 0 } };
    const { page, pageErrors } = await openEditor(undefined, { 'lost-model': lost, bad });
    const options = await pickerOptions(page);
    assert.match(options.find((option) => option.value === 'lost-model')!.text, /⚠ connection missing/);
    assert.equal(options.find((option) => option.value === 'lost-model')!.problem, 'connection-missing');
    assert.match(options.find((option) => option.value === 'bad')!.text, /⚠ invalid/);
    assert.equal(await page.locator('[data-testid="profile-list"] [data-profile-id="bad"] [data-problem="invalid"]').count(), 1);

    await page.locator('#tavern_agent_profile_select').selectOption('lost-model');
    await page.locator('[data-testid="profile-picker-warning"]', { hasText: 'no longer exists' }).waitFor();
    await page.locator('aside.tavern-agent').evaluate((el) => el.scrollTo({ top: 0 }));
    await page.screenshot({ path: path.join(artifacts, 'profiles-picker-warning.png') });

    // The editor shows the missing connection in the model select, and an invalid profile's errors at their fields.
    await selectInList(page, 'lost-model');
    await page.locator('[data-testid="profile-model-missing"]').waitFor();
    assert.match(await page.locator('#tavern_agent_profile_model option:checked').innerText(), /Old Claude/);
    await selectInList(page, 'bad');
    await page.locator('[data-field="tools.maxCallsPerRun"] [data-testid="field-error"]').waitFor();
    assert.equal(await page.inputValue('#tavern_agent_profile_tools_maxCallsPerRun'), '0');
    await page.fill('#tavern_agent_profile_tools_maxCallsPerRun', '40');
    await page.click('[data-testid="profile-save"]');
    await page.locator('[data-testid="profile-list"] [data-profile-id="bad"] [data-problem]').waitFor({ state: 'detached' });
    assert.equal((await storedProfile(page, 'bad'))?.tools.maxCallsPerRun, 40, 'fixed in the editor');
    assert.deepEqual(pageErrors, []);
});

for (const [name, viewport] of [
    ['profiles-desktop.png', { width: 1280, height: 900 }],
    ['profiles-phone.png', { width: 390, height: 844 }],
] as const) {
    test(`the open editor is usable at ${viewport.width} px (${name})`, async () => {
        const { page, pageErrors } = await openEditor(viewport);
        await selectInList(page, 'game-master');
        await page.fill('#tavern_agent_profile_tools_maxRounds', '0');
        await page.click('[data-testid="profile-save"]');
        await page.locator('[data-field="tools.maxRounds"] [data-testid="field-error"]').waitFor();
        const panel = page.locator('aside.tavern-agent');
        assert.equal(await panel.evaluate((el) => el.scrollWidth > el.clientWidth), false, 'no horizontal scrolling inside the panel');
        const box = await panel.boundingBox();
        assert.ok(box && box.x >= 0 && box.x + box.width <= viewport.width, 'the panel fits the screen');
        const wide = await page.$$eval('aside.tavern-agent *', (elements) =>
            elements.filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((el) => el.className || el.tagName),
        );
        assert.deepEqual(wide, [], 'nothing sticks out of the screen');
        // The editor as it opens (list, actions, first fields), then the refused field with its error.
        await page.locator('#tavern_agent_profiles').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.screenshot({ path: path.join(artifacts, name) });
        await page.locator('#tavern_agent_profile_tools_maxRounds').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await page.screenshot({ path: path.join(artifacts, name.replace('.png', '-error.png')) });
        assert.deepEqual(pageErrors, []);
    });
}
