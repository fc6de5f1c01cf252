import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { installExtensionFromGit, openCharacter, reloadPage } from '../harness/browser';
import { serveGitRepository } from '../harness/git-server';
import { REPO_ROOT, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

let session: TavernSession;
let git: Awaited<ReturnType<typeof serveGitRepository>>;
const artifacts = path.join(REPO_ROOT, 'test-results');

before(async () => {
    // Nothing is linked: the extension arrives the way users get it, as a clone of the committed repository.
    session = await startTavernSession({ link: false, builtIns: 'all' });
    git = await serveGitRepository({ sourceDir: REPO_ROOT, name: 'tavern-agent' });
    mkdirSync(artifacts, { recursive: true });
});

after(async () => {
    await session?.close();
    await git?.close();
});

test('installs from a git URL through SillyTavern, loads cleanly, and starts its worker only when needed', async () => {
    const installer = await session.open();
    const { folder } = await installExtensionFromGit(installer.page, git.url);
    await installer.page.context().close();

    const opened = await session.open({ width: 1280, height: 900 });
    const { page, consoleErrors, pageErrors } = opened;
    // Record every Worker the page constructs, from before its first script (a string: no compiled helpers).
    await page.addInitScript({
        content: `globalThis.__workersCreated = [];
            globalThis.Worker = new Proxy(globalThis.Worker, {
                construct: (target, args) => (globalThis.__workersCreated.push(String(args[0])), Reflect.construct(target, args)),
            });`,
    });
    await reloadPage(opened);
    await waitForExtension(page);
    const manifest = await page.evaluate(async (name) => (await fetch(`/scripts/extensions/third-party/${name}/manifest.json`)).json(), folder);
    assert.equal(manifest.display_name, 'Tavern Agent');

    // The worker is not part of page load: nothing constructed it while the page and the extension loaded.
    const workersCreated = () => page.evaluate(() => (globalThis as unknown as { __workersCreated: string[] }).__workersCreated.filter((url) => url.endsWith('/dist/worker.js')));
    assert.deepEqual(await workersCreated(), [], 'the worker must load on first need, not at startup');

    await openCharacter(page);
    await page.click('#tavern_agent_button .drawer-icon');
    const panel = page.locator('aside.tavern-agent');
    await panel.waitFor();
    await page.locator('[data-engine="ready"]').waitFor();
    assert.equal((await workersCreated()).length, 1, 'opening the panel started the one worker');

    const health = await page.evaluate(() => globalThis.TavernAgent!.health());
    assert.equal(health.ok, true);
    assert.equal(health.isModuleWorker, true);
    assert.equal(health.zodJitless, true);
    assert.equal(health.engineVersion, manifest.version);
    assert.equal(health.database.name, 'tavern-agent:default-user');
    assert.deepEqual(health.database.stores, ['checkpoints', 'chunkRefs', 'chunks', 'events', 'files', 'loreClaims', 'persistStates', 'runs', 'skillBundles']);
    const databases = await page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name));
    assert.ok(databases.includes('tavern-agent:default-user'), 'the IndexedDB database exists in the page origin');

    assert.equal(await page.locator('#tavern_agent_mode_switch').isDisabled(), false);
    await page.screenshot({ path: path.join(artifacts, 'panel-desktop.png') });

    assert.deepEqual(pageErrors, [], 'no uncaught errors');
    assert.deepEqual(consoleErrors, [], 'no console errors');
    await page.context().close();
});

test('the panel opens from the wand menu and fits a 390 px phone screen', async () => {
    const { page, pageErrors } = await session.open({ width: 390, height: 844 });
    await waitForExtension(page);
    await openCharacter(page);
    await page.click('#extensionsMenuButton');
    await page.click('#tavern_agent_wand_item');
    const panel = page.locator('aside.tavern-agent');
    await panel.waitFor();
    const box = await panel.boundingBox();
    assert.ok(box, 'the panel is laid out');
    assert.ok(box.x >= 0 && box.x + box.width <= 390, `the panel fits the screen (x ${box.x}, width ${box.width})`);
    const overflow = await panel.evaluate((el) => el.scrollWidth > el.clientWidth);
    assert.equal(overflow, false, 'no horizontal scrolling inside the panel');
    await page.locator('[data-engine="ready"]').waitFor();
    await page.screenshot({ path: path.join(artifacts, 'panel-phone.png') });

    // Keyboard: the close button closes it, the top-bar icon reopens it.
    await page.getByRole('button', { name: 'Close' }).click();
    await panel.waitFor({ state: 'detached' });
    await page.locator('#tavern_agent_button .drawer-icon').focus();
    await page.keyboard.press('Enter');
    await panel.waitFor();
    assert.deepEqual(pageErrors, []);
    await page.context().close();
});

test('a worker that cannot load shows its failure in the panel and to the API instead of hanging', async () => {
    const { page } = await session.open({ width: 1280, height: 900 });
    // A broken install: the worker's file is missing.
    await page.route('**/dist/worker.js', (route) => route.fulfill({ status: 404, body: 'Not found' }));
    await waitForExtension(page);
    await openCharacter(page);
    const health = await page.evaluate(() => globalThis.TavernAgent!.health().then(() => 'answered', (error: Error) => `failed: ${error.message}`));
    assert.match(health, /^failed: The agent's worker failed/);
    await page.click('#tavern_agent_button .drawer-icon');
    const shown = page.locator('[data-engine="error"]');
    await shown.waitFor();
    assert.match((await shown.textContent()) ?? '', /worker failed/);
    await page.context().close();
});
