import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { WRITER_PROFILE } from '../../src/contract/profile';
import { launchBrowser, openCharacter, openSillyTavern, sendMessage } from '../harness/browser';
import { agentOn, chatLines, restoreSettingsAfter, settleForReuse } from '../harness/agent';
import { startMockTextCompletion, type MockTextCompletion } from '../harness/mock-text-completion';
import { startSillyTavern, ST_DIR, type SillyTavernServer } from '../harness/st-server';
import { LINKED_FOLDER, REPO_ROOT, slash, waitForExtension } from '../harness/tavern';

/**
 * Agents on Text Completion (SPEC §9, issue 18): SillyTavern on its llama.cpp source (and the generic
 * OpenAI-style type), pointed at a mock that records every request. The model's turns are scripted text
 * with <tool_call> blocks; the tests check what the model was shown and what reached the chat.
 */

const call = (name: string, args: unknown) => `<tool_call>\n${JSON.stringify({ name, arguments: args })}\n</tool_call>`;

let mock: MockTextCompletion;
let st: SillyTavernServer;
let browser: Browser;

before(async () => {
    mock = await startMockTextCompletion();
    const chatml = JSON.parse(fs.readFileSync(path.join(ST_DIR, 'default/content/presets/instruct/ChatML.json'), 'utf8'));
    st = await startSillyTavern({
        modelUrl: mock.url,
        linkExtensions: [{ folder: LINKED_FOLDER, dir: REPO_ROOT }],
        builtInExtensions: 'lean',
        patchSettings(settings) {
            settings.main_api = 'textgenerationwebui';
            settings.textgenerationwebui_settings ??= {};
            const textgen = settings.textgenerationwebui_settings;
            textgen.type = 'llamacpp';
            textgen.server_urls = { ...(textgen.server_urls ?? {}), llamacpp: mock.url, generic: mock.url };
            textgen.streaming = false;
            // The instruct template the user selected: ChatML.
            settings.power_user.instruct = { ...chatml, enabled: true, preset: 'ChatML' };
            settings.power_user.tokenizer = 0; // no tokenizer requests to the backend
        },
    });
    browser = await launchBrowser();
});

after(async () => {
    await browser?.close().catch(() => undefined);
    await st?.stop().catch(() => undefined);
    await mock?.close().catch(() => undefined);
});

/** The page the last test left, for the next one: a page load is seconds of CPU, and each test keeps to its own chat. */
let kept: Page | undefined;

/**
 * A new chat with Seraphina, Agent Mode on; `writer` overrides the built-in writer profile. It takes the page
 * the last test left when that is fit to reuse (settleForReuse: no run, no popup, its panel closed); else a
 * fresh page. A test that changes the connection puts it back before it ends; a failed test drops its page
 * (dropPage).
 */
async function openTextChat(writer?: Record<string, unknown>): Promise<Page> {
    let page = kept;
    kept = undefined;
    if (page && !(await settleForReuse(page))) {
        await dropPage(page);
        page = undefined;
    }
    if (!page) {
        page = (await openSillyTavern(browser, st.url)).page;
        await waitForExtension(page);
    }
    await page.evaluate((profiles) => {
        SillyTavern!.getContext().extensionSettings.tavern_agent = { profiles };
    }, writer ? { writer } : {});
    await openCharacter(page);
    await slash(page, '/newchat');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
    await agentOn(page);
    mock.reset();
    kept = page;
    return page;
}

/** A failed test's page is not given to the next one: it may still hold the connection it changed, or a run. */
async function dropPage(page: Page): Promise<void> {
    if (kept === page) kept = undefined;
    await page.context().close().catch(() => undefined);
}

type Backend = { type: string; streaming: boolean; server_urls: Record<string, string> };

/** The Text Completion backend SillyTavern is set to (the page-wide connection a test may change). */
function backendOf(page: Page): Promise<Backend> {
    return page.evaluate(() => {
        const settings = (SillyTavern!.getContext() as unknown as { textCompletionSettings: Backend }).textCompletionSettings;
        return { type: settings.type, streaming: settings.streaming, server_urls: { ...settings.server_urls } };
    });
}

/** Puts the backend back as `backendOf` read it: the next test takes this page again. */
async function restoreBackend(page: Page, backend: Backend): Promise<void> {
    await page.evaluate((saved) => {
        Object.assign((SillyTavern!.getContext() as unknown as { textCompletionSettings: Backend }).textCompletionSettings, saved);
    }, backend);
}

const prompts = () => {
    // Debug aid: TEXTCOMP_DUMP=<file> keeps what the mock received.
    if (process.env.TEXTCOMP_DUMP) fs.writeFileSync(process.env.TEXTCOMP_DUMP, JSON.stringify(mock.generations(), null, 1));
    return mock.generations().map((r) => String(r.body.prompt));
};

describe('Text Completion (llama.cpp)', () => {
    test('a run writes, reads, patches, commits and finishes with one reply; the prompt uses ChatML and the grammar', async () => {
        const page = await openTextChat();
        try {
            mock.enqueue(
                `I will draft the reply first.\n${call('workspace_write_file', { path: 'output/main.md', content: 'Hello from a local model.' })}`,
                call('workspace_read_file', { path: 'output/main.md' }),
                call('workspace_apply_patch', { path: 'output/main.md', old_string: 'a local', new_string: 'the local' }),
                `${call('workspace_commit', {})}\n${call('workspace_finish', {})}`,
            );
            const before = (await chatLines(page)).length;
            await sendMessage(page, 'Say hello from your machine.');
            const lines = await chatLines(page);
            assert.equal(lines.length, before + 2, 'the user message and one reply');
            assert.equal(lines.at(-1)!.mes, 'Hello from the local model.');
            assert.ok(lines.at(-1)!.runId);

            const requests = mock.generations();
            assert.equal(requests.length, 4);
            assert.ok(requests.every((r) => r.path === '/completion'), 'llama.cpp endpoint');
            const [first, , , last] = prompts();
            // SillyTavern's ChatML formatting around the protocol: system part with the tools, the user's turn,
            // the assistant's prefix at the end.
            assert.match(first!, /^<\|im_start\|>system\n[\s\S]*<tools>\n[\s\S]*"name":"workspace_write_file"[\s\S]*<\/tools>[\s\S]*<\|im_end\|>\n/);
            assert.match(first!, /<\|im_start\|>user\nSay hello from your machine\.<\|im_end\|>\n<\|im_start\|>assistant\n$/);
            // Results come back in the next turn as <tool_response> blocks, after the call in canonical form.
            assert.match(last!, /<tool_call>\n\{"name":"workspace_read_file","arguments":\{"path":"output\/main\.md"\}\}\n<\/tool_call><\|im_end\|>\n<\|im_start\|>user\n<tool_response>\n[\s\S]*Hello from a local model\.[\s\S]*<\/tool_response>/);
            assert.match(last!, /<tool_response>\nReplaced 1 occurrence in output\/main\.md/);
            for (const request of requests) {
                const stops = request.body.stop as string[];
                assert.ok(stops.includes('<tool_response>'), 'the model never writes results itself');
                assert.ok(!stops.some((s) => s.includes('</tool_call>')), 'a turn is never cut after its first call');
                assert.ok(stops.some((s) => s.includes('<|im_end|>')), "the instruct template's own stops stay");
                assert.match(String(request.body.grammar), /^root ::= text \(call text\)\*$/m, 'grammar sent to llama.cpp');
                assert.match(String(request.body.grammar), /"\\"workspace_commit\\""/);
            }
        } catch (error) {
            await dropPage(page);
            throw error;
        }
    });

    test('plain text gets a reminder, a fenced call is repaired, a broken call is coded and the run goes on, two calls in one turn', async () => {
        const page = await openTextChat();
        try {
            mock.enqueue(
                'Hello there, traveller! (plain text, no call)',
                '<tool_call>\n```json\n{"name": "workspace_write_file", "arguments": {"path": "output/main.md", "content": "Fenced but fine."}}\n```\n</tool_call>',
                '<tool_call>{"name": "workspace_read_file", "arguments": {"path": </tool_call>',
                `${call('workspace_commit', {})}\n${call('workspace_finish', {})}`,
            );
            await sendMessage(page, 'Go.');
            assert.equal((await chatLines(page)).at(-1)!.mes, 'Fenced but fine.');
            const shown = prompts();
            assert.equal(shown.length, 4);
            assert.match(shown[1]!, /Hello there, traveller![\s\S]*\[Tavern Agent reminder 1\/2\] Your last answer was plain text/);
            // The repaired call ran: its result came back, not an error.
            assert.match(shown[2]!, /<tool_response>\nCreated output\/main\.md with 16 chars/);
            assert.doesNotMatch(shown[2]!, /tool\.invalid_arguments/);
            // The broken call: shown back as written, answered with the code and the exact expected form.
            assert.match(shown[3]!, /<tool_call>\{"name": "workspace_read_file", "arguments": \{"path":<\/tool_call>/);
            assert.match(shown[3]!, /<tool_response>\n[^<]*tool\.invalid_arguments[\s\S]*<tool_call>\{"name": "workspace_read_file", "arguments": \{"key": "value"\}\}<\/tool_call>/);
        } catch (error) {
            await dropPage(page);
            throw error;
        }
    });

    test('the grammar is absent when the profile turns it off', async () => {
        const page = await openTextChat({ ...WRITER_PROFILE, textProtocol: { grammar: false } });
        try {
            mock.enqueue(`${call('workspace_write_file', { path: 'output/main.md', content: 'No grammar.' })}\n${call('workspace_commit', {})}\n${call('workspace_finish', {})}`);
            await sendMessage(page, 'Go.');
            assert.equal((await chatLines(page)).at(-1)!.mes, 'No grammar.');
            const requests = mock.generations();
            assert.equal(requests.length, 1);
            assert.equal(requests[0]!.body.grammar, undefined);
            assert.ok((requests[0]!.body.stop as string[]).includes('<tool_response>'));
        } catch (error) {
            await dropPage(page);
            throw error;
        }
    });
});

describe('Text Completion: the grammar on every backend that takes one (issue 39 §10)', () => {
    test('KoboldCpp gets a GBNF `grammar`, Text Generation WebUI a GBNF `grammar_string`, TabbyAPI a KBNF `grammar_string`', async () => {
        const page = await openTextChat();
        try {
            const llamacpp = await backendOf(page);
            const backends = [
                { type: 'koboldcpp', field: 'grammar', other: 'grammar_string', root: /^root ::= text \(call text\)\*$/m },
                { type: 'ooba', field: 'grammar_string', other: 'grammar', root: /^root ::= text \(call text\)\*$/m },
                { type: 'tabby', field: 'grammar_string', other: 'grammar', root: /^start ::= ta_text \(ta_call ta_text\)\*;$/m },
            ];
            for (const { type, field, other, root } of backends) {
                await page.evaluate(
                    ({ type, url }) => {
                        const settings = (SillyTavern!.getContext() as unknown as { textCompletionSettings: Record<string, any> }).textCompletionSettings;
                        settings.type = type;
                        settings.server_urls[type] = url;
                        settings.streaming = false;
                    },
                    { type, url: mock.url },
                );
                mock.reset();
                mock.enqueue(`${call('workspace_write_file', { path: 'output/main.md', content: `Through ${type}.` })}\n${call('workspace_commit', {})}\n${call('workspace_finish', {})}`);
                await sendMessage(page, `Use ${type}.`);
                assert.equal((await chatLines(page)).at(-1)!.mes, `Through ${type}.`);
                const requests = mock.generations();
                assert.equal(requests.length, 1, type);
                const { body, path: endpoint } = requests[0]!;
                assert.equal(endpoint, '/v1/completions', type);
                assert.equal(body.api_type, type);
                assert.match(String(body[field]), root, `${type}: the grammar in ${field}`);
                assert.match(String(body[field]), /workspace_commit/, `${type}: it names the offered tools`);
                assert.equal(body[other], undefined, `${type}: no ${other} beside it`);
            }
            await restoreBackend(page, llamacpp); // the next test takes this page again
        } catch (error) {
            await dropPage(page);
            throw error;
        }
    });
});

describe('Text Completion: Stop', () => {
    test('Stop aborts the request in flight and nothing is committed', async () => {
        const page = await openTextChat();
        try {
            const before = (await chatLines(page)).length;
            const held = mock.holdNext();
            await page.fill('#send_textarea', 'Take your time.');
            await page.click('#send_but');
            await held.arrived;
            await page.click('#mes_stop');
            await held.closed; // SillyTavern's backend dropped the upstream request
            await page.waitForFunction(() => document.body.dataset.generating === undefined && getComputedStyle(document.querySelector('#mes_stop')!).display === 'none');
            const lines = await chatLines(page);
            assert.equal(lines.length, before + 1, 'only the user message');
            assert.equal(lines.at(-1)!.is_user, true);
            assert.equal(mock.generations().length, 1, 'no request after the stop');
        } catch (error) {
            await dropPage(page);
            throw error;
        }
    });
});

describe('Text Completion through a Connection Manager profile', () => {
    test("the profile's own API, server and instruct template are used, and the editor names the protocol", async (t) => {
        const writer = { ...WRITER_PROFILE, model: { mode: 'connection-profile', profileId: 'tc-llama3', profileName: 'Local Llama 3' } };
        const page = await openTextChat(writer);
        try {
            await restoreSettingsAfter(t, page, { key: 'connectionManager' }); // the next test takes this page again
            await page.evaluate((url) => {
                const settings = SillyTavern!.getContext().extensionSettings as Record<string, any>;
                settings.connectionManager ??= { profiles: [] };
                settings.connectionManager.profiles ??= [];
                settings.connectionManager.profiles.push({ id: 'tc-llama3', name: 'Local Llama 3', api: 'generic', 'api-url': url, instruct: 'Llama 3 Instruct', 'instruct-state': 'true' });
            }, mock.url);
            mock.enqueue(`${call('workspace_write_file', { path: 'output/main.md', content: 'Through the profile.' })}\n${call('workspace_commit', {})}\n${call('workspace_finish', {})}`);
            await sendMessage(page, 'Use the profile.');
            assert.equal((await chatLines(page)).at(-1)!.mes, 'Through the profile.');
            const requests = mock.generations();
            assert.equal(requests.length, 1);
            assert.equal(requests[0]!.path, '/v1/completions', "the profile's generic type, not the current llama.cpp");
            const prompt = String(requests[0]!.body.prompt);
            assert.match(prompt, /<\|start_header_id\|>system<\|end_header_id\|>[\s\S]*<tools>/, "the profile's Llama 3 template, not the current ChatML");
            assert.doesNotMatch(prompt, /<\|im_start\|>/);
            assert.match(prompt, /<\|start_header_id\|>assistant<\|end_header_id\|>\n\n$/);
            assert.ok((requests[0]!.body.stop as string[]).includes('<tool_response>'));

            // The profile editor says which protocol this profile's connection uses, with the grammar switch.
            await page.click('#tavern_agent_button .drawer-icon');
            await page.click('#tavern_agent_profiles > summary');
            const note = page.locator('[data-testid="profile-protocol"]');
            await note.waitFor();
            assert.equal(await note.getAttribute('data-protocol'), 'text');
            assert.match(await note.innerText(), /Text Completion/);
            assert.equal(await note.locator('input[type="checkbox"]').isChecked(), true);
        } catch (error) {
            await dropPage(page);
            throw error;
        }
    });
});

describe('Text Completion (generic /v1/completions, streaming)', () => {
    test('a streamed run through the OpenAI-style endpoint commits one reply', async () => {
        const page = await openTextChat();
        try {
            const llamacpp = await backendOf(page);
            await page.evaluate((url) => {
                const settings = (SillyTavern!.getContext() as unknown as { textCompletionSettings: Record<string, any> }).textCompletionSettings;
                settings.type = 'generic';
                settings.server_urls.generic = url;
                settings.streaming = true;
            }, mock.url);
            mock.enqueue(
                call('workspace_write_file', { path: 'output/main.md', content: 'Streamed, piece by piece.' }),
                `${call('workspace_commit', {})}\n${call('workspace_finish', {})}`,
            );
            await sendMessage(page, 'Stream it.');
            assert.equal((await chatLines(page)).at(-1)!.mes, 'Streamed, piece by piece.');
            const requests = mock.generations();
            assert.equal(requests.length, 2);
            assert.ok(requests.every((r) => r.path === '/v1/completions' && r.body.stream === true));
            assert.equal(requests[0]!.body.grammar, undefined, 'no grammar for a backend without one');
            assert.equal((requests[0]!.body.stop as string[])[0], '<tool_response>', 'kept when SillyTavern cuts the stops to four');
            assert.match(String(requests[1]!.body.prompt), /<tool_response>\nCreated output\/main\.md/);
            await restoreBackend(page, llamacpp); // for a test after this one on the same page
        } catch (error) {
            await dropPage(page);
            throw error;
        }
    });
});
