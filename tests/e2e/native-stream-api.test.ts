import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import { sendMessage } from '../harness/browser';
import { call, calls, chatLines, openAgentChat, restoreSettingsAfter } from '../harness/agent';
import { startMockModel, type MockModel } from '../harness/mock-model';
import { startMockTextCompletion, type MockTextCompletion } from '../harness/mock-text-completion';
import { slash, startTavernSession, type TavernSession } from '../harness/tavern';

/**
 * Issue 15's remainder: streaming through a Connection Manager profile (partial text live, the reply
 * committed once the stream ends, Stop aborting it), `TavernAgent.runs({chatId})` for a chat that is not
 * open, and the toast an extension-tool approval shows while the panel is closed.
 */

let session: TavernSession;
let secondModel: MockModel;
let textModel: MockTextCompletion;

before(async () => {
    session = await startTavernSession();
    secondModel = await startMockModel();
    textModel = await startMockTextCompletion();
});

after(async () => {
    await session?.close();
    await secondModel?.close();
    await textModel?.close();
});

/** Stores profiles the way the panel does (SillyTavern extension settings) and picks one for this chat. */
async function useProfile(page: Page, profile: Profile): Promise<void> {
    await page.evaluate((p) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles: Record<string, unknown> }>;
        settings.tavern_agent = { profiles: { ...(settings.tavern_agent?.profiles ?? {}), [p.id]: p } };
    }, profile);
    const status = JSON.parse(await slash(page, `/agent profile ${profile.id}`)) as { profileId: string };
    assert.equal(status.profileId, profile.id);
}

/*
 * Every test takes the last test's page again (a page load is seconds of CPU): each keeps to its own chat, and
 * puts back what it changes page-wide when it ends (restoreSettingsAfter for the agent and Connection Manager
 * profiles; the Streaming settings and a registered tool by hand).
 */

/** Puts back, when the test ends, a setting outside the extension settings (a page that is gone has none). */
function undoAfter(t: TestContext, undo: () => Promise<unknown>): void {
    t.after(() => undo().catch(() => undefined));
}

/** A chat whose agent profile routes to a Connection Manager profile on the second mock, with Streaming on. */
async function openStreamingProfileChat(t: TestContext): Promise<Page> {
    const page = await openAgentChat(session, { reuse: true });
    await restoreSettingsAfter(t, page);
    await restoreSettingsAfter(t, page, { key: 'connectionManager' });
    secondModel.reset();
    await page.evaluate((url) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, any>; // SillyTavern's settings object is untyped
        settings.connectionManager.profiles = settings.connectionManager.profiles.filter((p: { id: string }) => p.id !== 'cm-stream');
        settings.connectionManager.profiles.push({ id: 'cm-stream', name: 'Streaming model', mode: 'cc', api: 'custom', model: 'stream-model', 'api-url': url });
    }, secondModel.openaiBaseUrl);
    // The profile names no preset: the user's Streaming setting decides, as when switching to it in SillyTavern.
    const streamingBefore = await setStreaming(page, true);
    undoAfter(t, () => setStreaming(page, streamingBefore));
    await useProfile(page, { ...WRITER_PROFILE, id: 'streamed', displayName: 'Streamed', model: { mode: 'connection-profile', profileId: 'cm-stream', profileName: 'Streaming model' } });
    return page;
}

/** Sets the user's Streaming setting (Chat Completion) as its checkbox does; what it was. */
async function setStreaming(page: Page, on: boolean): Promise<boolean> {
    return page.evaluate((checked) => {
        const toggle = document.querySelector<HTMLInputElement>('#stream_toggle')!;
        const was = toggle.checked;
        toggle.checked = checked;
        toggle.dispatchEvent(new Event('change', { bubbles: true }));
        return was;
    }, on);
}

const THOUGHT = 'Listening to the wind in the old oaks of the glade…';
const REPLY = 'The glade is quiet tonight; the oaks whisper.';

test('through a Connection Manager profile that streams, the timeline shows the answer as it arrives and the reply commits', async (t) => {
    const page = await openStreamingProfileChat(t);
    secondModel.enqueue(
        { text: THOUGHT, toolCalls: [call('workspace_write_file', { path: 'output/main.md', content: REPLY })], streamHoldAfter: 4 },
        calls(call('workspace_commit', {}), call('workspace_finish', {})),
    );
    const before = await chatLines(page);
    const sent = sendMessage(page, 'How is the glade?');
    const partial = page.locator('[data-testid="streaming-text"]');
    await partial.waitFor({ timeout: 120_000 });
    const shown = await partial.innerText();
    const [first] = secondModel.generations();
    assert.equal(first!.body.stream, true, 'the call went out as a stream');
    assert.equal(first!.body.model, 'stream-model', "the connection profile's model");
    assert.equal(first!.endedAt, undefined, 'the call has not ended');
    assert.ok(shown.length > 0 && THOUGHT.startsWith(shown) && shown.length < THOUGHT.length, `partial text: ${shown}`);

    secondModel.releaseStreams();
    await sent;
    const lines = await chatLines(page);
    assert.equal(lines.length, before.length + 2);
    assert.equal(lines.at(-1)!.mes, REPLY, 'the tool ran on the complete arguments; the reply committed');
    assert.equal(session.mock.generations().length, 0, 'the current connection was not used');
    assert.equal(await page.locator('[data-testid="streaming-turn"]').count(), 0, 'the transient turn gave way to the journaled one');
    const events = await page.evaluate((id) => globalThis.TavernAgent!.events(id), lines.at(-1)!.runId!);
    const responses = events.filter((e) => e.type === 'model-response');
    assert.equal(responses.length, 2, 'one journal record per model turn, not per piece');
    assert.equal((responses[0]!.payload as { text: string }).text, THOUGHT);
});

test('Stop mid-stream through a Connection Manager profile aborts the call; nothing is committed', async (t) => {
    const page = await openStreamingProfileChat(t);
    secondModel.enqueue({ text: 'Half a thought that never ends', toolCalls: [call('workspace_write_file', { path: 'output/main.md', content: 'Never shown.' })], streamHoldAfter: 3 });
    const before = await chatLines(page);
    await page.fill('#send_textarea', 'Take your time.');
    await page.click('#send_but');
    await page.locator('[data-testid="streaming-text"]').waitFor({ timeout: 120_000 });
    await page.click('#mes_stop');
    await page.waitForFunction(() => document.querySelector('.tavern-agent__run')?.getAttribute('data-run-state') === 'cancelled', undefined, { timeout: 30_000 });
    await page.waitForFunction(() => document.body.dataset.generating === undefined);
    const [streamed] = secondModel.generations();
    await secondModel.waitUntil(() => streamed!.aborted === true, 'the stream in flight to be aborted');
    assert.equal((await chatLines(page)).length, before.length + 1, 'only the user message was added');
});

test('through a Text Completion connection profile that streams, the narration shows as it arrives and the call runs on the whole text', async (t) => {
    const page = await openAgentChat(session, { reuse: true });
    await restoreSettingsAfter(t, page);
    await restoreSettingsAfter(t, page, { key: 'connectionManager' });
    const textStreamingBefore = await page.evaluate((url) => {
        const context = SillyTavern!.getContext() as unknown as { extensionSettings: Record<string, any>; textCompletionSettings: Record<string, unknown> }; // untyped settings
        context.extensionSettings.connectionManager.profiles.push({ id: 'tc-stream', name: 'Local text', api: 'generic', 'api-url': url });
        const was = context.textCompletionSettings.streaming;
        context.textCompletionSettings.streaming = true; // no preset on the profile: the user's setting decides
        return was;
    }, textModel.url);
    undoAfter(t, () =>
        page.evaluate((was) => {
            (SillyTavern!.getContext() as unknown as { textCompletionSettings: Record<string, unknown> }).textCompletionSettings.streaming = was;
        }, textStreamingBefore),
    );
    await useProfile(page, { ...WRITER_PROFILE, id: 'text-streamed', displayName: 'Text streamed', model: { mode: 'connection-profile', profileId: 'tc-stream', profileName: 'Local text' } });
    const toolCall = (name: string, args: unknown) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;
    const narration = 'Listening to the glade for a while before writing it down.';
    textModel.holdStreamAfter(4);
    textModel.enqueue(`${narration}\n${toolCall('workspace_write_file', { path: 'output/main.md', content: 'Streamed through the profile.' })}`, `${toolCall('workspace_commit', {})}\n${toolCall('workspace_finish', {})}`);
    const sent = sendMessage(page, 'Stream it through the profile.');
    const partial = page.locator('[data-testid="streaming-text"]');
    await partial.waitFor({ timeout: 120_000 });
    const shown = await partial.innerText();
    assert.ok(shown.length > 0 && narration.startsWith(shown) && shown.length < narration.length, `partial text: ${shown}`);
    textModel.releaseStreams();
    await sent;
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Streamed through the profile.');
    const requests = textModel.generations();
    assert.equal(requests.length, 2);
    assert.ok(requests.every((r) => r.path === '/v1/completions' && r.body.stream === true), 'both calls streamed');
    assert.equal(session.mock.generations().length, 0, 'the current connection was not used');
});

test('runs({chatId}) lists the runs of a chat that is no longer open; runs() is the open chat', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'output/main.md', content: 'In chat A.' }), call('workspace_commit', {}), call('workspace_finish', {})));
    await sendMessage(page, 'Hello from chat A.');
    const runId = (await chatLines(page)).at(-1)!.runId!;
    const chatA = await page.evaluate(() => globalThis.TavernAgent!.status().chatId!);
    const inA = await page.evaluate(() => globalThis.TavernAgent!.runs());
    assert.deepEqual(inA.map((r) => [r.runId, r.chatId, r.state, r.profileId]), [[runId, chatA, 'completed', 'writer']]);

    await slash(page, '/newchat');
    await page.waitForFunction((a) => globalThis.TavernAgent!.status().chatId !== a, chatA);
    const chatB = await page.evaluate(() => globalThis.TavernAgent!.status().chatId!);
    const listed = await page.evaluate((a) => globalThis.TavernAgent!.runs({ chatId: a }), chatA);
    assert.deepEqual(listed, inA, "chat A's run, from storage, while chat B is open");
    assert.equal(typeof listed[0]!.createdAt, 'number');
    assert.deepEqual(await page.evaluate(() => globalThis.TavernAgent!.runs()), [], 'runs() is the open chat: B has none');
    assert.deepEqual(await page.evaluate((b) => globalThis.TavernAgent!.runs({ chatId: b }), chatB), []);
});

test('an extension-tool approval with the panel closed also shows a toast that opens the panel; the answer stays in the timeline', async (t) => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await restoreSettingsAfter(t, page);
    // A test after this one on the same page would be offered the tool: it goes when this one ends.
    undoAfter(t, () =>
        page.evaluate(`(() => {
            SillyTavern.getContext().unregisterFunctionTool('GetWeather');
            delete globalThis.weatherCalls;
        })()`),
    );
    await page.evaluate(`(() => {
        const calls = [];
        globalThis.weatherCalls = calls;
        SillyTavern.getContext().registerFunctionTool({
            name: 'GetWeather',
            description: 'The weather in a city.',
            parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
            action: async (args) => { calls.push(args); return 'Sunny in ' + args.city; },
        });
    })()`);
    await useProfile(page, { ...WRITER_PROFILE, id: 'asking', displayName: 'Asking', tools: { ...WRITER_PROFILE.tools, allow: [...WRITER_PROFILE.tools.allow, 'ext.*'] }, extTools: { askBeforeCall: true } });
    session.mock.enqueue(calls(call('ext_GetWeather', { city: 'Oslo' })), calls(call('workspace_write_file', { path: 'output/main.md', content: 'Done.' }), call('workspace_commit', {}), call('workspace_finish', {})));
    const sent = sendMessage(page, 'Weather in Oslo?');
    const toast = page.locator('#toast-container .toast-info', { hasText: 'ext.GetWeather' });
    await toast.waitFor({ timeout: 120_000 });
    assert.match(await toast.innerText(), /Open the Tavern Agent panel/);
    await toast.click();
    const approval = page.locator('[data-testid="ext-tool-approval"]');
    await approval.waitFor();
    assert.equal(await approval.getAttribute('data-tool'), 'ext.GetWeather');
    await page.click('[data-testid="ext-tool-approve"]');
    await sent;
    assert.deepEqual(await page.evaluate(() => (globalThis as Record<string, unknown>).weatherCalls), [{ city: 'Oslo' }]);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Done.');
    await page.locator('#toast-container .toast-info', { hasText: 'ext.GetWeather' }).waitFor({ state: 'detached' });
});
