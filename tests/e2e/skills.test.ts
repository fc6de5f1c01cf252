import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { strToU8, unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { sendMessage } from '../harness/browser';
import { call, calls, chatLines, openAgentChat, restoreSettingsAfter, toolMessages } from '../harness/agent';
import { slash, startTavernSession, type TavernSession } from '../harness/tavern';
import type { RecordedRequest } from '../harness/mock-model';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import {
    base64,
    DICE_ETIQUETTE,
    hostileZips,
    LORE_KEEPER,
    PLACES,
    skillIndex,
    skillMd,
    skillsCall,
    twoSkillZip,
    zipOf,
    type IndexLine,
} from '../fixtures/skill-files';

interface Preview {
    name: string;
    description: string;
    files: number;
    bytes: number;
    conflict: string;
    warnings: string[];
    error?: string;
}
interface ImportResult {
    name: string;
    action: string;
    error?: string;
}
interface Listing {
    name: string;
    description: string;
    scope: unknown;
    files: string[];
}

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

const finish = [calls(call('workspace_write_file', { path: 'output/main.md', content: 'Done.' }), call('workspace_commit', {}), call('workspace_finish', {}))];

function list(page: Page): Promise<Listing[]> {
    return page.evaluate(() => globalThis.TavernAgent!.skills.list()) as Promise<Listing[]>;
}

function systemText(request: RecordedRequest): string {
    const messages = (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
    return messages
        .filter((m) => m.role === 'system')
        .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
        .join('\n');
}

/** Stores a profile the way the panel does (keeping the user's other settings) and picks it for this chat. */
async function useProfile(page: Page, profile: Profile): Promise<void> {
    await page.evaluate((p) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles?: Record<string, unknown> } | undefined>;
        settings.tavern_agent = { ...settings.tavern_agent, profiles: { ...(settings.tavern_agent?.profiles ?? {}), [p.id]: p } };
    }, profile);
    assert.equal(JSON.parse(await slash(page, `/agent profile ${profile.id}`)).profileId, profile.id);
}

/**
 * A new chat (Agent Mode on, no panel) on the page the last test used: a page load is seconds of CPU. Skills are
 * kept in the SillyTavern user's settings and files, so the tests of this file have always shared them, on
 * fresh pages too: each looks at what it installed, or installs what it needs.
 */
function openChat(): Promise<Page> {
    return openAgentChat(session, { reuse: true, panel: false });
}

function hashOf(lines: IndexLine[], name: string): string | undefined {
    return lines.find((line) => line.name === name && line.scope === 'global')?.hash;
}

test('a zip of two skills and a single SKILL.md import; a run lists, searches and reads them', async () => {
    // The first test: a fresh page, before any skill is installed.
    const page = await openChat();
    const previews = await skillsCall<Preview[]>(page, 'preview', [{ base64: base64(twoSkillZip()), name: 'skills.zip' }], { scope: 'global' });
    assert.deepEqual(previews.map((p) => [p.name, p.conflict, p.files]).sort(), [
        ['lore-keeper', 'new', 2],
        ['style-guide', 'new', 1],
    ]);
    assert.deepEqual(await list(page), [], 'a preview installs nothing');

    const zipped = await skillsCall<ImportResult[]>(page, 'import', [{ base64: base64(twoSkillZip()) }], { scope: 'global' });
    assert.deepEqual(zipped.map((r) => [r.name, r.action]).sort(), [
        ['lore-keeper', 'installed'],
        ['style-guide', 'installed'],
    ]);
    const single = await skillsCall<ImportResult[]>(page, 'import', [{ base64: base64(DICE_ETIQUETTE) }], { scope: 'global' });
    assert.deepEqual(single, [{ name: 'dice-etiquette', action: 'installed' }]);
    const listed = await list(page);
    assert.deepEqual(listed.map((s) => s.name).sort(), ['dice-etiquette', 'lore-keeper', 'style-guide']);
    assert.deepEqual(listed.find((s) => s.name === 'lore-keeper')!.files.sort(), ['SKILL.md', 'references/places.md']);
    assert.equal(listed.find((s) => s.name === 'lore-keeper')!.description, 'Keeps the places and people of the northern coast straight.');

    // The bundles live in the SillyTavern user's files on the server.
    for (const line of await skillIndex(page)) {
        assert.ok(existsSync(path.join(session.st.userDir, 'user', 'files', `tavern-agent-skill-${line.hash}.json`)), line.name);
    }
    assert.match(await slash(page, '/agent skills'), /^dice-etiquette — When to call for a roll.*\nlore-keeper — Keeps the places.*\nstyle-guide — House style/s);

    session.mock.enqueue(
        calls(
            call('skill_list', {}),
            call('skill_search', { name: 'lore-keeper', query: 'harbor' }),
            call('skill_read', { name: 'lore-keeper', path: 'references/places.md', start_line: 3, line_count: 2 }),
            call('skill_read', { name: 'dice-etiquette' }),
            call('skill_read', { name: 'no-such-skill' }),
            call('skill_read', { name: 'lore-keeper', path: 'references/missing.md' }),
        ),
        ...finish,
    );
    await sendMessage(page, 'Where do the smugglers land?');
    const [first, second] = session.mock.generations();
    const system = systemText(first!);
    assert.match(system, /lore-keeper/);
    assert.match(system, /Keeps the places and people of the northern coast straight\./);
    assert.match(system, /dice-etiquette/);
    assert.doesNotMatch(system, /Greyhaven/, 'the first turn lists names and descriptions, never bodies');

    const [listing, search, read, whole, missing, missingFile] = toolMessages(second!).map((m) => m.content);
    assert.match(listing!, /lore-keeper/);
    assert.match(listing!, /Keeps the places/);
    assert.match(listing!, /references\/places\.md/);
    assert.match(listing!, /style-guide/);
    assert.match(search!, /skills\/lore-keeper\/references\/places\.md#L\d+(-L\d+)?/);
    assert.match(search!, /Greyhaven: a harbor town/);
    assert.match(read!, /3\D+Greyhaven: a harbor town of slate roofs and gulls\./);
    assert.match(read!, /4\D+The Saltmarsh/);
    assert.doesNotMatch(read!, /Kestrel Point/, 'the line range was honoured');
    assert.match(read!, /skills\/lore-keeper\/references\/places\.md/);
    assert.match(whole!, /Roll only when failure is interesting\./);
    assert.match(missing!, /^ERROR skill\.not_found:/);
    assert.match(missingFile!, /^ERROR skill\.file_not_found:/);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Done.');
});

test('deny beats visible, the per-run read budget runs out, and line and char ranges cannot be mixed', async (t) => {
    const page = await openChat();
    await restoreSettingsAfter(t, page); // the next test takes this page: the profile made here goes
    if (!(await list(page)).some((s) => s.name === 'style-guide')) {
        await skillsCall(page, 'import', [{ base64: base64(twoSkillZip()), name: 'skills.zip' }], { scope: 'global' });
    }
    await useProfile(page, {
        ...WRITER_PROFILE,
        id: 'no-lore',
        displayName: 'No lore',
        skills: { visible: ['*'], deny: ['lore-keeper'], maxReadCharsPerCall: 20_000, maxReadCharsPerRun: 600 },
    });
    assert.doesNotMatch(await slash(page, '/agent skills'), /lore-keeper/);
    session.mock.enqueue(
        calls(
            call('skill_read', { name: 'lore-keeper' }),
            call('skill_read', { name: 'style-guide', start_line: 1, start_char: 5 }),
            call('skill_read', { name: 'style-guide', start_char: 0, max_chars: 600 }),
            call('skill_read', { name: 'style-guide', start_char: 600 }),
        ),
        ...finish,
    );
    await sendMessage(page, 'Check the style.');
    const system = systemText(session.mock.generations()[0]!);
    assert.doesNotMatch(system, /lore-keeper/, 'a denied skill is not listed to the model');
    const [denied, mixed, firstRead, exhausted] = toolMessages(session.mock.generations()[1]!).map((m) => m.content);
    assert.match(denied!, /^ERROR skill\.not_visible:/);
    assert.match(mixed!, /^ERROR skill\.mixed_range:/);
    assert.match(firstRead!, /Write in the past tense/);
    assert.match(exhausted!, /^ERROR skill\.read_budget_exhausted:/);
    await slash(page, '/agent profile writer');
});

test('hostile archives are refused, naming the entry, with nothing installed', async () => {
    const page = await openChat();
    const before = await skillIndex(page);
    for (const [kind, zip] of Object.entries(hostileZips())) {
        const previews = await skillsCall<Preview[]>(page, 'preview', [{ base64: base64(zip), name: `${kind}.zip` }], { scope: 'global' });
        assert.ok(previews.length > 0 && previews.every((p) => typeof p.error === 'string' && p.error.length > 0), `${kind}: ${JSON.stringify(previews)}`);
        const results = await skillsCall<ImportResult[]>(page, 'import', [{ base64: base64(zip), name: `${kind}.zip` }], { scope: 'global', conflict: 'replace' });
        assert.ok(results.every((r) => r.action === 'skipped' && r.error), `${kind}: ${JSON.stringify(results)}`);
        if (kind === 'dot-dot') assert.match(previews[0]!.error!, /\.\.\/x/);
        if (kind === 'absolute') assert.match(previews[0]!.error!, /\/etc\/hostile\.md/);
        if (kind === 'symlink') assert.match(previews[0]!.error!, /link\.md/);
        if (kind === 'bomb') assert.match(previews[0]!.error!, /zeros\.txt/);
        if (kind === 'too-many-files') assert.match(previews[0]!.error!, /1,?000|files/);
    }
    assert.deepEqual(await skillIndex(page), before);
    assert.ok(!(await list(page)).some((s) => s.name === 'hostile' || s.name === 'many'));
});

test('re-import: identical is same, changed is different and needs a choice, replace replaces', async () => {
    const page = await openChat();
    const v1 = skillMd('weather', 'Weather of the coast by season.', 'Autumn brings fog.');
    const v2 = skillMd('weather', 'Weather of the coast by season.', 'Autumn brings storms.');
    assert.deepEqual(await skillsCall(page, 'import', [{ base64: base64(v1), name: 'SKILL.md' }], { scope: 'global' }), [{ name: 'weather', action: 'installed' }]);
    const first = hashOf(await skillIndex(page), 'weather');
    assert.deepEqual((await skillsCall<Preview[]>(page, 'preview', [{ base64: base64(v1) }], { scope: 'global' })).map((p) => p.conflict), ['same']);
    assert.deepEqual(await skillsCall(page, 'import', [{ base64: base64(v1) }], { scope: 'global' }), [{ name: 'weather', action: 'same' }]);
    assert.deepEqual((await skillsCall<Preview[]>(page, 'preview', [{ base64: base64(v2) }], { scope: 'global' })).map((p) => p.conflict), ['different']);
    const [unchosen] = await skillsCall<ImportResult[]>(page, 'import', [{ base64: base64(v2) }], { scope: 'global' });
    assert.equal(unchosen!.action, 'skipped');
    assert.ok(unchosen!.error, 'a different skill with no choice says why it was not replaced');
    assert.equal(hashOf(await skillIndex(page), 'weather'), first);
    assert.deepEqual(await skillsCall(page, 'import', [{ base64: base64(v2) }], { scope: 'global', conflict: 'skip' }), [{ name: 'weather', action: 'skipped' }]);
    assert.deepEqual(await skillsCall(page, 'import', [{ base64: base64(v2) }], { scope: 'global', conflict: 'replace' }), [{ name: 'weather', action: 'replaced' }]);
    const second = hashOf(await skillIndex(page), 'weather');
    assert.ok(second && second !== first);
    assert.ok(!existsSync(path.join(session.st.userDir, 'user', 'files', `tavern-agent-skill-${first}.json`)), 'the replaced bundle left the server');
    // The same skill in another scope is a separate install: new there.
    assert.deepEqual((await skillsCall<Preview[]>(page, 'preview', [{ base64: base64(v2) }], { scope: { profile: 'writer' } })).map((p) => p.conflict), ['new']);
});

test('export → delete → re-import keeps the content hash; delete rejects when there is no such skill', async () => {
    const page = await openChat();
    if (!(await list(page)).some((s) => s.name === 'lore-keeper')) {
        await skillsCall(page, 'import', [{ base64: base64(twoSkillZip()) }], { scope: 'global' });
    }
    const hash = hashOf(await skillIndex(page), 'lore-keeper');
    const zip = await page.evaluate(async () => {
        const blob = await globalThis.TavernAgent!.skills.export(['lore-keeper'], { scope: 'global' });
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let text = '';
        for (const byte of bytes) text += String.fromCharCode(byte);
        return { type: blob.type, base64: btoa(text) };
    });
    const entries = unzipSync(Buffer.from(zip.base64, 'base64'));
    const places = Object.keys(entries).find((name) => name.endsWith('references/places.md'));
    assert.ok(places, `the zip holds the skill's files: ${Object.keys(entries).join(', ')}`);
    assert.equal(Buffer.from(entries[places]!).toString('utf8'), PLACES);
    await page.evaluate(() => globalThis.TavernAgent!.skills.delete('lore-keeper', { scope: 'global' }));
    assert.equal(hashOf(await skillIndex(page), 'lore-keeper'), undefined);
    await assert.rejects(page.evaluate(() => globalThis.TavernAgent!.skills.delete('lore-keeper', { scope: 'global' })), /lore-keeper/);
    assert.deepEqual(await skillsCall(page, 'import', [{ base64: zip.base64, name: 'lore-keeper.zip' }], { scope: 'global' }), [{ name: 'lore-keeper', action: 'installed' }]);
    assert.equal(hashOf(await skillIndex(page), 'lore-keeper'), hash);
    // A zip of a skill folder picked as files (webkitRelativePath) installs the same skill.
    const folder = [
        { base64: base64(LORE_KEEPER), name: 'SKILL.md', relativePath: 'lore-keeper/SKILL.md' },
        { base64: base64(PLACES), name: 'places.md', relativePath: 'lore-keeper/references/places.md' },
    ];
    assert.deepEqual((await skillsCall<Preview[]>(page, 'preview', folder, { scope: 'global' })).map((p) => [p.name, p.conflict]), [['lore-keeper', 'same']]);
});

test('a second browser of the same SillyTavern user (fresh IndexedDB) lists the same skills and a run there reads them', async () => {
    const first = await openChat();
    const unique = skillMd('second-device', 'Proves skills follow the user.', 'The password is heron.');
    await skillsCall(first, 'import', [{ base64: base64(zipOf({ 'second-device/SKILL.md': strToU8(unique) })) }], { scope: 'global' });
    const names = (await list(first)).map((s) => s.name).sort();

    // Without reuse: the page above is handed back and loaded again with its storage cleared, as a new browser.
    const page = await openAgentChat(session, { panel: false });
    assert.deepEqual((await list(page)).map((s) => s.name).sort(), names);
    session.mock.enqueue(calls(call('skill_read', { name: 'second-device' })), ...finish);
    await sendMessage(page, 'What is the password?');
    const [read] = toolMessages(session.mock.generations()[1]!).map((m) => m.content);
    assert.match(read!, /The password is heron\./);
    await closePage(page);
});
