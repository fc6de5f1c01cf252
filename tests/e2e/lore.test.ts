// Lore the agent can look up and propose (issue 19): worldinfo.search / worldinfo.read over the chat's
// lorebooks, and lore edits the user reviews in the panel, in a real SillyTavern.
// Run: npm test -- tests/e2e/lore.test.ts
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { sendMessage } from '../harness/browser';
import { call, calls, openAgentChat, toolMessages } from '../harness/agent';
import { slash, startTavernSession, type TavernSession } from '../harness/tavern';

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

test('worldinfo.search finds lore not activated this turn by content and key, marks the activated, never a disabled entry; worldinfo.read reads it; Chinese works', async () => {
    const page = await openAgentChat(session, { panel: false });
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
    await page.context().close();
});

test('lore proposals: nothing changes until Accept; Accept writes the chat lorebook (created and bound), Discard writes nothing; the next run sees the entry', async () => {
    const page = await openAgentChat(session);
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
    await page.context().close();
});

test('proposals show while the run works, and a decision made then is journaled in the live run', async () => {
    const page = await openAgentChat(session);
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
    await page.context().close();
});
