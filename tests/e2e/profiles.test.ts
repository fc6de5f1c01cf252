import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { sendMessage } from '../harness/browser';
import { call, calls, openAgentChat, chatLines, offeredTools, toolMessages } from '../harness/agent';
import { slash, startTavernSession, type TavernSession } from '../harness/tavern';
import { startMockModel, type MockModel } from '../harness/mock-model';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';

let session: TavernSession;
let secondModel: MockModel;
let page: Page;

before(async () => {
    session = await startTavernSession();
    secondModel = await startMockModel();
});

after(async () => {
    await session?.close();
    await secondModel?.close();
});

beforeEach(async () => {
    page = await openAgentChat(session, { panel: false, reuse: true });
    secondModel.reset();
});

/** Stores profiles the way the panel does (SillyTavern extension settings) and picks one for this chat. */
async function useProfile(profile: Profile): Promise<void> {
    await page.evaluate((p) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles: Record<string, unknown> }>;
        settings.tavern_agent = { profiles: { ...(settings.tavern_agent?.profiles ?? {}), [p.id]: p } };
    }, profile);
    const status = JSON.parse(await slash(page, `/agent profile ${profile.id}`)) as { profileId: string };
    assert.equal(status.profileId, profile.id);
}

const finish = [calls(call('workspace_write_file', { path: 'output/main.md', content: 'Done.' }), call('workspace_commit', {}), call('workspace_finish', {}))];

test('a profile denying workspace.search_files hides it from the model, and a forced call is rejected', async () => {
    await useProfile({ ...WRITER_PROFILE, id: 'no-search', displayName: 'No search', tools: { ...WRITER_PROFILE.tools, deny: ['workspace.search_files'] } });
    session.mock.enqueue(calls(call('workspace_search_files', { query: 'x' })), ...finish);
    await sendMessage(page, 'Search for something.');
    const [first, second] = session.mock.generations();
    assert.ok(!offeredTools(first!).includes('workspace_search_files'));
    assert.ok(offeredTools(first!).includes('workspace_read_file'));
    assert.match(toolMessages(second!)[0]!.content, /^ERROR tool\.not_allowed:/);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Done.');
});

test('maxCallsPerTool of 2 stops the third call, and the run goes on', async () => {
    await useProfile({ ...WRITER_PROFILE, id: 'two-lists', displayName: 'Two lists', tools: { ...WRITER_PROFILE.tools, maxCallsPerTool: { 'workspace.list_files': 2 } } });
    session.mock.enqueue(calls(call('workspace_list_files', {}), call('workspace_list_files', {}), call('workspace_list_files', {})), ...finish);
    await sendMessage(page, 'List three times.');
    const shown = toolMessages(session.mock.generations()[1]!);
    assert.doesNotMatch(shown[0]!.content, /^ERROR/);
    assert.doesNotMatch(shown[1]!.content, /^ERROR/);
    assert.match(shown[2]!.content, /^ERROR tool\.budget_exhausted:/);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Done.');
});

test('a game-master run rolls 3d6+4 and commits the result', async () => {
    assert.equal(JSON.parse(await slash(page, '/agent profile game-master')).profileId, 'game-master');
    session.mock.enqueue(calls(call('dice_roll', { formula: '3d6+4' }), call('dice_roll', { formula: '3d6+40000000' })), ...finish);
    await sendMessage(page, 'I swing my sword!');
    assert.ok(offeredTools(session.mock.generations()[0]!).includes('dice_roll'));
    const [roll, invalid] = toolMessages(session.mock.generations()[1]!).map((m) => m.content);
    const match = /Rolled 3d6\+4: (\d) \+ (\d) \+ (\d) \+ 4 = (\d+)/.exec(roll!);
    assert.ok(match, roll);
    const [a, b, c, total] = match!.slice(1).map(Number) as [number, number, number, number];
    assert.equal(total, a + b + c + 4);
    assert.ok(total >= 7 && total <= 22);
    assert.match(invalid!, /^ERROR dice\.invalid_formula:/);
});

test('a profile bound to a Connection Manager profile sends its requests to that model; a missing one fails clearly', async () => {
    await page.evaluate((url) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, any>; // SillyTavern's settings object is untyped
        settings.connectionManager.profiles.push({ id: 'cm-second', name: 'Second model', mode: 'cc', api: 'custom', model: 'second-model', 'api-url': url });
    }, secondModel.openaiBaseUrl);
    await useProfile({ ...WRITER_PROFILE, id: 'bound', displayName: 'Bound', model: { mode: 'connection-profile', profileId: 'cm-second', profileName: 'Second model' } });
    secondModel.enqueue(...finish);
    await sendMessage(page, 'Use the other model.');
    assert.equal(session.mock.generations().length, 0, 'the current connection was not used');
    const requests = secondModel.generations();
    assert.equal(requests.length, 1);
    assert.equal((requests[0]!.body as { model: string }).model, 'second-model');
    assert.ok(offeredTools(requests[0]!).includes('workspace_commit'));
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Done.');

    // The connection profile is deleted: the run fails with a clear message, and no other model is used.
    await page.evaluate(() => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, any>; // as above
        settings.connectionManager.profiles = settings.connectionManager.profiles.filter((p: { id: string }) => p.id !== 'cm-second');
    });
    const before = (await chatLines(page)).length;
    await sendMessage(page, 'Again, please.');
    await page.locator('#toast-container .toast-error', { hasText: 'Second model' }).waitFor();
    assert.equal(session.mock.generations().length, 0);
    assert.equal(secondModel.generations().length, 1);
    assert.equal((await chatLines(page)).length, before + 1, 'only the user message');
});
