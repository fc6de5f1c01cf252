import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { strToU8, zipSync } from 'fflate';
import type { Page, Worker } from 'playwright-core';
import { openCharacter, sendMessage } from '../harness/browser';
import { agentOn, call, calls, openAgentChat, toolMessages } from '../harness/agent';
import { slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';
import { base64, skillIndex, skillMd, skillsCall } from '../fixtures/skill-files';
import { cardJson, importCard, OFFER, offered } from '../fixtures/cards';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const CARD_LORE = skillMd('card-lore', 'What Mira knows about the sunken city.', '# Sunken city\n\nThe bells still ring under the water at midnight.');
const CARD_MAP = skillMd('card-map', 'Roads around the sunken city.', '# Map\n\nSee references/roads.md.');
const ROADS = 'The causeway floods at high tide.\nThe cliff path is safe but slow.';

/** TauriTavern's payload with both bundle formats: files inline, and a base64 zip of the skill's files. */
function tauriPayload(lore = CARD_LORE) {
    const zip = zipSync({ 'SKILL.md': strToU8(CARD_MAP), 'references/roads.md': strToU8(ROADS) });
    return {
        version: 1,
        items: [
            {
                bundleFormat: 'inline-files-v1',
                skillName: 'card-lore',
                files: [{ path: 'SKILL.md', encoding: 'utf8', content: lore }],
                source: { kind: 'character', id: 'mira', label: 'Mira' },
            },
            {
                bundleFormat: 'ttskill-archive-base64-v1',
                skillName: 'card-map',
                fileName: 'card-map.zip',
                contentBase64: base64(zip),
                sourceScope: { kind: 'character', characterId: 'mira' },
                sourceScopeLabel: 'Mira',
            },
        ],
    };
}

async function visibleSkills(page: Page): Promise<string> {
    return slash(page, '/agent skills');
}

// The first two tests keep pages of their own: a page offers a payload once a session, and both cards carry the
// same one. The tests after them take the last test's page again, each in a new chat of its own.

test('a card with TauriTavern skills in both formats is offered once, installs character-scoped, and is visible only in its chats', async () => {
    const { page } = await session.open();
    await waitForExtension(page);
    const avatar = await importCard(page, cardJson('Mira', tauriPayload()));
    await openCharacter(page, avatar);
    assert.equal(await offered(page), true);
    const popup = page.locator(OFFER);
    const text = await popup.innerText();
    assert.match(text, /card-lore/);
    assert.match(text, /What Mira knows about the sunken city\./);
    assert.match(text, /card-map/);
    assert.match(text, /2 files/);
    await popup.locator('.popup-button-ok').click();
    await page.waitForFunction(
        (av) => {
            const settings = SillyTavern!.getContext().extensionSettings as Record<string, { index?: Array<{ name: string; scope: unknown }> } | undefined>;
            const index = settings.tavern_agent_skills?.index ?? [];
            return ['card-lore', 'card-map'].every((name) => index.some((line) => line.name === name && JSON.stringify(line.scope) === JSON.stringify({ character: av })));
        },
        avatar,
        { timeout: 20_000 },
    );
    const lines = await skillIndex(page);
    assert.ok(lines.filter((line) => line.name.startsWith('card-')).every((line) => line.source?.kind === 'card' && line.source.payloadHash));
    assert.match(await visibleSkills(page), /card-lore — What Mira knows/);
    assert.match(await visibleSkills(page), /card-map — Roads around/);

    // The archive-format skill is readable by a run in Mira's chat.
    await agentOn(page);
    session.mock.reset();
    session.mock.enqueue(
        calls(call('skill_read', { name: 'card-map', path: 'references/roads.md' }), call('skill_read', { name: 'card-lore' })),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'The causeway floods.' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Which road is safe?');
    const [roads, lore] = toolMessages(session.mock.generations()[1]!).map((m) => m.content);
    assert.match(roads!, /The causeway floods at high tide\./);
    assert.match(lore!, /The bells still ring/);

    // Another character's chat does not see them.
    await openCharacter(page, 'default_Seraphina.png');
    assert.equal(await offered(page), false);
    assert.doesNotMatch(await visibleSkills(page), /card-lore|card-map/);

    // Back in Mira's chat: installed and unchanged, so not offered again.
    await openCharacter(page, avatar);
    assert.equal(await offered(page), false);
    assert.match(await visibleSkills(page), /card-lore/);

    // Deleting the card removes the skills only it brought.
    await page.evaluate(async (av) => {
        const script = (await import(/* webpackIgnore: true */ '/script.js' as string)) as { deleteCharacter(key: string): Promise<boolean> };
        await script.deleteCharacter(av);
    }, avatar);
    await page.waitForFunction(() => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { index?: Array<{ name: string }> } | undefined>;
        return !(settings.tavern_agent_skills?.index ?? []).some((line) => line.name.startsWith('card-'));
    }, undefined, { timeout: 20_000 });
    await closePage(page);
});

test('"Not now" is remembered for the same payload, on any browser; a changed payload is offered again', async () => {
    const { page } = await session.open();
    await waitForExtension(page);
    const avatar = await importCard(page, cardJson('Nox', tauriPayload()));
    await openCharacter(page, avatar);
    assert.equal(await offered(page), true);
    await page.locator(`${OFFER} .popup-button-cancel`).click();
    await page.waitForFunction(() => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { declined?: string[] } | undefined>;
        return (settings.tavern_agent_skills?.declined ?? []).length > 0;
    });
    assert.deepEqual((await skillIndex(page)).filter((line) => JSON.stringify(line.scope) === JSON.stringify({ character: avatar })), [], 'nothing installed');
    assert.doesNotMatch(await visibleSkills(page), /card-lore/);
    await closePage(page);

    // A fresh browser of the same user: the decline travelled with the user's settings. It is the page the
    // tests after this one take again (each opens a new chat of its own).
    const other = await openAgentChat(session, { reuse: true, panel: false });
    await openCharacter(other, avatar);
    assert.equal(await offered(other), false);

    // The card is updated (a new version of one skill): the changed payload asks again.
    await other.evaluate(async ({ av, skills }) => {
        const context = SillyTavern!.getContext() as unknown as {
            characters: Array<{ avatar: string; data?: { extensions?: Record<string, unknown> } }>;
            writeExtensionField(id: number, key: string, value: unknown): Promise<void>;
        };
        const id = context.characters.findIndex((c) => c.avatar === av);
        const existing = (context.characters[id]!.data?.extensions?.tauritavern ?? {}) as Record<string, unknown>;
        await context.writeExtensionField(id, 'tauritavern', { ...existing, skills });
    }, { av: avatar, skills: tauriPayload(skillMd('card-lore', 'What Mira knows about the sunken city.', 'Version two: the bells are silent now.')) });
    await openCharacter(other, 'default_Seraphina.png');
    assert.equal(await offered(other), false);
    await openCharacter(other, avatar);
    assert.equal(await offered(other), true);
    assert.match(await other.locator(OFFER).innerText(), /card-lore/);
    await other.locator(`${OFFER} .popup-button-ok`).click();
    await other.waitForFunction((av) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { index?: Array<{ name: string; scope: unknown }> } | undefined>;
        return (settings.tavern_agent_skills?.index ?? []).some((line) => line.name === 'card-lore' && JSON.stringify(line.scope) === JSON.stringify({ character: av }));
    }, avatar);
    assert.match(await visibleSkills(other), /card-lore — What Mira knows/);
    // The agent profiles the card carries survived our reads and writes of its `tauritavern` object.
    const kept = await other.evaluate((av) => {
        const context = SillyTavern!.getContext() as unknown as { characters: Array<{ avatar: string; data?: { extensions?: { tauritavern?: { agentProfiles?: unknown } } } }> };
        return context.characters.find((c) => c.avatar === av)?.data?.extensions?.tauritavern?.agentProfiles;
    }, avatar);
    assert.deepEqual(kept, { version: 1, items: [] });
});

test('the selected chat-completion preset\'s skills are offered and install into that preset\'s scope', async () => {
    // The last test's page, in a new chat of Seraphina's; its offer check is done before the preset changes.
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await offered(page);
    const preset = await page.evaluate(async (payload) => {
        const context = SillyTavern!.getContext() as unknown as {
            chatCompletionSettings: { preset_settings_openai: string };
            getPresetManager(api: string): { writePresetExtensionField(options: { name: string; path: string; value: unknown }): Promise<void> };
        };
        const name = context.chatCompletionSettings.preset_settings_openai;
        await context.getPresetManager('openai').writePresetExtensionField({ name, path: 'tauritavern.skills', value: payload });
        return name;
    }, { version: 1, items: [{ bundleFormat: 'inline-files-v1', files: [{ path: 'SKILL.md', encoding: 'utf-8', content: skillMd('preset-voice', 'The narrator voice this preset asks for.', 'Wry, brief, warm.') }] }] });
    // A chat opening is when the preset's skills are offered: Seraphina's is open already, so a new one of hers.
    await slash(page, '/newchat');
    assert.equal(await offered(page), true);
    assert.match(await page.locator(OFFER).innerText(), /preset-voice/);
    await page.locator(`${OFFER} .popup-button-ok`).click();
    await page.waitForFunction((name) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { index?: Array<{ name: string; scope: unknown }> } | undefined>;
        return (settings.tavern_agent_skills?.index ?? []).some((line) => line.name === 'preset-voice' && JSON.stringify(line.scope) === JSON.stringify({ preset: name }));
    }, preset);
    assert.match(await visibleSkills(page), /preset-voice — The narrator voice/);
});

/** Writes a skills payload into the selected chat-completion preset and says the preset changed, as selecting it does. */
async function presetPayload(page: Page, payload: unknown): Promise<void> {
    await page.evaluate(async (value) => {
        const context = SillyTavern!.getContext() as unknown as {
            chatCompletionSettings: { preset_settings_openai: string };
            getPresetManager(api: string): { writePresetExtensionField(options: { name: string; path: string; value: unknown }): Promise<void> };
            eventSource: { emit(event: string): Promise<void> };
            eventTypes: Record<string, string>;
        };
        await context.getPresetManager('openai').writePresetExtensionField({ name: context.chatCompletionSettings.preset_settings_openai, path: 'tauritavern.skills', value });
        await context.eventSource.emit(context.eventTypes.OAI_PRESET_CHANGED_AFTER!);
    }, payload);
}

/** A zip whose central directory declares `size` for `name` (what a card's scan reads; the data holds more). */
function lyingZip(files: Record<string, Uint8Array>, name: string, size: number): Uint8Array {
    const zip = zipSync(files);
    const view = new DataView(zip.buffer);
    for (let at = 0; at + 46 <= zip.length; at += 1) {
        if (view.getUint32(at, true) !== 0x02014b50) continue;
        const length = view.getUint16(at + 28, true);
        if (Buffer.from(zip.subarray(at + 46, at + 46 + length)).toString() === name) view.setUint32(at + 24, size, true);
    }
    return zip;
}

test('a hostile preset payload at the caps is read in a throwaway worker while a run goes on; over a cap it is refused with its code', async (t) => {
    const page = await openAgentChat(session, { reuse: true });
    // The new chat's offer check reads the preset (the last test's skills) in a reader of its own: done before
    // the readers are counted.
    await offered(page);
    const readers: Array<{ closed: boolean }> = [];
    const countReader = (worker: Worker) => {
        if (!worker.url().endsWith('/card-reader.js')) return;
        const reader = { closed: false };
        readers.push(reader);
        worker.on('close', () => (reader.closed = true));
    };
    page.on('worker', countReader);
    // The run's first model call is held until the payload was read (a timer lost that race on a loaded machine).
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    session.mock.enqueue({ ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'The lanterns stayed lit.' })), waitFor: held }, calls(call('workspace_commit', {}), call('workspace_finish', { reason: 'done' })));
    // A failure below must not leave the hostile preset in place for the tests after this one.
    t.after(() => {
        answer();
        // The next test takes this page again.
        page.off('worker', countReader);
        return presetPayload(page, null).catch(() => undefined);
    });
    await page.fill('#send_textarea', 'Keep the lanterns lit.');
    await page.click('#send_but');
    await page.locator('.tavern-agent__run[data-run-state="running"]').waitFor();

    // 64 skills, the cap: 62 small inline ones, one zip whose data.md lies about its size (1 MiB declared as
    // 10 bytes), and one zip of many small entries that compress past 100× together.
    const inline = Array.from({ length: 62 }, (_, i) => ({ bundleFormat: 'inline-files-v1', files: [{ path: 'SKILL.md', encoding: 'utf8', content: skillMd(`hostile-${i}`, `Hostile skill ${i}.`, 'Body.') }] }));
    const lying = lyingZip({ 'SKILL.md': strToU8(skillMd('hostile-liar', 'Its data lies about its size.', 'Body.')), 'data.md': new Uint8Array(1024 * 1024).fill(65) }, 'data.md', 10);
    const pieces = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`zeros/${i}.md`, new Uint8Array(60 * 1024)]));
    const bomb = zipSync({ 'SKILL.md': strToU8(skillMd('hostile-bomb', 'Many small pieces.', 'Body.')), ...pieces });
    const archive = (zip: Uint8Array, fileName: string) => ({ bundleFormat: 'ttskill-archive-base64-v1', fileName, contentBase64: base64(zip) });
    await presetPayload(page, { version: 1, items: [...inline, archive(lying, 'liar.zip'), archive(bomb, 'bomb.zip')] });

    const popup = page.locator(OFFER);
    await popup.waitFor({ timeout: 20_000 });
    const text = await popup.innerText();
    assert.match(text, /hostile-0/);
    assert.match(text, /hostile-61/);
    assert.match(text, /hostile-liar/, 'the scan reads the liar\'s name from SKILL.md without inflating data.md');
    assert.match(text, /bomb\.zip: is compressed \d+× over all its entries/, 'the bomb is refused in the popup, before Install');
    assert.equal(readers.length, 1, 'the payload went to a card reader of its own');
    assert.ok(readers[0]!.closed, 'and the reader was thrown away once it answered');
    assert.equal(await page.locator('.tavern-agent__run[data-run-state="running"]').count(), 1, 'the run is still working');
    answer();

    await popup.locator('.popup-button-ok').click();
    const failedToast = page.locator('#toast-container .toast-error', { hasText: 'liar.zip' });
    await failedToast.waitFor({ timeout: 30_000 });
    assert.match(await failedToast.innerText(), /data\.md.*does not match its declared size/s);
    await page.waitForFunction(() => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { index?: Array<{ name: string }> } | undefined>;
        return (settings.tavern_agent_skills?.index ?? []).filter((line) => line.name.startsWith('hostile-')).length === 62;
    });
    assert.equal(readers.length, 2, 'Install parsed the payload in a second, fresh reader');

    // The run was never cut: it commits its reply once the held call answers.
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor({ timeout: 30_000 });
    assert.equal(await page.evaluate(() => SillyTavern!.getContext().chat.at(-1)?.mes), 'The lanterns stayed lit.');

    // Over a cap (65 skills) the payload never leaves the page: a toast names the limit and its code.
    await presetPayload(page, { version: 1, items: [...inline, ...inline.slice(0, 3)] });
    const refused = page.locator('#toast-container .toast-warning', { hasText: 'skill.too_many_skills' });
    await refused.waitFor({ timeout: 20_000 });
    assert.match(await refused.innerText(), /65 items, over the limit of 64 skills a payload/);
    assert.equal(await page.locator(OFFER).count(), 0);
    await presetPayload(page, null);
});

test('a card skill named like your global one says it replaces yours in this character\'s chats, and installs beside it (issue 39 §9)', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    const mine = skillMd('voice-guide', 'My own narrator voice.', 'Short sentences.');
    await skillsCall(page, 'import', [{ name: 'SKILL.md', base64: base64(mine) }], { scope: 'global' });
    const theirs = { version: 1, items: [{ bundleFormat: 'inline-files-v1', files: [{ path: 'SKILL.md', encoding: 'utf8', content: skillMd('voice-guide', "The card's narrator voice.", 'Long, ornate sentences.') }] }] };
    const avatar = await importCard(page, cardJson('Orla', theirs));
    await openCharacter(page, avatar);
    assert.equal(await offered(page), true);
    const note = page.locator(`${OFFER} .tavern-agent-skill-offer__replaces`);
    assert.equal(await note.getAttribute('data-replaces'), 'global');
    assert.equal(
        (await note.innerText()).trim(),
        "⚠ Replaces your skill of the same name (global) in this character's chats. Yours stays installed and is used everywhere else.",
    );
    await page.locator(`${OFFER} .popup-button-ok`).click();
    await page.waitForFunction((av) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { index?: Array<{ name: string; scope: unknown }> } | undefined>;
        return (settings.tavern_agent_skills?.index ?? []).some((line) => line.name === 'voice-guide' && JSON.stringify(line.scope) === JSON.stringify({ character: av }));
    }, avatar);
    const lines = (await skillIndex(page)).filter((line) => line.name === 'voice-guide');
    assert.deepEqual(lines.map((line) => JSON.stringify(line.scope)).sort(), [JSON.stringify({ character: avatar }), JSON.stringify('global')].sort(), 'yours stays, the card\'s sits beside it');
});
