// Long runs that stay cheap and visible (issue 38), in a real SillyTavern with the mock model.
import { closePage } from '../harness/recycled-pages';
import { after, before, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openCharacter, sendMessage, waitForSillyTavernReady } from '../harness/browser';
import { agentOn, call, calls, chatLines, openAgentChat, restoreSettingsAfter } from '../harness/agent';
import type { RecordedRequest } from '../harness/mock-model';
import { REPO_ROOT, slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';

const artifacts = path.join(REPO_ROOT, 'test-results');
let session: TavernSession;

before(async () => {
    mkdirSync(artifacts, { recursive: true });
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

/**
 * Stores a changed built-in writer for the page (as the profile editor saves it) until the test ends, when the
 * one before comes back: the next test takes this page again.
 */
async function useWriter(t: TestContext, page: Page, profile: Profile): Promise<void> {
    await restoreSettingsAfter(t, page);
    await page.evaluate((p) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles: Record<string, unknown> }>;
        settings.tavern_agent = { ...(settings.tavern_agent ?? {}), profiles: { ...(settings.tavern_agent?.profiles ?? {}), [p.id]: p } };
    }, profile);
}

function messagesOf(request: RecordedRequest): Array<{ role: string; content: unknown }> {
    return (request.body as { messages: Array<{ role: string; content: unknown }> }).messages;
}

const PLAN_1 = [
    { id: '1', text: 'Read what the user asked', status: 'doing' },
    { id: '2', text: 'Draft the reply', status: 'pending' },
];
const PLAN_2 = [
    { id: '1', text: 'Read what the user asked', status: 'done' },
    { id: '2', text: 'Draft the reply', status: 'doing' },
    { id: '3', text: 'Commit and finish', status: 'pending' },
];

test('plan.update twice: the panel shows the second plan, and the next request carries it', async () => {
    const page = await openAgentChat(session, { reuse: true });
    session.mock.enqueue(
        calls(call('plan_update', { items: PLAN_1 })),
        calls(call('plan_update', { items: PLAN_2 })),
        { delayMs: 1500, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'A plan, kept.' })) },
        calls(call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await page.fill('#send_textarea', 'Make a plan.');
    await page.click('#send_but');
    // Live: the checklist is there while the run still works (the third turn is slow).
    const plan = page.locator('[data-testid="run-plan"]');
    await plan.locator('[data-plan-id="3"][data-plan-status="pending"]').waitFor();
    assert.deepEqual(await plan.locator('[data-plan-id]').evaluateAll((items) => items.map((item) => `${item.getAttribute('data-plan-id')}:${item.getAttribute('data-plan-status')}`)), ['1:done', '2:doing', '3:pending']);
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor();
    const requests = session.mock.generations();
    assert.equal(requests.length, 4);
    const last = (request: RecordedRequest) => String(messagesOf(request).at(-1)?.content);
    assert.match(last(requests[1]!), /Your current plan[\s\S]*\[~\] 1\. Read what the user asked/);
    assert.match(last(requests[2]!), /\[x\] 1\. Read what the user asked[\s\S]*\[~\] 2\. Draft the reply[\s\S]*\[ \] 3\. Commit and finish/);
    assert.equal(messagesOf(requests[3]!).filter((m) => String(m.content).includes('Your current plan')).length, 1, 'one plan note, the current one, at the end');
    const stored = await page.evaluate(async () => {
        const runs = await TavernAgent!.runs();
        return TavernAgent!.readFile(runs.at(-1)!.runId, 'plan/plan.json');
    });
    assert.deepEqual(JSON.parse(stored).items, PLAN_2);
});

test('a profile with prices shows a cost equal to usage × price, for the run and each turn; runs() returns usage', async (t) => {
    const page = await openAgentChat(session, { reuse: true });
    await useWriter(t, page, { ...WRITER_PROFILE, pricing: { input: 3, output: 15 } });
    session.mock.enqueue(
        { usage: { input: 1200, output: 300 }, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'Priced.' })) },
        { usage: { input: 2000, output: 100 }, ...calls(call('workspace_commit', {}), call('workspace_finish', {})) },
    );
    await sendMessage(page, 'What does it cost?');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor();
    const turnCosts = await page.locator('.tavern-agent__event[data-kind="model"]').evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-cost'))));
    const first = (1200 * 3 + 300 * 15) / 1e6;
    const second = (2000 * 3 + 100 * 15) / 1e6;
    assert.deepEqual(turnCosts.map((cost) => cost.toFixed(9)), [first.toFixed(9), second.toFixed(9)]);
    const runCost = Number(await page.locator('[data-stat="cost"]').getAttribute('data-value'));
    assert.equal(runCost.toFixed(9), (first + second).toFixed(9));
    assert.match((await page.locator('[data-stat="cost"]').innerText()).trim(), /0\.016$/, "0.0156 shown to two digits");
    const runs = await page.evaluate(() => TavernAgent!.runs());
    const usage = runs.at(-1)!.usage;
    assert.deepEqual({ input: usage.input, output: usage.output }, { input: 3200, output: 400 });
    assert.equal(usage.cost!.toFixed(9), (first + second).toFixed(9));
    await page.locator('[data-testid="history-cost"]').first().waitFor({ state: 'attached' }); // History is folded
    assert.equal(Number(await page.locator(`[data-history-run="${runs.at(-1)!.runId}"] [data-testid="history-cost"]`).getAttribute('data-value')).toFixed(9), (first + second).toFixed(9));
});

test('a run that hit its budget continues with 5 more rounds and commits again in the same reply; after a newer message Continue gets its code', async (t) => {
    const page = await openAgentChat(session, { reuse: true });
    await useWriter(t, page, { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 2 } });
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Part one.' })),
        calls(call('workspace_list_files', {})),
        // The wrap-up turn: only commit and finish remain; it commits and does not finish.
        calls(call('workspace_commit', {})),
    );
    await sendMessage(page, 'Write a long story.');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor();
    const before = await chatLines(page);
    assert.equal(before.at(-1)!.mes, 'Part one.');
    const continueButton = page.locator('[data-testid="run-continue"] [data-action="continue"]');
    assert.match(await continueButton.innerText(), /Continue with 2 more rounds/, "N starts at the profile's round budget");
    await page.fill('[data-testid="run-continue"] input', '5');
    await page.locator('[data-testid="run-continue"] [data-action="continue"]', { hasText: '5' }).waitFor();
    session.mock.reset();
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Part one. Part two.' })),
        calls(call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await continueButton.click();
    await page.locator('.tavern-agent__event[data-event-type="run-continue"]').waitFor();
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor();
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Part one. Part two.');
    const after = await chatLines(page);
    assert.equal(after.length, before.length, 'the same reply, not a new message');
    assert.equal(after.at(-1)!.runId, before.at(-1)!.runId, 'by the same run');
    const requests = session.mock.generations();
    assert.equal(requests.length, 2);
    assert.match(String(messagesOf(requests[0]!).at(-1)?.content), /gave this run 5 more model turns/);
    assert.ok(((requests[0]!.body as { tools: unknown[] }).tools ?? []).length > 2, 'all its tools again');
    assert.equal((await page.evaluate(() => TavernAgent!.runs())).length, 1, 'one run');
    assert.equal(await page.locator('[data-testid="run-continue"]').count(), 0, 'it finished: nothing more to continue');

    // A second run that runs out, then a newer message in the chat: its Continue is refused with a code.
    session.mock.reset();
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Another part.' })),
        calls(call('workspace_list_files', {})),
        calls(call('workspace_commit', {})),
    );
    await sendMessage(page, 'And more.');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Another part.');
    await page.locator('[data-testid="run-continue"]').waitFor();
    const runId = (await chatLines(page)).at(-1)!.runId!;
    await page.evaluate(() => SillyTavern!.getContext().executeSlashCommandsWithOptions('/send A newer message.'));
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'A newer message.');
    const refused = await page.evaluate((id) => TavernAgent!.continueRun(id, 5).then(() => 'continued', (error: { code?: string }) => error.code ?? String(error)), runId);
    assert.equal(refused, 'run.chat_moved');
    assert.equal(await page.evaluate(() => SillyTavern!.getContext().executeSlashCommandsWithOptions("/agent continue 5").then((r) => r?.pipe ?? null)), '');
    await page.locator('.toast', { hasText: 'run.chat_moved' }).first().waitFor();
    assert.equal(session.mock.generations().length, 3, 'nothing was sent after the refusal');
});

test("the profile editor sets a profile's prices and compaction; emptied prices are null again", async (t) => {
    const page = await openAgentChat(session, { reuse: true });
    await restoreSettingsAfter(t, page, { save: true }); // Save stores the writer on the server: put back
    await page.click('#tavern_agent_profiles > summary');
    await page.click('[data-testid="profile-list"] [data-profile-id="writer"]');
    await page.waitForFunction(() => document.querySelector('[data-testid="profile-form"]')?.getAttribute('data-profile-id') === 'writer');
    await page.click('[data-testid="profile-long-runs"] > summary');
    await page.fill('#tavern_agent_profile_pricing_input', '0.15');
    await page.fill('#tavern_agent_profile_pricing_output', '0.6');
    await page.fill('#tavern_agent_profile_compaction_threshold', '0.5');
    await page.fill('#tavern_agent_profile_compaction_keepRecentRounds', '6');
    await page.click('[data-testid="profile-save"]');
    const stored = () => page.evaluate(() => (SillyTavern!.getContext().extensionSettings.tavern_agent as { profiles: Record<string, Profile> }).profiles.writer ?? null);
    await page.waitForFunction(() => (SillyTavern!.getContext().extensionSettings.tavern_agent as { profiles?: Record<string, { pricing?: unknown }> })?.profiles?.writer?.pricing);
    assert.deepEqual((await stored())?.pricing, { input: 0.15, output: 0.6 });
    assert.deepEqual((await stored())?.compaction, { threshold: 0.5, keepRecentRounds: 6 });
    await page.fill('#tavern_agent_profile_pricing_input', '');
    await page.fill('#tavern_agent_profile_pricing_output', '');
    await page.click('[data-testid="profile-save"]');
    await page.waitForFunction(() => (SillyTavern!.getContext().extensionSettings.tavern_agent as { profiles: Record<string, { pricing?: unknown }> }).profiles.writer?.pricing === null);
    await page.fill('#tavern_agent_profile_compaction_threshold', '2');
    await page.click('[data-testid="profile-save"]');
    await page.locator('[data-field="compaction.threshold"] [data-testid="field-error"]').waitFor();
});

test('a 30-round run with 20 KB results and a small threshold: stubs for old results, whole recent ones, the same prefix, and a stub reads back', async (t) => {
    const page = await openAgentChat(session, { reuse: true });
    await useWriter(t, page, { ...WRITER_PROFILE, compaction: { threshold: 0.3, keepRecentRounds: 4 } });
    // The connection's context size as SillyTavern reports it (the Chat Completion slider).
    await page.evaluate(async () => {
        const openai = (await import(/* @vite-ignore */ '/scripts/openai.js' as string)) as { oai_settings: { openai_max_context: number } };
        openai.oai_settings.openai_max_context = 100_000;
    });
    const big = Array.from({ length: 400 }, (_, i) => `Line ${String(i).padStart(3, '0')} of the long notes: ${'abcdefghij'.repeat(4)}`).join('\n');
    const turns = [calls(call('workspace_write_file', { path: 'scratch/big.md', content: big }))];
    for (let round = 2; round <= 28; round += 1) turns.push(calls(call('workspace_read_file', { path: 'scratch/big.md' })));
    session.mock.enqueue(...turns);
    // Round 29 reads back the copy the first stub names; round 30 commits.
    let stubPath = '';
    session.mock.setResponder((request) => {
        const messages = messagesOf(request);
        if (!stubPath) {
            const stub = messages.find((m) => m.role === 'tool' && String(m.content).startsWith('[Tavern Agent] The result of workspace_read_file'));
            stubPath = /"path": "([^"]+)"/.exec(String(stub?.content))?.[1] ?? 'missing';
            return calls(call('workspace_read_file', { path: stubPath, max_chars: 80_000 }));
        }
        return calls(call('workspace_write_file', { path: 'output/main.md', content: 'Read it all.' }), call('workspace_commit', {}), call('workspace_finish', {}));
    });
    await sendMessage(page, 'Read the notes many times.');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor({ timeout: 120_000 });
    const requests = session.mock.generations();
    assert.equal(requests.length, 30);
    const isStub = (content: unknown) => String(content).startsWith('[Tavern Agent] The result of');
    const firstStub = (request: RecordedRequest) => messagesOf(request).findIndex((m) => m.role === 'tool' && isStub(m.content));
    const compactedFrom = requests.findIndex((request) => firstStub(request) >= 0);
    assert.ok(compactedFrom > 0 && compactedFrom < 20, `compaction began at request ${compactedFrom + 1}`);
    const last = messagesOf(requests.at(-1)!).filter((m) => m.role === 'tool');
    assert.ok(last.filter((m) => isStub(m.content)).length >= 15, 'old results are stubs');
    assert.ok(last.slice(-4).every((m) => !isStub(m.content)), 'the results of the last four rounds are whole');
    assert.ok(last.slice(-4, -1).every((m) => String(m.content).length > 20_000), 'the recent 20 KB reads are there in full');
    // The request prefix before the first stub is byte-identical across requests.
    const cut = firstStub(requests[compactedFrom]!);
    const prefix = JSON.stringify(messagesOf(requests[compactedFrom]!).slice(0, cut));
    for (const request of requests.slice(compactedFrom)) assert.equal(JSON.stringify(messagesOf(request).slice(0, cut)), prefix);
    // The stubbed result, read back with workspace.read_file, is the original.
    const callId = /compacted\/(call-\d+)\.txt/.exec(stubPath)![1]!;
    const stubbedAt = requests.findIndex((request) => messagesOf(request).some((m) => isStub(m.content) && String(m.content).includes(`(${callId})`)));
    const at = messagesOf(requests[stubbedAt]!).findIndex((m) => isStub(m.content) && String(m.content).includes(`(${callId})`));
    // The same place in the request before: what the model had read there.
    const original = messagesOf(requests[stubbedAt - 1]!)[at];
    assert.ok(String(original?.content).length > 20_000, 'a 20 KB result was stubbed');
    const readBack = String(messagesOf(requests.at(-1)!).filter((m) => m.role === 'tool').at(-1)!.content);
    const text = readBack.split('\n').slice(1).map((line) => line.replace(/^\s*\d+│/, '')).join('\n');
    assert.equal(text, String(original?.content));
    await page.locator('.tavern-agent__event[data-event-type="conversation-compact"]').first().waitFor();
});

test("a turn's Request view holds the tool definitions and the chat text the mock received, and the sizes add up", async () => {
    const page = await openAgentChat(session, { reuse: true });
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Inspected.' })),
        calls(call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Show me what the model saw, please.');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor();
    const received = session.mock.generations();
    const row = page.locator('.tavern-agent__event[data-kind="model"]').nth(1);
    await row.locator('.tavern-agent__row-toggle').click();
    await row.locator('[data-testid="model-request"] > summary').click();
    const sizes = row.locator('[data-testid="request-sizes"]');
    await sizes.waitFor();
    // The tool definitions, by name and in order, as the mock got them.
    const tools = (received[1]!.body as { tools: Array<{ function: { name: string } }> }).tools.map((tool) => tool.function.name);
    assert.deepEqual(await row.locator('[data-testid="request-tools"] [data-tool]').evaluateAll((items) => items.map((item) => item.getAttribute('data-tool'))), tools);
    // The messages, in order: every text the mock received is there, the user's chat text among them.
    const shown = await row.locator('[data-testid="request-messages"] > li').evaluateAll((items) => items.map((item) => ({ role: item.getAttribute('data-role'), text: item.querySelector('pre')!.textContent ?? '' })));
    const sent = messagesOf(received[1]!);
    assert.equal(shown.length, sent.length);
    sent.forEach((message, i) => {
        assert.equal(shown[i]!.role, message.role);
        if (typeof message.content === 'string' && message.content) assert.ok(shown[i]!.text.startsWith(message.content), `message ${i} (${message.role})`);
    });
    assert.ok(shown.some((m) => m.role === 'user' && m.text.includes('Show me what the model saw, please.')));
    // Sizes by kind add up to the total, in tokens from SillyTavern's tokenizer.
    assert.equal(await sizes.getAttribute('data-unit'), 'tokens');
    const parts = await sizes.locator('[data-part-kind]').evaluateAll((items) => items.map((item) => [item.getAttribute('data-part-kind'), Number(item.getAttribute('data-size'))] as const));
    assert.deepEqual(parts.map(([kind]) => kind).filter((kind) => ['system', 'chat', 'tool-definitions', 'tool-results', 'agent'].includes(kind!)), ['system', 'chat', 'tool-definitions', 'tool-results', 'agent']);
    assert.equal(parts.reduce((sum, [, size]) => sum + size, 0), Number(await sizes.getAttribute('data-total')));
    assert.ok(parts.every(([, size]) => size > 0));
    // The copy holds the same request.
    await page.evaluate(() => {
        (globalThis as { copied?: string }).copied = '';
        navigator.clipboard.writeText = async (text: string) => void ((globalThis as { copied?: string }).copied = text);
    });
    await row.locator('[data-action="copy-request"]').click();
    const copied = JSON.parse(await page.evaluate(() => (globalThis as { copied?: string }).copied ?? '')) as { messages: unknown[]; tools: Array<{ function: { name: string } }> };
    assert.equal(copied.messages.length, sent.length);
    assert.deepEqual(copied.tools.map((tool) => tool.function.name), tools);
    // Exports carry the parts (repeated ones once).
    const exported = await page.evaluate(async () => {
        const runs = await TavernAgent!.runs();
        const files = await TavernAgent!.files(runs.at(-1)!.runId);
        return files.filter((path) => path.startsWith('request-parts/'));
    });
    assert.ok(exported.length >= sent.length, `${exported.length} parts`);
});

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };

test('screenshots at 1280 and 390 px, English and Chinese: the plan, the cost, Continue and an opened Request', async (t) => {
    for (const language of ['en', 'zh-cn']) {
        const { page } = await session.open(DESKTOP);
        const pageErrors: string[] = [];
        page.on('pageerror', (error) => pageErrors.push(error.message));
        if (language !== 'en') {
            await page.evaluate((code) => localStorage.setItem('language', code), language);
            await page.reload({ waitUntil: 'domcontentloaded' });
            await waitForSillyTavernReady(page);
        }
        const chat = await openAgentChatOn(page);
        await useWriter(t, chat, { ...WRITER_PROFILE, pricing: { input: 3, output: 15 }, tools: { ...WRITER_PROFILE.tools, maxRounds: 3 } });
        session.mock.enqueue(
            { usage: { input: 1800, output: 120 }, ...calls(call('plan_update', { items: PLAN_2 })) },
            { usage: { input: 2100, output: 400 }, ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'The first part of a long story.' })) },
            { usage: { input: 2300, output: 60 }, ...calls(call('workspace_list_files', {})) },
            { usage: { input: 2400, output: 40 }, ...calls(call('workspace_commit', {})) },
        );
        await sendMessage(chat, language === 'en' ? 'Tell a long story.' : '讲一个长故事。');
        await chat.locator('.tavern-agent__run[data-run-state="completed"]').waitFor();
        await chat.locator('[data-testid="run-continue"]').waitFor();
        const first = chat.locator('.tavern-agent__event[data-kind="model"]').first();
        await first.locator('.tavern-agent__row-toggle').click();
        await first.locator('[data-testid="model-request"] > summary').click();
        await first.locator('[data-testid="request-sizes"]').waitFor();
        if (language !== 'en') {
            await chat.locator('[data-testid="run-plan"] summary', { hasText: '计划' }).waitFor();
            assert.match(await chat.locator('[data-testid="run-continue"] [data-action="continue"]').innerText(), /继续 3 轮/);
        }
        for (const [viewport, size] of [[DESKTOP, '1280'], [PHONE, '390']] as const) {
            await chat.setViewportSize(viewport);
            await chat.evaluate(() => document.querySelectorAll('#toast-container').forEach((toasts) => toasts.remove()));
            await chat.locator('.tavern-agent__run').evaluate((el) => el.scrollIntoView({ block: 'start' }));
            const wide = await chat.$$eval('aside.tavern-agent *', (elements) =>
                elements.filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1).map((el) => String(el.className || el.tagName)),
            );
            await chat.waitForTimeout(200);
            await chat.screenshot({ path: path.join(artifacts, `long-runs-${size}-${language}.png`) });
            assert.deepEqual(wide, [], `${language} ${size}: nothing sticks out of the screen`);
            await first.locator('[data-testid="model-request"]').evaluate((el) => el.scrollIntoView({ block: 'start' }));
            await chat.waitForTimeout(200);
            await chat.screenshot({ path: path.join(artifacts, `long-runs-request-${size}-${language}.png`) });
        }
        assert.deepEqual(pageErrors, []);
        await closePage(chat);
    }
});

/** openAgentChat's steps on a page already open (here: in a chosen language). */
async function openAgentChatOn(page: Page): Promise<Page> {
    await waitForExtension(page);
    await openCharacter(page);
    await slash(page, '/newchat');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
    await agentOn(page);
    await page.click('#tavern_agent_button .drawer-icon');
    session.mock.reset();
    return page;
}
