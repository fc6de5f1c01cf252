import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { agentOn, call, calls, openAgentChat, toolMessages } from '../harness/agent';
import { openCharacter, sendMessage, waitForSillyTavernReady } from '../harness/browser';
import { REPO_ROOT, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

/**
 * The skill manager driven as a user drives it, against the real skill service (host/) in a real
 * SillyTavern: import a zip through the file input (preview first), install, browse, view a file,
 * re-import a changed version (a choice is required), replace, edit a file in place, delete. Screenshots
 * go to docs/images/.
 */

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Tall enough for the whole Skills section, so the screenshots show the manager rather than a scrolled slice. */
const SHOT_HEIGHT = 1500;

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const PLACES_V1 = '# Places\n\n- Eldoria: a forest city.\n- <b>Glade</b>: where Seraphina lives.\n';
const PLACES_V2 = '# Places\n\n- Eldoria: a forest city, rebuilt.\n- <b>Glade</b>: where Seraphina lives.\n- Shore: new.\n';
const PLACES_EDITED = '# Places\n\n- Eldoria: a forest city.\n- Greyhaven: a harbor town, added in the manager.\n';

function skillZip(places: string): Buffer {
    return Buffer.from(
        zipSync({
            'lore-keeper/SKILL.md': strToU8('---\nname: lore-keeper\ndescription: Keeps the world consistent. Read it before describing a known place.\n---\n# Lore keeper\n\nRead references/places.md first.\n'),
            'lore-keeper/references/places.md': strToU8(places),
            'lore-keeper/scripts/index.sh': strToU8('#!/bin/sh\necho "never run"\n'),
            // Not UTF-8: a binary file, shown by its size only.
            'lore-keeper/assets/dot.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x81]),
        }),
    );
}

/**
 * A page with a chat open, the panel open and the Skills section expanded. A panel without the Skills
 * section fails the test (issue 39 §10): the manager is part of the product, never optional.
 */
async function openManager(viewport = DESKTOP) {
    const opened = await session.open(viewport);
    const { page } = opened;
    await waitForExtension(page);
    await openCharacter(page);
    await page.click('#tavern_agent_button .drawer-icon');
    await page.locator('aside.tavern-agent').waitFor();
    await expandSkills(page);
    return opened;
}

async function expandSkills(page: Page): Promise<void> {
    await page.locator('#tavern_agent_skills > summary').waitFor({ timeout: 15_000 });
    await page.click('#tavern_agent_skills > summary');
    await page.locator('[data-testid="skill-import"]').waitFor();
}

async function importZip(page: Page, places: string): Promise<void> {
    await page.setInputFiles('#tavern_agent_skill_import_files', { name: 'lore-keeper.zip', mimeType: 'application/zip', buffer: skillZip(places) });
    await page.locator('[data-testid="skill-preview"][data-skill="lore-keeper"]').waitFor();
}

const preview = (page: Page) => page.locator('[data-testid="skill-preview"][data-skill="lore-keeper"]');
const installed = (page: Page) => page.locator('[data-testid="skill-group"][data-scope="global"] [data-testid="skill-item"][data-skill="lore-keeper"]');

/** Opens the Global lore-keeper's row, deletes it (Delete asks first) and waits until it is gone. */
async function deleteInstalled(page: Page): Promise<void> {
    await installed(page).locator('[data-testid="skill-toggle"]').click();
    await installed(page).locator('[data-testid="skill-delete"]').click();
    await page.locator('dialog[open] .popup-button-ok').click();
    await installed(page).waitFor({ state: 'detached' });
}

async function openFile(page: Page, filePath: string): Promise<string> {
    const item = installed(page);
    if ((await item.locator('[data-testid="skill-body"]').count()) === 0) await item.locator('[data-testid="skill-toggle"]').click();
    const file = item.locator(`[data-testid="skill-file"][data-path="${filePath}"]`);
    // Choosing the open file again would close it.
    if ((await file.getAttribute('aria-pressed')) !== 'true') await file.click();
    const viewer = item.locator(`[data-testid="skill-viewer"][data-path="${filePath}"]`);
    await viewer.locator('[data-testid="skill-file-text"]').waitFor();
    // textContent: the file's exact text, as the <pre> holds it.
    return (await viewer.locator('[data-testid="skill-file-text"]').textContent()) ?? '';
}

async function listedGlobal(page: Page): Promise<string[]> {
    return page.evaluate(async () => {
        const api = globalThis.TavernAgent as unknown as { skills: { list(): Promise<Array<{ name: string; scope: unknown }>> } };
        return (await api.skills.list()).filter((skill) => skill.scope === 'global').map((skill) => skill.name);
    });
}

/** The panel fits a screen this wide: nothing sticks out, no sideways scrolling. */
async function assertFits(page: Page, width: number, what: string): Promise<void> {
    await page.setViewportSize({ width, height: SHOT_HEIGHT });
    await page.evaluate(() => document.querySelectorAll('#toast-container').forEach((toasts) => toasts.remove()));
    const wide = await page.$$eval('aside.tavern-agent *', (elements) =>
        elements.filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((el) => String(el.className || el.tagName)),
    );
    assert.deepEqual(wide, [], `${what}: nothing sticks out of the screen`);
    assert.equal(await page.locator('aside.tavern-agent').evaluate((el) => el.scrollWidth > el.clientWidth), false, `${what}: no sideways scrolling`);
}

/** The manager fits the screen; then a picture for docs/images/. */
async function shoot(page: Page, width: number, file: string): Promise<void> {
    await assertFits(page, width, file);
    await page.locator('#tavern_agent_skills').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(REPO_ROOT, 'docs', 'images', file) });
}

test('import a zip with a preview, browse and view it, replace a changed version by choice, delete it', async () => {
    const { page, pageErrors } = await openManager();

    // A new skill: the preview comes first, nothing is installed until Install.
    await importZip(page, PLACES_V1);
    assert.equal(await preview(page).getAttribute('data-conflict'), 'new');
    assert.match(await preview(page).innerText(), /Keeps the world consistent/);
    // The preview lists what it installs, file by file.
    const listed = (await preview(page).locator('[data-testid="skill-preview-files"] code').allTextContents()).sort();
    assert.deepEqual(listed, ['SKILL.md', 'assets/dot.png', 'references/places.md', 'scripts/index.sh']);
    assert.equal(await page.locator('[data-testid="skill-choice"]').count(), 0, 'a new skill needs no choice');
    assert.deepEqual(await listedGlobal(page), [], 'the preview installed nothing');
    await page.click('[data-testid="skill-install"]');
    await page.locator('[data-testid="skill-result"][data-skill="lore-keeper"][data-action="installed"]').waitFor();

    // Listed under Global, with its file tree; a file opens as text (markup shown literally); scripts are listed.
    await installed(page).waitFor();
    assert.match(await page.locator('[data-testid="skill-group"][data-scope="global"] h5').innerText(), /Global/);
    await installed(page).locator('[data-testid="skill-toggle"]').click();
    const tree = installed(page).locator('[data-testid="skill-tree"]');
    const paths = await tree.locator('[data-testid="skill-file"]').evaluateAll((buttons) => buttons.map((button) => button.getAttribute('data-path')));
    assert.deepEqual([...paths].sort(), ['SKILL.md', 'assets/dot.png', 'references/places.md', 'scripts/index.sh']);
    // Its scripts are listed with their sizes; a shell script is not JavaScript, so it is said never to run.
    const scripts = installed(page).locator('[data-testid="skill-scripts"]');
    assert.deepEqual(await scripts.locator('[data-testid="skill-script"]').evaluateAll((items) => items.map((item) => item.getAttribute('data-path'))), ['scripts/index.sh']);
    assert.match(await scripts.locator('[data-testid="skill-script"]').innerText(), /scripts\/index\.sh\s+27 B · not JavaScript: never run/);
    assert.equal(await scripts.locator('[data-testid="skill-script-runners"]').count(), 0, 'no profile is named for a script that never runs');
    await tree.locator('[data-testid="skill-file"][data-path="assets/dot.png"]').click();
    assert.match(await installed(page).locator('[data-testid="skill-file-binary"]').innerText(), /binary, 12 bytes/);
    assert.equal(await openFile(page, 'references/places.md'), PLACES_V1);
    assert.equal(await page.locator('aside.tavern-agent b').count(), 0, 'no element is made from the file');
    assert.deepEqual(await listedGlobal(page), ['lore-keeper']);

    // A changed version: `different` needs a decision; Install stays disabled until it is made.
    await importZip(page, PLACES_V2);
    assert.equal(await preview(page).getAttribute('data-conflict'), 'different');
    const install = page.locator('[data-testid="skill-install"]');
    assert.equal(await install.isDisabled(), true, 'no default: Install waits for skip or replace');
    assert.equal(await preview(page).locator('input[type="radio"]:checked').count(), 0, 'nothing is chosen for the user');
    await preview(page).locator('input[data-choice="replace"]').check();
    assert.equal(await install.isEnabled(), true);

    await shoot(page, DESKTOP.width, 'skills-desktop.png');
    await shoot(page, PHONE.width, 'skills-phone.png');
    await page.setViewportSize(DESKTOP);

    await install.click();
    await page.locator('[data-testid="skill-result"][data-skill="lore-keeper"][data-action="replaced"]').waitFor();
    assert.equal(await openFile(page, 'references/places.md'), PLACES_V2, 'the new version is installed');
    assert.equal(await page.locator('[data-testid="skill-item"][data-skill="lore-keeper"]').count(), 1, 'replaced, never installed twice or renamed');

    // Delete asks first, then the skill is gone from the list and from the service.
    await installed(page).locator('[data-testid="skill-delete"]').click();
    await page.locator('dialog[open] .popup-button-ok').click();
    await installed(page).waitFor({ state: 'detached' });
    assert.deepEqual(await listedGlobal(page), []);
    assert.deepEqual(pageErrors, []);
    await closePage(page);
});

test('install into this character, see who sees it, move it to Global, export the selection as a zip', async () => {
    const { page, pageErrors } = await openManager();
    await page.selectOption('#tavern_agent_skill_target', 'character:default_Seraphina.png');
    await importZip(page, PLACES_V1);
    assert.equal(await preview(page).getAttribute('data-conflict'), 'new');
    await page.click('[data-testid="skill-install"]');
    await page.locator('[data-testid="skill-result"][data-skill="lore-keeper"][data-action="installed"]').waitFor();

    const group = page.locator('[data-testid="skill-group"][data-scope="character:default_Seraphina.png"]');
    assert.match(await group.locator('h5').innerText(), /Character Seraphina/);
    const item = group.locator('[data-testid="skill-item"][data-skill="lore-keeper"]');
    await item.locator('[data-testid="skill-toggle"]').click();
    await item.locator('[data-testid="skill-seen-by"] code', { hasText: 'writer' }).waitFor();
    assert.equal(await item.locator('[data-testid="skill-export-owner"]').innerText(), 'Export to card', 'the open character can carry it');

    await item.locator('[data-testid="skill-move-target"]').selectOption('global');
    await item.locator('[data-testid="skill-move"]').click();
    await installed(page).waitFor();
    assert.equal(await group.count(), 0, 'nothing is left in the character scope');
    assert.deepEqual(await listedGlobal(page), ['lore-keeper']);

    await installed(page).locator('[data-testid="skill-select"]').check();
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid="skill-export-selected"]')]);
    assert.equal(download.suggestedFilename(), 'lore-keeper.zip');

    await deleteInstalled(page);
    assert.deepEqual(pageErrors, []);
    await closePage(page);
});

test("an import previewed for this character whose chat is then closed is previewed again against Global, where it will go", async () => {
    const { page, pageErrors } = await openManager();
    await importZip(page, PLACES_V1);
    await page.click('[data-testid="skill-install"]');
    await installed(page).waitFor();

    await page.selectOption('#tavern_agent_skill_target', 'character:default_Seraphina.png');
    await importZip(page, PLACES_V2);
    assert.equal(await preview(page).getAttribute('data-conflict'), 'new', 'nothing of that name in the character scope');
    // The character's chat closes: "this character" is no target any more.
    await page.evaluate(() => SillyTavern!.getContext().executeSlashCommandsWithOptions('/closechat'));
    await page.waitForFunction(() => (document.querySelector('#tavern_agent_skill_target') as HTMLSelectElement | null)?.value === 'global');
    // Previewed again against Global, where the changed version is installed: a choice is asked before Install.
    await page.locator('[data-testid="skill-preview"][data-skill="lore-keeper"][data-conflict="different"]').waitFor();
    assert.match(await page.locator('[data-testid="skill-previews"] h5').innerText(), /Global/);
    assert.equal(await page.locator('[data-testid="skill-choice"]').count(), 1);

    await deleteInstalled(page);
    assert.deepEqual(pageErrors, []);
    await closePage(page);
});

test('edit a skill file in the manager: checked as an import, kept after a reload, read by the next run', async () => {
    const page = await openAgentChat(session);
    await expandSkills(page);
    await importZip(page, PLACES_V1);
    await page.click('[data-testid="skill-install"]');
    await page.locator('[data-testid="skill-result"][data-skill="lore-keeper"][data-action="installed"]').waitFor();
    assert.equal(await openFile(page, 'references/places.md'), PLACES_V1);

    const viewer = installed(page).locator('[data-testid="skill-viewer"][data-path="references/places.md"]');
    await viewer.locator('[data-testid="skill-file-edit"]').click();
    const editor = viewer.locator('[data-testid="skill-file-editor"]');
    assert.equal(await editor.inputValue(), PLACES_V1, 'the editor opens on the file as stored');
    await editor.fill(PLACES_EDITED);
    await assertFits(page, PHONE.width, 'the editor on a phone');
    await viewer.locator('[data-testid="skill-file-save"]').click();
    await viewer.locator('[data-testid="skill-file-text"]').waitFor();
    assert.equal(await viewer.locator('[data-testid="skill-file-text"]').textContent(), PLACES_EDITED, 'the viewer shows the saved text');
    await page.setViewportSize(DESKTOP);

    // SKILL.md naming another skill is refused, saying why, and the typed text stays for the user to fix.
    await openFile(page, 'SKILL.md');
    const skillMd = installed(page).locator('[data-testid="skill-viewer"][data-path="SKILL.md"]');
    await skillMd.locator('[data-testid="skill-file-edit"]').click();
    const skillEditor = skillMd.locator('[data-testid="skill-file-editor"]');
    const renamed = (await skillEditor.inputValue()).replace('name: lore-keeper', 'name: lore-master');
    await skillEditor.fill(renamed);
    await skillMd.locator('[data-testid="skill-file-save"]').click();
    assert.match(await skillMd.locator('[role="alert"]').innerText(), /"lore-master".*\(skill\.name_changed\)/s);
    assert.equal(await skillEditor.inputValue(), renamed, 'nothing typed is lost');
    await skillMd.locator('[data-testid="skill-file-cancel"]').click();
    assert.match((await skillMd.locator('[data-testid="skill-file-text"]').textContent()) ?? '', /^---\nname: lore-keeper\n/);
    assert.deepEqual(await listedGlobal(page), ['lore-keeper'], 'no skill was renamed or added');

    // Stored, not just shown: a reload reads the edit back from the server's copy.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(page);
    await waitForExtension(page);
    await openCharacter(page);
    await page.click('#tavern_agent_button .drawer-icon');
    await page.locator('aside.tavern-agent').waitFor();
    await expandSkills(page);
    await installed(page).waitFor();
    assert.equal(await openFile(page, 'references/places.md'), PLACES_EDITED);

    // The next run reads the edited file: what the model is shown.
    await agentOn(page);
    session.mock.reset();
    session.mock.enqueue(
        calls(call('skill_read', { name: 'lore-keeper', path: 'references/places.md' })),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Done.' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Where is Greyhaven?');
    const [read] = toolMessages(session.mock.generations()[1]!).map((m) => m.content);
    assert.match(read!, /Greyhaven: a harbor town, added in the manager\./);
    assert.doesNotMatch(read!, /Glade/, 'the version before the edit is not what the run read');

    await page.evaluate(() => globalThis.TavernAgent!.skills.delete('lore-keeper', { scope: 'global' }));
    await closePage(page);
});
