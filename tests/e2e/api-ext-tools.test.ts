import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import { sendMessage } from '../harness/browser';
import { agentOn, call, calls, chatLines, offeredTools, openAgentChat, toolResults } from '../harness/agent';
import { slash, startTavernSession, type TavernSession } from '../harness/tavern';

let session: TavernSession;
let page: Page;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

beforeEach(async () => {
    page = await openAgentChat(session, { reuse: true });
    // Another extension's tools, registered the way extensions do: one offered, one whose shouldRegister says no.
    // As a string: the test's TypeScript transform would wrap these functions in a helper the page lacks.
    await page.evaluate(`(() => {
        const calls = [];
        globalThis.weatherCalls = calls;
        const context = SillyTavern.getContext();
        context.registerFunctionTool({
            name: 'GetWeather',
            displayName: 'Weather',
            description: 'The weather in a city.',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            action: async (args) => { calls.push(args); return 'Sunny in ' + args.city; },
        });
        context.registerFunctionTool({
            name: 'HiddenTool',
            description: 'Never offered.',
            parameters: { type: 'object', properties: {} },
            action: async () => 'hidden',
            shouldRegister: async () => false,
        });
    })()`);
});

async function useProfile(profile: Profile): Promise<void> {
    await page.evaluate((p) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles: Record<string, unknown> }>;
        settings.tavern_agent = { profiles: { ...(settings.tavern_agent?.profiles ?? {}), [p.id]: p } };
    }, profile);
    const status = JSON.parse(await slash(page, `/agent profile ${profile.id}`)) as { profileId: string };
    assert.equal(status.profileId, profile.id);
}

const withExt = (id: string, ask: boolean): Profile => ({
    ...WRITER_PROFILE,
    id,
    displayName: id,
    tools: { ...WRITER_PROFILE.tools, allow: [...WRITER_PROFILE.tools.allow, 'ext.*'] },
    extTools: { askBeforeCall: ask },
});

const finish = calls(call('workspace_write_file', { path: 'output/main.md', content: 'Done.' }), call('workspace_commit', {}), call('workspace_finish', {}));
const weatherCalls = () => page.evaluate(() => (globalThis as Record<string, unknown>).weatherCalls as Array<{ city: string }>);

test('the profile editor lists the registered tools that shouldRegister offers', async () => {
    await page.click('#tavern_agent_profiles > summary');
    const fields = page.locator('[data-testid="ext-tool-fields"]');
    await fields.locator('[data-ext-tool="GetWeather"]').waitFor();
    assert.equal(await fields.locator('[data-ext-tool="HiddenTool"]').count(), 0);
    assert.equal(await fields.locator('[data-ext-tool="GetWeather"] input').isChecked(), false, 'not allowed by default');
    assert.equal(await fields.locator('[data-testid="ext-tool-ask"]').isChecked(), true, 'asking before each call is the default');
});

test('an extension tool is not offered by default', async () => {
    session.mock.enqueue(finish);
    await sendMessage(page, 'Hello.');
    const [first] = session.mock.generations();
    assert.ok(!offeredTools(first!).some((name) => name.startsWith('ext_')), 'no ext tool without the profile naming it');
});

test('allowed, it is offered (shouldRegister respected), gets the arguments, and its result reaches the model, not the chat', async () => {
    await useProfile(withExt('weather-writer', false));
    session.mock.enqueue(calls(call('ext_GetWeather', { city: 'Paris' })), finish);
    const before = await chatLines(page);
    await sendMessage(page, 'What is the weather?');
    const [first, second] = session.mock.generations();
    assert.ok(offeredTools(first!).includes('ext_GetWeather'));
    assert.ok(!offeredTools(first!).includes('ext_HiddenTool'), 'shouldRegister said no');
    assert.deepEqual(await weatherCalls(), [{ city: 'Paris' }]);
    const result = toolResults(second!).find((r) => r.name === 'ext_GetWeather');
    assert.equal(result?.content, 'Sunny in Paris');
    const after = await chatLines(page);
    assert.equal(after.length, before.length + 2, 'the user message and one reply: no tool message');
    assert.equal(after.at(-1)!.mes, 'Done.');
});

test('with "ask before each call", Deny in the timeline answers tool.denied_by_user and the tool never runs', async () => {
    await useProfile(withExt('asking-writer', true));
    session.mock.enqueue(calls(call('ext_GetWeather', { city: 'Oslo' })), finish);
    const sent = sendMessage(page, 'Weather in Oslo?');
    const approval = page.locator('[data-testid="ext-tool-approval"]');
    await approval.waitFor({ timeout: 120_000 });
    assert.equal(await approval.getAttribute('data-tool'), 'ext.GetWeather');
    assert.match(await approval.locator('pre').innerText(), /Oslo/);
    await page.click('[data-testid="ext-tool-deny"]');
    await sent;
    const [, second] = session.mock.generations();
    assert.match(toolResults(second!).find((r) => r.name === 'ext_GetWeather')?.content ?? '', /tool\.denied_by_user/);
    assert.deepEqual(await weatherCalls(), []);
    assert.equal(await approval.count(), 0, 'the question is gone');
});

test("a call made after the user opened another chat does not run the tool (it acts on the open chat); the model is told why", async () => {
    await useProfile(withExt('weather-writer', false));
    // Chat B first, then back to chat A, where the run starts.
    const chatA = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    await slash(page, '/newchat');
    await page.waitForFunction((a) => SillyTavern!.getContext().getCurrentChatId() !== a, chatA);
    const chatB = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    await page.evaluate((a) => SillyTavern!.getContext().openCharacterChat(a), chatA);
    await page.waitForFunction((a) => SillyTavern!.getContext().getCurrentChatId() === a, chatA);
    await agentOn(page);

    session.mock.enqueue({ delayMs: 2_500, toolCalls: [call('ext_GetWeather', { city: 'Rome' })] }, finish);
    await page.fill('#send_textarea', 'Weather in Rome?');
    await page.click('#send_but');
    await session.mock.waitForGenerations(1, 15_000);
    // The model is still answering when the user opens chat B (SillyTavern does not block opening a past chat).
    await page.evaluate((b) => SillyTavern!.getContext().openCharacterChat(b), chatB);
    await page.waitForFunction((b) => SillyTavern!.getContext().getCurrentChatId() === b, chatB);
    await session.mock.waitForGenerations(2, 15_000);
    const [, second] = session.mock.generations();
    const result = toolResults(second!).find((r) => r.name === 'ext_GetWeather')?.content ?? '';
    assert.match(result, /tool\.execution_failed/);
    assert.match(result, /Another chat is open/);
    assert.deepEqual(await weatherCalls(), [], 'the tool never ran in chat B');
    // The run's commit then ends it (host.chat_changed), with nothing written into chat B.
    await page.waitForFunction(() => !globalThis.TavernAgent?.status().run, undefined, { timeout: 15_000 });
    assert.equal((await chatLines(page)).length, 1, 'chat B got nothing');
});
