// The panel's side of issue 34, in real SillyTavern: the pipeline editor sets the open chat's pipeline (before,
// reply, after: added, moved, removed), which `/agent status` reports; a change naming a profile that is gone is
// refused, shown, and changes nothing; the profile editor checks a profile's brief fields; a turn's runs are listed as one turn (before, SillyTavern's reply, after),
// each labelled with its phase, in History and above the shown run. The turn is seeded by importing the runs'
// exports (a run export keeps its phase and turn), not by the pipeline's own runs. Screenshots at 1280 and 390 px,
// in English and Chinese (test-results/; the two docs/panel.md shows in docs/images/).
import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { LORE_KEEPER_PROFILE } from '../../src/contract/profile';
import { openAgentChat, openInLanguage, restoreSettingsAfter } from '../harness/agent';
import { openCharacter, stPageOf } from '../harness/browser';
import { REPO_ROOT, slash, startTavernSession, type TavernSession } from '../harness/tavern';

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

interface Pipeline {
    before: string | null;
    reply: string;
    after: string[];
}

async function statusPipeline(page: Page): Promise<Pipeline> {
    return (JSON.parse(await slash(page, '/agent status')) as { pipeline: Pipeline }).pipeline;
}

/** The chat's pipeline is `expected` as `/agent status` says, and the editor shows it. */
async function waitForPipeline(page: Page, expected: Pipeline): Promise<void> {
    await page.waitForFunction((want) => {
        const shown = {
            before: (document.getElementById('tavern_agent_pipeline_before') as HTMLSelectElement | null)?.value || null,
            reply: (document.getElementById('tavern_agent_pipeline_reply') as HTMLSelectElement | null)?.value,
            after: [...document.querySelectorAll('[data-testid="pipeline-after"] li[data-profile-id]')].map((item) => item.getAttribute('data-profile-id')),
        };
        return JSON.stringify(globalThis.TavernAgent!.status().pipeline) === JSON.stringify(want) && JSON.stringify(shown) === JSON.stringify(want);
    }, expected);
    assert.deepEqual(await statusPipeline(page), expected);
}

async function openPipeline(page: Page): Promise<void> {
    const section = page.locator('[data-testid="pipeline"]');
    if (!(await section.evaluate((el) => (el as HTMLDetailsElement).open))) await section.locator('summary').click();
    await page.locator('#tavern_agent_pipeline_add option[value="memory-keeper"]').waitFor({ state: 'attached' });
}

async function afterIds(page: Page): Promise<string[]> {
    return page.$$eval('[data-testid="pipeline-after"] li[data-profile-id]', (items) => items.map((item) => item.getAttribute('data-profile-id') ?? ''));
}

test('the pipeline editor sets the chat pipeline: before, reply, keepers added, moved and removed; /agent status follows', async () => {
    const page = await openAgentChat(session, { reuse: true });
    const section = page.locator('[data-testid="pipeline"]');
    assert.equal(await section.getAttribute('data-default'), 'true');
    assert.equal(await page.locator('[data-testid="pipeline-shape"]').innerText(), 'The agent writes the reply');
    assert.equal(await section.evaluate((el) => (el as HTMLDetailsElement).open), false, 'closed: the panel looks as before until opened');
    await openPipeline(page);

    await page.selectOption('#tavern_agent_pipeline_before', 'director');
    await waitForPipeline(page, { before: 'director', reply: 'agent', after: [] });
    await page.selectOption('#tavern_agent_pipeline_reply', 'sillytavern');
    await waitForPipeline(page, { before: 'director', reply: 'sillytavern', after: [] });
    await page.selectOption('#tavern_agent_pipeline_add', 'memory-keeper');
    await waitForPipeline(page, { before: 'director', reply: 'sillytavern', after: ['memory-keeper'] });
    // A keeper already listed is not offered again.
    await page.locator('#tavern_agent_pipeline_add option[value="memory-keeper"]').waitFor({ state: 'detached' });
    await page.selectOption('#tavern_agent_pipeline_add', 'lore-keeper');
    await waitForPipeline(page, { before: 'director', reply: 'sillytavern', after: ['memory-keeper', 'lore-keeper'] });
    assert.equal(await page.inputValue('#tavern_agent_pipeline_add'), '', 'the add box is empty again');

    await page.click('[data-testid="pipeline-after"] li[data-profile-id="lore-keeper"] [data-action="up"]');
    await waitForPipeline(page, { before: 'director', reply: 'sillytavern', after: ['lore-keeper', 'memory-keeper'] });
    assert.deepEqual(await afterIds(page), ['lore-keeper', 'memory-keeper']);
    await page.click('[data-testid="pipeline-after"] li[data-profile-id="lore-keeper"] [data-action="remove"]');
    await waitForPipeline(page, { before: 'director', reply: 'sillytavern', after: ['memory-keeper'] });
    assert.deepEqual(await afterIds(page), ['memory-keeper']);
    assert.equal(await page.inputValue('#tavern_agent_pipeline_before'), 'director');
    assert.equal(await page.inputValue('#tavern_agent_pipeline_reply'), 'sillytavern');
    assert.equal(await page.locator('[data-testid="pipeline-shape"]').innerText(), "Director → SillyTavern's reply → Memory keeper");

    // Stored with the chat: a new chat has the default pipeline, and the editor follows the chat it shows.
    await slash(page, '/newchat');
    await waitForPipeline(page, { before: null, reply: 'agent', after: [] });
    await page.locator('[data-testid="pipeline"][data-default="true"]').waitFor();

    await page.selectOption('#tavern_agent_pipeline_before', 'director');
    await waitForPipeline(page, { before: 'director', reply: 'agent', after: [] });
    await page.selectOption('#tavern_agent_pipeline_before', '');
    await waitForPipeline(page, { before: null, reply: 'agent', after: [] });
});

test('a change naming a profile that is gone is refused: the panel says why, and the pipeline stays as it was', async (t) => {
    // The last test's page again (a page load is seconds of CPU), in a new chat; the settings this test replaces
    // come back at its end, for the next test that takes the page.
    const page = await openAgentChat(session, { reuse: true, panel: false });
    const { pageErrors } = stPageOf(page);
    await restoreSettingsAfter(t, page);
    await page.evaluate((scout) => {
        SillyTavern!.getContext().extensionSettings.tavern_agent = { profiles: { scout } };
    }, { ...LORE_KEEPER_PROFILE, id: 'scout', displayName: 'Scout' });
    await page.click('#tavern_agent_button .drawer-icon');
    await openPipeline(page);
    await page.locator('#tavern_agent_pipeline_add option[value="scout"]').waitFor({ state: 'attached' });

    // Deleted behind the panel's back (another tab, a script): the list still offers it.
    await page.evaluate(() => {
        (SillyTavern!.getContext().extensionSettings.tavern_agent as { profiles: Record<string, unknown> }).profiles = {};
    });
    await page.selectOption('#tavern_agent_pipeline_add', 'scout');
    const error = page.locator('[data-testid="pipeline-error"]');
    await error.waitFor();
    assert.match(await error.innerText(), /profile\.not_found/);
    assert.equal(await error.getAttribute('role'), 'alert');
    assert.deepEqual(await statusPipeline(page), { before: null, reply: 'agent', after: [] });
    assert.deepEqual(await afterIds(page), []);

    await page.selectOption('#tavern_agent_pipeline_add', 'memory-keeper');
    await waitForPipeline(page, { before: null, reply: 'agent', after: ['memory-keeper'] });
    assert.equal(await error.count(), 0, 'the next change that works clears the refusal');
    assert.deepEqual(pageErrors, []);
});

test("the profile editor's brief fields: depth, role and replan-on-swipe, checked like the other fields", async () => {
    const page = await openAgentChat(session, { reuse: true });
    const { pageErrors } = stPageOf(page);
    await page.click('#tavern_agent_profiles > summary');
    await page.click('[data-testid="profile-list"] [data-profile-id="director"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="profile-form"]')?.getAttribute('data-profile-id') === 'director');
    const section = page.locator('[data-testid="profile-brief"]');
    assert.match(await section.locator('summary').innerText(), /Before the reply/);
    await section.locator('summary').click();
    assert.equal(await page.inputValue('#tavern_agent_profile_brief_depth'), '1');
    assert.equal(await page.inputValue('#tavern_agent_profile_brief_role'), 'system');
    assert.equal(await page.isChecked('#tavern_agent_profile_brief_replanOnSwipe'), false);

    await page.fill('#tavern_agent_profile_brief_depth', '10001');
    await page.click('[data-testid="profile-save"]');
    const fieldError = page.locator('[data-field="brief.depth"] [data-testid="field-error"]');
    await fieldError.waitFor();
    assert.match(await fieldError.innerText(), /10000|10,000/, 'the message names the limit');
    assert.equal(await page.getAttribute('#tavern_agent_profile_brief_depth', 'aria-invalid'), 'true');
    const stored = () => page.evaluate(() => ((SillyTavern!.getContext().extensionSettings.tavern_agent as { profiles?: Record<string, { brief?: unknown }> } | undefined)?.profiles?.director?.brief ?? null));
    assert.equal(await stored(), null, 'nothing is saved');

    await page.fill('#tavern_agent_profile_brief_depth', '4');
    await page.selectOption('#tavern_agent_profile_brief_role', 'user');
    await page.check('#tavern_agent_profile_brief_replanOnSwipe');
    await page.click('[data-testid="profile-save"]');
    await page.locator('[data-profile-id="director"] [data-testid="profile-changed"]').waitFor();
    assert.equal(await fieldError.count(), 0, 'the error is gone');
    assert.deepEqual(await stored(), { depth: 4, role: 'user', replanOnSwipe: true });
    assert.deepEqual(pageErrors, []);
});

// ── a turn, seeded by importing its runs' exports ──

const TURN_ID = 'turn-7';
const T0 = Date.UTC(2026, 5, 1, 9, 30);

interface SeedRun {
    runId: string;
    profileId: string;
    at: number;
    phase?: 'before' | 'reply' | 'after';
    turnId?: string;
    follows?: number;
    messageId?: number;
    /** What its one model turn says; shown as text. */
    text: string;
    path: string;
}

/** A small finished run as an export holds it: one model turn that writes a file, then finish. */
function runExport(seed: SeedRun): string {
    const { runId, at } = seed;
    const events: Array<Record<string, unknown>> = [];
    const push = (type: string, payload: Record<string, unknown>) => events.push({ v: 1, runId, seq: events.length, at: at + events.length * 400, type, payload });
    push('run-create', { chatKey: 'k', chatId: 'Seraphina - demo', profileId: seed.profileId, generationType: 'normal', foreground: false });
    push('run-state', { from: 'created', to: 'running' });
    push('model-request', { round: 1, messageCount: 6, tools: ['workspace_write_file', 'workspace_finish'], wrapUp: false });
    push('model-response', { round: 1, durationMs: 1800, usage: { input: 2400, output: 160 }, text: seed.text, reasoning: '', toolCalls: [{ id: 'c1', name: 'workspace_write_file' }], finishReason: 'tool_calls', stored: 'model-responses/round-1.json' });
    push('tool-call-start', { callId: 'c1', name: 'workspace_write_file', canonical: 'workspace.write_file', argsPath: 'tool-args/c1.json' });
    push('tool-call-complete', { callId: 'c1', name: 'workspace_write_file', durationMs: 4, summary: `Wrote ${seed.path}`, resultPath: 'tool-results/c1.json' });
    push('run-finish', { reason: 'done' });
    push('run-state', { from: 'running', to: 'completed' });
    const run = {
        v: 1,
        runId,
        chatKey: 'k',
        chatId: 'Seraphina - demo',
        profileId: seed.profileId,
        generationType: 'normal',
        state: 'completed',
        messageId: seed.messageId ?? null,
        error: null,
        createdAt: at,
        updatedAt: at + events.length * 400,
        ...(seed.phase ? { phase: seed.phase } : {}),
        ...(seed.turnId ? { turnId: seed.turnId } : {}),
        ...(seed.follows !== undefined ? { follows: seed.follows } : {}),
    };
    return JSON.stringify({ kind: 'tavern-agent.run', version: 1, run, events, files: [], checkpoints: [] });
}

/** An earlier run of the default pipeline, then a turn: the director before SillyTavern's reply (#4), two keepers after it. */
const SEED: SeedRun[] = [
    { runId: 'plain', profileId: 'writer', at: T0 - 600_000, messageId: 2, text: 'Drafting the reply.', path: 'output/main.md' },
    { runId: 'director', profileId: 'director', at: T0, phase: 'before', turnId: TURN_ID, text: 'Reading the last scene for open threads.', path: 'output/brief.md' },
    { runId: 'memory', profileId: 'memory-keeper', at: T0 + 20_000, phase: 'after', turnId: TURN_ID, follows: 4, text: 'Updating what Seraphina knows.', path: 'persist/characters.md' },
    { runId: 'lore', profileId: 'lore-keeper', at: T0 + 21_000, phase: 'after', turnId: TURN_ID, follows: 4, text: 'Checking the lore for the glade.', path: 'scratch/notes.md' },
];

async function importSeed(page: Page): Promise<void> {
    await page.locator('.tavern-agent__history > summary').click();
    for (const [index, seed] of SEED.entries()) {
        await page.setInputFiles('#tavern_agent_run_import', { name: `${seed.runId}.json`, mimeType: 'application/json', buffer: Buffer.from(runExport(seed)) });
        // Each import is listed (the last list holds the imported runs) and shown.
        await page.waitForFunction((n) => document.querySelectorAll('.tavern-agent__history > ul:last-of-type [data-history-run]').length === n, index + 1);
        await page.locator('.tavern-agent__run[data-source="imported"] .tavern-agent__run-profile', { hasText: seed.profileId }).waitFor({ state: 'attached' });
    }
    await page.locator('.tavern-agent__history-turn [data-phase="after"]').nth(1).waitFor();
}

const phasesIn = (page: Page, scope: string) => page.$$eval(`${scope} [data-phase]:not(.tavern-agent__badge)`, (items) => items.map((item) => `${item.getAttribute('data-phase')}:${item.querySelector('.tavern-agent__phase')?.textContent ?? ''}`));

test("a turn's runs are one turn, each labelled with its phase: in History and above the shown run", async () => {
    const page = await openAgentChat(session, { reuse: true });
    await importSeed(page);

    const turn = page.locator('.tavern-agent__history-turn');
    assert.equal(await turn.count(), 1);
    assert.equal(await turn.getAttribute('data-turn-id'), TURN_ID);
    assert.deepEqual(await phasesIn(page, '.tavern-agent__history-turn'), ['before:Before', 'sillytavern:SillyTavern reply', 'after:After (background)', 'after:After (background)']);
    assert.match(await turn.locator('li[data-phase="sillytavern"]').innerText(), /#4/, "SillyTavern's reply names its message");
    // The run of the default pipeline looks as every run did: no phase, no turn.
    const plain = page.locator('[data-history-run]:not([data-phase])');
    assert.equal(await plain.count(), 1);
    assert.equal(await plain.locator('.tavern-agent__phase').count(), 0);

    // The shown run (the last import, the lore keeper) with its turn above it, the shown line marked.
    const strip = page.locator('nav.tavern-agent__turn');
    assert.equal(await strip.getAttribute('data-turn-id'), TURN_ID);
    assert.deepEqual(await phasesIn(page, 'nav.tavern-agent__turn'), ['before:Before', 'sillytavern:SillyTavern reply', 'after:After (background)', 'after:After (background)']);
    assert.equal(await strip.locator('[aria-current="true"]').count(), 1);
    assert.equal(await page.locator('.tavern-agent__run-header .tavern-agent__phase').innerText(), 'After (background)');

    // A line of the turn opens that run.
    await strip.locator('[data-phase="before"] button').click();
    await page.locator('.tavern-agent__run-header .tavern-agent__phase', { hasText: 'Before' }).waitFor();
    await page.locator('.tavern-agent__run .tavern-agent__run-profile', { hasText: 'director' }).waitFor({ state: 'attached' });
    await page.locator('.tavern-agent__history-item--shown[data-phase="before"]').waitFor();

    // The plain run, opened, has no turn and no phase label.
    await plain.locator('.tavern-agent__history-open').click();
    await page.locator('.tavern-agent__run .tavern-agent__run-profile', { hasText: 'writer' }).waitFor({ state: 'attached' });
    assert.equal(await strip.count(), 0);
    assert.equal(await page.locator('.tavern-agent__run-header .tavern-agent__phase').count(), 0);
});

/** A fresh page in a language, a chat with Agent Mode on and a pipeline set in the panel, the seeded turn shown. */
async function pipelinePage(language: 'en' | 'zh-cn') {
    const opened = await openInLanguage(session, language, DESKTOP);
    const { page } = opened;
    await openCharacter(page);
    await slash(page, '/newchat');
    await slash(page, '/agent on');
    await page.click('#tavern_agent_button .drawer-icon');
    await openPipeline(page);
    await page.selectOption('#tavern_agent_pipeline_before', 'director');
    await page.selectOption('#tavern_agent_pipeline_reply', 'sillytavern');
    await page.selectOption('#tavern_agent_pipeline_add', 'memory-keeper');
    await page.selectOption('#tavern_agent_pipeline_add', 'lore-keeper');
    await waitForPipeline(page, { before: 'director', reply: 'sillytavern', after: ['memory-keeper', 'lore-keeper'] });
    await importSeed(page);
    // The director's run shown, with its turn above it.
    await page.locator('nav.tavern-agent__turn [data-phase="before"] button').click();
    await page.locator('.tavern-agent__run .tavern-agent__run-profile', { hasText: 'director' }).waitFor({ state: 'attached' });
    return opened;
}

/** A picture of the panel scrolled to `at` (its top, or the turn above the shown run). */
async function shoot(page: Page, viewport: typeof DESKTOP, file: string, at: 'top' | 'turn' = 'top'): Promise<void> {
    await page.setViewportSize(viewport);
    await page.evaluate(() => document.querySelectorAll('#toast-container').forEach((toasts) => toasts.remove()));
    await page.locator('.tavern-agent__scroll').evaluate((el) => (el.scrollTop = 0));
    if (at === 'turn') await page.locator('nav.tavern-agent__turn').evaluate((el) => el.closest('.tavern-agent__runs')!.scrollIntoView({ block: 'start' }));
    const wide = await page.$$eval('aside.tavern-agent *', (elements) =>
        elements.filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((el) => el.className || el.tagName),
    );
    assert.deepEqual(wide, [], `${file}: nothing sticks out of the screen`);
    assert.equal(await page.locator('aside.tavern-agent').evaluate((el) => el.scrollWidth > el.clientWidth), false, `${file}: no sideways scrolling`);
    await page.waitForTimeout(200);
    await page.screenshot({ path: file });
}

test('screenshots: the pipeline and a turn at 1280 and 390 px, in English and Chinese', async () => {
    mkdirSync(images, { recursive: true });
    for (const language of ['en', 'zh-cn'] as const) {
        const { page, pageErrors } = await pipelinePage(language);
        // The English pictures docs/panel.md shows go to docs/images/; the others to test-results/.
        const file = (name: string, shown = false) => (language === 'en' ? path.join(shown ? images : artifacts, `${name}.png`) : path.join(artifacts, `${name}-zh-cn.png`));
        if (language === 'zh-cn') {
            assert.equal(await page.locator('[data-testid="pipeline"] .tavern-agent__pipeline-title').innerText(), '流程');
            assert.deepEqual(await phasesIn(page, 'nav.tavern-agent__turn'), ['before:之前', 'sillytavern:SillyTavern 回复', 'after:之后（后台）', 'after:之后（后台）']);
        }
        // Tall enough for the pipeline and the turn below it, in the panel's default width beside the chat.
        await shoot(page, { width: DESKTOP.width, height: 1240 }, file('pipeline-desktop', true));
        await shoot(page, PHONE, file('pipeline-phone'));
        await shoot(page, PHONE, file('pipeline-turn-phone', true), 'turn');
        assert.deepEqual(pageErrors, []);
        await closePage(page);
    }
});
