// A 10,000-message chat: time from Send to the first model request, in real SillyTavern (issue 17: measured,
// no target yet). Agent Mode snapshots the chat (prefix, prompt, lore) and stores it before its first model
// call; SillyTavern's own path builds its prompt from the same chat. Both paths interleaved, same page.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { agentOn, call, calls } from '../tests/harness/agent';
import { slash } from '../tests/harness/tavern';
import { writeChatFile, type FixtureMessage } from '../tests/fixtures/chat-files';
import { raiseWriterBudgets } from './lib/agent-page';
import type { Benchmark } from './lib/report';
import { ratioOf } from './lib/report';
import { median } from './lib/stats';

const MESSAGES = 10_000;
const CHARS = 500;
const REPEATS = 3;
const CHAT_NAME = 'Bench 10k chat';
const REPLY = 'The lanterns along the road flicker as you pass.';

function bigChat(): FixtureMessage[] {
    const words = 'the lantern swings in the cold wind while the travellers argue about the road north and the price of bread'.split(' ');
    return Array.from({ length: MESSAGES }, (_, i) => {
        let text = `${i}:`;
        for (let w = 0; text.length < CHARS; w += 1) text += ` ${words[(i * 7 + w * 3) % words.length]}`;
        return { name: i % 2 ? 'Tester' : 'Seraphina', is_user: i % 2 === 1, mes: text };
    });
}

/** Send → the first POST to SillyTavern's generate endpoint (page clock), then waits for the turn to end. */
async function sendToFirstRequest(page: Page, agent: boolean): Promise<number> {
    const before = await page.evaluate(() => SillyTavern!.getContext().chat.length);
    const ms = await page.evaluate(async () => {
        const state = globalThis as unknown as { __benchFetch?: boolean; __benchSentAt: number; __benchFirst: number | null };
        if (!state.__benchFetch) {
            state.__benchFetch = true;
            const original = globalThis.fetch;
            globalThis.fetch = function (input: RequestInfo | URL, init?: RequestInit) {
                const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
                if (url.includes('/api/backends/chat-completions/generate') && state.__benchFirst === null) state.__benchFirst = performance.now();
                return original(input, init);
            } as typeof fetch;
        }
        state.__benchFirst = null;
        const textarea = document.getElementById('send_textarea') as HTMLTextAreaElement;
        textarea.value = 'What lies north?';
        textarea.dispatchEvent(new Event('input', { bubbles: true }));
        state.__benchSentAt = performance.now();
        (document.getElementById('send_but') as HTMLElement).click();
        while (state.__benchFirst === null) await new Promise((resolve) => setTimeout(resolve, 1));
        return state.__benchFirst - state.__benchSentAt;
    });
    await page.waitForFunction(
        (n) => SillyTavern!.getContext().chat.length > n && document.body.dataset.generating === undefined && !globalThis.TavernAgent?.status().run,
        before,
        { timeout: 180_000, polling: 100 },
    );
    const last = await page.evaluate(() => SillyTavern!.getContext().chat.at(-1)?.mes ?? '');
    if (last !== REPLY) throw new Error(`${agent ? 'agent' : 'built-in'} turn ended with ${JSON.stringify(last.slice(0, 80))}`);
    return ms;
}

export const bigChatSend: Benchmark = {
    name: 'big-chat-send',
    title: '12 A 10,000-message chat: Send to the first model request',
    async run({ shared, log }) {
        const tavern = await shared.tavern();
        writeChatFile(path.join(tavern.st.userDir, 'chats', 'default_Seraphina', `${CHAT_NAME}.jsonl`), bigChat());
        const { page, context } = await tavern.openChat();
        try {
            await page.evaluate((name) => SillyTavern!.getContext().openCharacterChat(name), CHAT_NAME);
            await page.waitForFunction((n) => SillyTavern!.getContext().chat.length >= n, MESSAGES, { timeout: 120_000 });
            await raiseWriterBudgets(page);
            const samples = { agent: [] as number[], builtin: [] as number[] };
            const turn = async (agent: boolean) => {
                if (agent) await agentOn(page);
                else await slash(page, '/agent off');
                tavern.mock.reset();
                tavern.mock.enqueue(
                    agent
                        ? calls(call('workspace_write_file', { path: 'output/main.md', content: REPLY }), call('workspace_commit', {}), call('workspace_finish', {}))
                        : { text: REPLY },
                );
                return sendToFirstRequest(page, agent);
            };
            // Warm-up: the worker starts on the first agent run; SillyTavern's tokenizer caches fill.
            await turn(false);
            await turn(true);
            for (let i = 0; i < REPEATS; i += 1) {
                samples.builtin.push(await turn(false));
                samples.agent.push(await turn(true));
                log(`  repeat ${i + 1}/${REPEATS}: built-in ${samples.builtin.at(-1)!.toFixed(0)} ms, agent ${samples.agent.at(-1)!.toFixed(0)} ms`);
            }
            const agent = median(samples.agent);
            const builtin = median(samples.builtin);
            return {
                figures: [
                    {
                        id: 'big-chat-send.first-request',
                        label: `Send → first model request, ${MESSAGES.toLocaleString('en-US')}-message chat`,
                        value: agent,
                        unit: 'ms',
                        baseline: { label: "SillyTavern's own generation, same chat", value: builtin },
                        ratio: ratioOf(agent, builtin),
                    },
                ],
                details: { messages: MESSAGES, charsPerMessage: CHARS, repeats: REPEATS, samples },
                notes: [
                    `A ${MESSAGES.toLocaleString('en-US')}-message chat (about ${CHARS} characters each) written as a SillyTavern chat file and opened; Send clicked in the page; the time until the page's first POST to /api/backends/chat-completions/generate (a fetch wrapper, page clock). Agent Mode: the run's snapshot (chat prefix, prompt, lore), the worker start-up excluded by a warm-up run, its storage, then the first model request. Baseline: the same Send with Agent Mode off (SillyTavern builds and sends its own prompt). ${REPEATS} interleaved repeats after one warm-up each; medians; each turn adds two messages.`,
                ],
            };
        } finally {
            await context.close().catch(() => undefined);
        }
    },
};
