// Lore the agent can look up and propose (issue 19): worldinfo.search / worldinfo.read over the chat's
// lorebooks, and lore edits the user reviews in the panel, in a real SillyTavern; accepting them safely
// (issue 39 §7): regular-expression keys, an entry changed since the run began, two tabs.
// Run: npm test -- tests/e2e/lore.test.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { openCharacter, sendMessage, waitForSillyTavernReady } from '../harness/browser';
import { call, calls, openAgentChat, toolMessages } from '../harness/agent';
import { slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

function finishTurns(text = 'Done.') {
    return [calls(call('workspace_write_file', { path: 'output/main.md', content: text }), call('workspace_commit', {}), call('workspace_finish', {}))];
}

async function runEnded(page: Page): Promise<void> {
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 60_000 });
}

/** A lorebook (new, or SillyTavern's shipped one of that name) with entries added by slash commands; returns their uids. */
async function makeBook(page: Page, name: string, entries: Array<{ key: string; content: string; disabled?: boolean }>): Promise<number[]> {
    await page.evaluate(async (book) => {
        const wi = (await import(/* webpackIgnore: true */ '/scripts/world-info.js' as string)) as { createNewWorldInfo(n: string): Promise<boolean> };
        await wi.createNewWorldInfo(book);
    }, name);
    const uids: number[] = [];
    for (const entry of entries) {
        const uid = Number(await slash(page, `/createentry file="${name}" key="${entry.key}" ${entry.content}`));
        if (entry.disabled) await slash(page, `/setentryfield file="${name}" uid=${uid} field=disable true`);
        uids.push(uid);
    }
    // /createentry saves after a debounce, and SillyTavern cancels a pending debounced save whenever any book
    // is saved at once (making the next book does): save this one now, so a fresh page loads it whole.
    await page.evaluate(async (book) => {
        const wi = (await import(/* webpackIgnore: true */ '/scripts/world-info.js' as string)) as { loadWorldInfo(n: string): Promise<unknown>; saveWorldInfo(n: string, d: unknown, now: boolean): Promise<void> };
        await wi.saveWorldInfo(book, await wi.loadWorldInfo(book), true);
    }, name);
    return uids;
}

/** A lorebook as SillyTavern's world-info API returns it. */
async function loadBook(page: Page, name: string): Promise<Record<string, { uid: number; key: string[]; comment: string; content: string }>> {
    return page.evaluate(async (book) => {
        const wi = (await import(/* webpackIgnore: true */ '/scripts/world-info.js' as string)) as { loadWorldInfo(n: string): Promise<unknown> };
        const data = (await wi.loadWorldInfo(book)) as { entries: Record<string, { uid: number; key: string[]; comment: string; content: string }> } | null;
        return data?.entries ?? {};
    }, name);
}

function chatBook(page: Page): Promise<string | null> {
    return page.evaluate(() => (SillyTavern!.getContext().chatMetadata.world_info as string | undefined) ?? null);
}

let eldoria: { river: number; bridge: number; ferry: number; hidden: number };

// Every test takes the last test's page again (a page load is seconds of CPU), each in its own chat. The two
// books the first test makes global stay global for the tests after it, as they did before: SillyTavern saves
// its global selection to the server, which a fresh page loads (the second test's proposal on Eldoria needs it
// in scope).

test('worldinfo.search finds lore not activated this turn by content and key, marks the activated, never a disabled entry; worldinfo.read reads it; Chinese works', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    const [river, bridge, ferry, hidden] = await makeBook(page, 'Eldoria', [
        { key: 'Silverrun', content: 'The Silverrun river flows east past the old mill.' },
        { key: 'bridge', content: 'A stone bridge crosses the river near the mill. Boats are moored below it.' },
        { key: 'Tomas', content: 'The ferryman rows travellers across for a copper.' },
        { key: 'smugglers', content: 'Secret boats of the smugglers hide near the river.', disabled: true },
    ]);
    eldoria = { river: river!, bridge: bridge!, ferry: ferry!, hidden: hidden! };
    const [yangtze] = await makeBook(page, 'Shanhe Annals', [{ key: '长江', content: '长江自西向东流，两岸多渡口与石桥。' }]);
    // Both books in the global selection: in scope for every chat.
    await slash(page, '/world silent=true Eldoria');
    await slash(page, '/world silent=true Shanhe Annals');
    session.mock.reset();
    session.mock.enqueue(
        calls(
            call('worldinfo_search', { query: 'boats near the river' }),
            call('worldinfo_search', { query: 'tomas' }),
            call('worldinfo_search', { query: 'Silverrun' }),
            call('worldinfo_search', { query: 'smugglers secret' }),
            call('worldinfo_search', { query: '石桥渡口' }),
        ),
        calls(call('worldinfo_read', { entries: [{ ref: `worldinfo:Eldoria#${bridge}` }] }), call('worldinfo_read', { entries: [{ ref: `worldinfo:Eldoria#${hidden}` }] })),
        ...finishTurns('The river is quiet.'),
    );
    await sendMessage(page, 'We follow the Silverrun downstream.');
    await runEnded(page);
    const [byContent, byKey, activated, disabled, chinese] = toolMessages(session.mock.generations()[1]!).map((m) => m.content);
    assert.match(byContent!, new RegExp(`worldinfo:Eldoria#${bridge} · title "bridge" · keys: bridge · not activated`), 'found by content, though its key is absent this turn');
    assert.match(byContent!, /Boats are moored below it/);
    assert.match(byKey!, new RegExp(`worldinfo:Eldoria#${ferry} .* · not activated`), 'found by key');
    assert.match(activated!, new RegExp(`worldinfo:Eldoria#${river} .* · activated this turn`));
    assert.doesNotMatch(byContent! + disabled!, new RegExp(`worldinfo:Eldoria#${hidden}\\b`), 'a disabled entry is never found');
    assert.match(disabled!, /^No hits/);
    assert.match(chinese!, new RegExp(`worldinfo:Shanhe Annals#${yangtze} `));
    assert.match(chinese!, /两岸多渡口与石桥/);
    const [read, notFound] = toolMessages(session.mock.generations()[2]!).slice(-2).map((m) => m.content);
    assert.match(read!, /A stone bridge crosses the river near the mill\. Boats are moored below it\./);
    assert.match(notFound!, /^ERROR worldinfo\.entry_not_found:/, 'a disabled entry cannot be read either');
});

test('lore proposals: nothing changes until Accept; Accept writes the chat lorebook (created and bound), Discard writes nothing; the next run sees the entry', async () => {
    const page = await openAgentChat(session, { reuse: true });
    assert.equal(await chatBook(page), null, 'a new chat has no lorebook of its own');
    const eldoriaBefore = await loadBook(page, 'Eldoria');
    session.mock.enqueue(
        calls(
            call('worldinfo_propose', { ref: `worldinfo:Eldoria#${eldoria.bridge}`, content: 'The bridge was destroyed in the raid.', reason: 'The raiders burned it.' }),
            call('worldinfo_propose', { title: 'Ruined mill', keys: ['mill'], content: 'The old mill burned down; only its wheel remains.' }),
            call('worldinfo_propose', { title: 'Rumour', keys: ['rumour'], content: 'Nobody believes the ferryman.' }),
        ),
        ...finishTurns('The raiders are gone.'),
    );
    await sendMessage(page, 'The raiders ride away.');
    await runEnded(page);
    const results = toolMessages(session.mock.generations()[1]!).map((m) => m.content);
    for (const result of results) assert.match(result, /^Proposal lore-\S+ recorded: .*Nothing is written yet/);

    const proposals = page.locator('.tavern-agent__lore-proposal');
    await page.waitForFunction(() => document.querySelectorAll('.tavern-agent__lore-proposal[data-state="pending"]').length === 3);
    // Shown as a diff against the entry it changes.
    const bridgeItem = proposals.filter({ hasText: 'bridge' }).first();
    await bridgeItem.locator('del', { hasText: 'A stone bridge crosses the river' }).waitFor();
    await bridgeItem.locator('ins', { hasText: 'The bridge was destroyed in the raid.' }).waitFor();
    assert.equal(await chatBook(page), null, 'nothing is written before Accept');
    assert.deepEqual(await loadBook(page, 'Eldoria'), eldoriaBefore);

    await proposals.filter({ hasText: 'Rumour' }).locator('[data-action="discard"]').click();
    await page.locator('.tavern-agent__lore-proposal[data-state="discarded"]').waitFor();
    assert.equal(await chatBook(page), null, 'Discard writes nothing');

    await bridgeItem.locator('[data-action="edit"]').click();
    await bridgeItem.locator('textarea[data-field="content"]').fill('The bridge was destroyed; only its pillars stand.');
    await bridgeItem.locator('[data-action="accept-edit"]').click();
    await page.waitForFunction(() => document.querySelectorAll('.tavern-agent__lore-proposal[data-state="accepted"]').length === 1);
    const book = await chatBook(page);
    assert.ok(book, 'Accept created a lorebook and bound it to the chat');
    await proposals.filter({ hasText: 'Ruined mill' }).locator('[data-action="accept"]').click();
    await page.waitForFunction(() => document.querySelectorAll('.tavern-agent__lore-proposal[data-state="accepted"]').length === 2);

    const entries = Object.values(await loadBook(page, book!));
    const bridgeEntry = entries.find((e) => e.key.includes('bridge'));
    assert.equal(bridgeEntry?.content, 'The bridge was destroyed; only its pillars stand.', 'the edited text was written');
    const mill = entries.find((e) => e.comment === 'Ruined mill');
    assert.deepEqual(mill?.key, ['mill']);
    assert.equal(mill?.content, 'The old mill burned down; only its wheel remains.');
    assert.ok(!entries.some((e) => e.comment === 'Rumour'), 'the discarded proposal is not in the book');
    assert.deepEqual(await loadBook(page, 'Eldoria'), eldoriaBefore, "the other book is left as it is (this chat has its own version)");
    const onDisk = JSON.parse(readFileSync(path.join(session.st.userDir, 'worlds', `${book}.json`), 'utf8')) as { entries: Record<string, { content: string; comment: string }> };
    assert.ok(Object.values(onDisk.entries).some((e) => e.comment === 'Ruined mill' && e.content.includes('wheel remains')), 'saved on disk');
    assert.ok(Object.values(onDisk.entries).some((e) => e.content === 'The bridge was destroyed; only its pillars stand.'));
    // Each decision is journaled in the run: the timeline shows them.
    await page.locator('.tavern-agent__event[data-event-type="lore-decide"]').first().waitFor({ state: 'attached' });

    // The next run's activation sees the accepted entry, by its key.
    session.mock.reset();
    session.mock.enqueue(calls(call('worldinfo_read_activated', {})), ...finishTurns('We reach the mill.'));
    await sendMessage(page, 'We walk to the mill.');
    await runEnded(page);
    const listing = toolMessages(session.mock.generations()[1]!)[0]!.content;
    assert.match(listing, new RegExp(`worldinfo:${book!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#${mill!.uid}\\b`));
    assert.match(JSON.stringify(session.mock.generations()[0]!.body), /only its wheel remains/);
});

test('proposals show while the run works, and a decision made then is journaled in the live run', async () => {
    const page = await openAgentChat(session, { reuse: true });
    session.mock.enqueue(
        calls(call('worldinfo_propose', { title: 'Storm', keys: ['storm'], content: 'A storm gathers over the Silverrun.' })),
        // A long model turn: the run is still going while the user reviews the proposal; Stop ends it.
        { delayMs: 120_000, toolCalls: [call('workspace_finish', {})] },
    );
    await page.fill('#send_textarea', 'Look at the sky.');
    await page.click('#send_but');
    await session.mock.waitForGenerations(2, 60_000);
    const item = page.locator('.tavern-agent__lore-proposal[data-state="pending"]', { hasText: 'Storm' });
    await item.waitFor();
    assert.ok(await page.evaluate(() => Boolean(globalThis.TavernAgent!.status().run)), 'the run is still working');
    await item.locator('[data-action="discard"]').click();
    await page.locator('.tavern-agent__lore-proposal[data-state="discarded"]').waitFor();
    await page.locator('.tavern-agent__event[data-event-type="lore-decide"]').first().waitFor({ state: 'attached' });
    assert.ok(await page.evaluate(() => Boolean(globalThis.TavernAgent!.status().run)), 'decided while the run works');
    assert.equal(await chatBook(page), null, 'nothing written');
    await page.click('#mes_stop');
    await runEnded(page);
});

/** The chat's own lorebook, made and bound now (SillyTavern's /getchatbook), saved at once with one entry per `entries`; their uids. */
async function chatBookWith(page: Page, entries: Array<{ key: string; content: string }>): Promise<{ book: string; uids: number[] }> {
    const book = await slash(page, '/getchatbook');
    assert.ok(book, 'the chat has its own lorebook');
    const uids: number[] = [];
    for (const entry of entries) uids.push(Number(await slash(page, `/createentry file="${book}" key="${entry.key}" ${entry.content}`)));
    await page.evaluate(async (name) => {
        const wi = (await import(/* webpackIgnore: true */ '/scripts/world-info.js' as string)) as { loadWorldInfo(n: string): Promise<unknown>; saveWorldInfo(n: string, d: unknown, now: boolean): Promise<void> };
        await wi.saveWorldInfo(name, await wi.loadWorldInfo(name), true);
    }, book);
    return { book, uids };
}

test('keys SillyTavern runs as regular expressions are marked, as text, and Accept asks again in a SillyTavern popup before writing them', async () => {
    const page = await openAgentChat(session, { reuse: true });
    // A pattern that is also markup: it must show as text, never as an element.
    const pattern = '/<img src=x onerror=alert(1)>|drag(on|ons)/i';
    session.mock.enqueue(calls(call('worldinfo_propose', { title: 'Dragons', keys: [pattern, 'wyrm', '/not a regex/q'], content: 'Dragons nest in the peaks.' })), ...finishTurns('Dragons circle.'));
    await sendMessage(page, 'Are there dragons here?');
    await runEnded(page);
    const item = page.locator('.tavern-agent__lore-proposal', { hasText: 'Dragons' });
    await item.locator('[data-regex-key]').first().waitFor();
    assert.deepEqual(await item.locator('[data-regex-key]').allTextContents(), [pattern], 'only the key SillyTavern would run as a pattern is marked ("/…/q" has a flag it refuses)');
    assert.equal(await page.locator('aside.tavern-agent img').count(), 0, 'shown as text');

    const popup = page.locator('dialog[open].popup');
    await item.locator('[data-action="accept"]').click();
    await popup.waitFor();
    assert.ok((await popup.innerText()).includes(pattern), 'the popup names the key');
    assert.equal(await popup.locator('img[src="x"]').count(), 0, 'as text in the popup too');
    await popup.locator('.popup-button-cancel').click();
    await popup.waitFor({ state: 'detached' });
    assert.equal(await item.getAttribute('data-state'), 'pending');
    assert.equal(await chatBook(page), null, 'Cancel writes nothing');

    await item.locator('[data-action="accept"]').click();
    await popup.locator('.popup-button-ok').click();
    await page.locator('.tavern-agent__lore-proposal[data-state="accepted"]', { hasText: 'Dragons' }).waitFor();
    const book = await chatBook(page);
    assert.ok(book);
    const written = Object.values(await loadBook(page, book)).find((entry) => entry.comment === 'Dragons');
    assert.deepEqual(written?.key, [pattern, 'wyrm', '/not a regex/q'], 'written after the second yes');
});

test('an entry changed since the run began: Accept writes nothing and shows the three versions; Cancel, or Accept anyway while it is still as shown', async () => {
    const page = await openAgentChat(session, { reuse: true });
    const { book, uids } = await chatBookWith(page, [{ key: 'tower', content: 'The tower stands on the hill.' }]);
    const uid = uids[0]!;
    session.mock.enqueue(calls(call('worldinfo_propose', { ref: `worldinfo:${book}#${uid}`, content: 'The tower fell in the storm.', reason: 'The storm broke it.' })), ...finishTurns('The tower falls.'));
    await sendMessage(page, 'The storm hits the tower.');
    await runEnded(page);
    const item = page.locator('.tavern-agent__lore-proposal', { hasText: 'The storm broke it.' });
    await item.waitFor();
    const content = async () => (await loadBook(page, book))[String(uid)]?.content;

    // The user changes the entry after the run began.
    await slash(page, `/setentryfield file="${book}" uid=${uid} field=content The tower was rebuilt in stone.`);
    await item.locator('[data-action="accept"]').click();
    const view = item.locator('.tavern-agent__lore-three-way');
    await view.waitFor();
    assert.equal(await content(), 'The tower was rebuilt in stone.', 'nothing written yet');
    await view.locator('[data-part="since-start"] del', { hasText: 'The tower stands on the hill.' }).waitFor();
    await view.locator('[data-part="since-start"] ins', { hasText: 'The tower was rebuilt in stone.' }).waitFor();
    await view.locator('[data-part="proposal"] del', { hasText: 'The tower stands on the hill.' }).waitFor();
    await view.locator('[data-part="proposal"] ins', { hasText: 'The tower fell in the storm.' }).waitFor();
    await view.locator('[data-part="result"] del', { hasText: 'The tower was rebuilt in stone.' }).waitFor();
    await view.locator('[data-part="result"] ins', { hasText: 'The tower fell in the storm.' }).waitFor();
    assert.equal(await view.locator('[data-conflicts]').getAttribute('data-conflicts'), 'content');

    await view.locator('[data-action="cancel-accept"]').click();
    await view.waitFor({ state: 'detached' });
    assert.equal(await item.getAttribute('data-state'), 'pending');
    assert.equal(await content(), 'The tower was rebuilt in stone.', 'Cancel writes nothing');

    // Accept again; the entry changes once more while the three versions are shown: Accept anyway shows the new one.
    await item.locator('[data-action="accept"]').click();
    await view.waitFor();
    await slash(page, `/setentryfield file="${book}" uid=${uid} field=content The tower is a ruin now.`);
    await view.locator('[data-action="accept-anyway"]').click();
    await view.locator('[data-part="since-start"] ins', { hasText: 'The tower is a ruin now.' }).waitFor();
    assert.equal(await content(), 'The tower is a ruin now.', 'not written over a version the user did not see');
    assert.equal(await item.getAttribute('data-state'), 'pending');

    await view.locator('[data-action="accept-anyway"]').click();
    await page.locator('.tavern-agent__lore-proposal[data-state="accepted"]', { hasText: 'The storm broke it.' }).waitFor();
    assert.equal(await content(), 'The tower fell in the storm.', 'written in place, into the same entry');
});

test('two tabs accepting the same proposal: one writes it to the lorebook, exactly once; the other says so and writes nothing', async () => {
    // Tab A takes the last test's page again; tab B is opened beside it, in its context, and closed at the end.
    const a = await openAgentChat(session, { reuse: true });
    const { book } = await chatBookWith(a, []);
    session.mock.enqueue(
        calls(
            call('worldinfo_propose', { title: 'Harbour', keys: ['harbour'], content: 'Ships crowd the harbour.' }),
            call('worldinfo_propose', { title: 'Lighthouse', keys: ['lighthouse'], content: 'The lighthouse is dark.' }),
        ),
        ...finishTurns('We reach the harbour.'),
    );
    await sendMessage(a, 'We reach the harbour.');
    await runEnded(a);
    const chatId = await a.evaluate(() => SillyTavern!.getContext().chatId);

    // Tab B: the same browser (the same IndexedDB), the same chat, its panel open.
    const b = await a.context().newPage();
    await b.goto(session.st.url, { waitUntil: 'domcontentloaded' });
    await waitForSillyTavernReady(b);
    await waitForExtension(b);
    await openCharacter(b);
    await b.waitForFunction((id) => SillyTavern!.getContext().chatId === id, chatId);
    await b.click('#tavern_agent_button .drawer-icon');

    // Every save of the chat's lorebook, from either tab.
    const writes: string[] = [];
    const watchers = ([['A', a], ['B', b]] as const).map(([tab, page]) => {
        const watch = (request: Request) => {
            if (request.method() === 'POST' && request.url().endsWith('/api/worldinfo/edit') && (JSON.parse(request.postData() ?? '{}') as { name?: string }).name === book) writes.push(tab);
        };
        page.on('request', watch);
        return () => page.off('request', watch);
    });
    const item = (page: Page, title: string) => page.locator('.tavern-agent__lore-proposal', { hasText: title });
    for (const page of [a, b]) await item(page, 'Lighthouse').locator('[data-action="accept"]').waitFor();

    // A's write is slow: B accepts while A holds the proposal.
    let releaseA!: () => void;
    const held = new Promise<void>((resolve) => (releaseA = resolve));
    await a.route('**/api/worldinfo/edit', async (route) => {
        await held;
        await route.continue();
    });
    await item(a, 'Harbour').locator('[data-action="accept"]').click();
    await a.waitForFunction(() => document.querySelector('.tavern-agent__lore-proposal [data-action="accept"][disabled]') !== null);
    for (let i = 0; i < 100 && writes.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.deepEqual(writes, ['A'], "A's write is on its way");
    await item(b, 'Harbour').locator('[data-action="accept"]').click();
    await item(b, 'Harbour').locator('[role="alert"]', { hasText: 'lore.proposal_busy' }).waitFor();
    assert.match(await item(b, 'Harbour').locator('[role="alert"]').innerText(), /Another tab is answering this lore proposal right now\. Nothing was written here\./);
    releaseA();
    await a.locator('.tavern-agent__lore-proposal[data-state="accepted"]', { hasText: 'Harbour' }).waitFor();
    await a.unroute('**/api/worldinfo/edit');
    // B tries again after A's decision: told it was answered, and shows it accepted.
    await item(b, 'Harbour').locator('[data-action="accept"]').click();
    await b.locator('.tavern-agent__lore-proposal[data-state="accepted"]', { hasText: 'Harbour' }).waitFor();
    assert.match(await item(b, 'Harbour').locator('[role="alert"]').innerText(), /lore\.already_decided/);

    // Both tabs at the same moment.
    await Promise.all([item(a, 'Lighthouse').locator('[data-action="accept"]').click(), item(b, 'Lighthouse').locator('[data-action="accept"]').click()]);
    await a.waitForFunction(() => [...document.querySelectorAll('.tavern-agent__lore-proposal')].some((e) => e.textContent!.includes('Lighthouse') && (e.getAttribute('data-state') === 'accepted' || e.querySelector('[role="alert"]'))));
    await b.waitForFunction(() => [...document.querySelectorAll('.tavern-agent__lore-proposal')].some((e) => e.textContent!.includes('Lighthouse') && (e.getAttribute('data-state') === 'accepted' || e.querySelector('[role="alert"]'))));
    const refused = (await Promise.all([a, b].map((page) => item(page, 'Lighthouse').locator('[role="alert"]').count()))).reduce((x, y) => x + y, 0);
    assert.equal(refused, 1, 'one tab was refused');

    assert.equal(writes.length, 2, `one lorebook write per proposal (${writes.join(', ')})`);
    // On the server, each once: neither tab's write undid the other's (each wrote the book as the server had it).
    const onDisk = JSON.parse(readFileSync(path.join(session.st.userDir, 'worlds', `${book}.json`), 'utf8')) as { entries: Record<string, { comment: string }> };
    assert.deepEqual(Object.values(onDisk.entries).map((entry) => entry.comment).sort(), ['Harbour', 'Lighthouse']);
    const decisions = await a.evaluate(async () => {
        const runs = await globalThis.TavernAgent!.runs();
        const events = await globalThis.TavernAgent!.events(runs.at(-1)!.runId);
        return events.filter((event) => event.type === 'lore-decide').length;
    });
    assert.equal(decisions, 2, 'one decision per proposal in the journal');
    // Tab A stays for a later test: its listener goes, and tab B closes.
    for (const stop of watchers) stop();
    await b.close();
});
