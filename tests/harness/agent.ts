import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import type { Page } from 'playwright-core';
import type { MockToolCall, MockTurn, RecordedRequest } from './mock-model';
import { DEFAULT_VIEWPORT, openCharacter, saveSettingsNow, stPageOf, waitForSillyTavernReady } from './browser';
import { closePage, timesTaken } from './recycled-pages';
import { slash, waitForExtension, type TavernSession } from './tavern';

/** One scripted tool call, by the alias providers see (`workspace_write_file`). */
export function call(name: string, args: unknown = {}): MockToolCall {
    return { name, arguments: args };
}

/** A model turn that makes these tool calls. */
export function calls(...toolCalls: MockToolCall[]): MockTurn {
    return { toolCalls };
}

/** A gate the test opens: the mock holds its answer until then, so the test acts mid-run without a timer. */
export function gate(): { promise: Promise<void>; open: () => void } {
    let open!: () => void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    return { promise, open };
}

export interface ChatLine {
    mes: string;
    is_user: boolean;
    is_system: boolean;
    name: string;
    runId: string | null;
    swipes: string[] | null;
    swipeId: number | null;
}

export async function chatLines(page: Page): Promise<ChatLine[]> {
    return page.evaluate(() =>
        SillyTavern!.getContext().chat.map((m) => ({
            mes: m.mes,
            is_user: m.is_user,
            is_system: Boolean(m.is_system),
            name: m.name,
            runId: ((m.extra?.tavern_agent as { runId?: string } | undefined)?.runId) ?? null,
            swipes: Array.isArray(m.swipes) ? [...m.swipes] : null,
            swipeId: typeof m.swipe_id === 'number' ? m.swipe_id : null,
        })),
    );
}

/** The tool messages a model request carried, in order: what the model was shown. */
export function toolMessages(request: RecordedRequest): Array<{ tool_call_id: string; content: string }> {
    const messages = (request.body as { messages: Array<{ role: string; tool_call_id?: string; content: unknown }> }).messages;
    return messages
        .filter((m) => m.role === 'tool')
        .map((m) => ({ tool_call_id: String(m.tool_call_id), content: typeof m.content === 'string' ? m.content : JSON.stringify(m.content) }));
}

/** A tool result a model request carried, with the name of the call it answers. */
export interface ShownToolResult {
    name: string;
    content: string;
}

const textOf = (content: unknown): string =>
    typeof content === 'string'
        ? content
        : Array.isArray(content) && content.every((part) => typeof (part as { text?: unknown })?.text === 'string')
          ? content.map((part) => (part as { text: string }).text).join('')
          : JSON.stringify(content);

/**
 * The tool results a model request carried, in order, in any of the three dialects: OpenAI `role: "tool"`
 * messages, Claude `tool_result` blocks, Gemini `functionResponse` parts. Each is named by the call it
 * answers (looked up through the assistant's calls in the same request), so a test can pick the result of
 * one call instead of matching text that may be anywhere in the body.
 */
export function toolResults(request: RecordedRequest): ShownToolResult[] {
    const body = request.body as Record<string, any>; // a provider's request body, read by the dialect below
    if (request.dialect === 'gemini') {
        const parts = (body.contents as Array<{ parts?: Array<Record<string, any>> }>).flatMap((c) => c.parts ?? []);
        return parts
            .filter((part) => part.functionResponse)
            .map((part) => ({ name: String(part.functionResponse.name), content: textOf(part.functionResponse.response?.content) }));
    }
    const messages = body.messages as Array<{ role: string; content: unknown; tool_calls?: Array<{ id: string; function: { name: string } }>; tool_call_id?: string }>;
    const names = new Map<string, string>();
    const out: ShownToolResult[] = [];
    for (const message of messages) {
        for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
        if (message.role === 'tool') out.push({ name: names.get(String(message.tool_call_id)) ?? '?', content: textOf(message.content) });
        if (request.dialect === 'claude' && Array.isArray(message.content)) {
            for (const block of message.content as Array<Record<string, any>>) {
                if (block.type === 'tool_use') names.set(block.id, block.name);
                if (block.type === 'tool_result') out.push({ name: names.get(block.tool_use_id) ?? '?', content: textOf(block.content) });
            }
        }
    }
    return out;
}

/** Names of the tools offered in a request (OpenAI shape). */
export function offeredTools(request: RecordedRequest): string[] {
    const tools = (request.body as { tools?: Array<{ function: { name: string } }> }).tools ?? [];
    return tools.map((t) => t.function.name).sort();
}

export async function agentOn(page: Page): Promise<void> {
    const status = JSON.parse(await slash(page, '/agent on')) as { enabled: boolean };
    if (!status.enabled) throw new Error('Agent Mode did not switch on');
}

/** The outcome the panel shows for the last run. */
export async function lastRunState(page: Page): Promise<string | null> {
    return page.evaluate(() => document.querySelector('.tavern-agent__run')?.getAttribute('data-run-state') ?? null);
}

export const WORKSPACE_ALIASES = [
    'workspace_apply_patch',
    'workspace_commit',
    'workspace_finish',
    'workspace_list_files',
    'workspace_read_file',
    'workspace_search_files',
    'workspace_write_file',
];

type Viewport = { width: number; height: number };

const PANEL_BUTTON = '#tavern_agent_button .drawer-icon';
const PANEL = 'aside.tavern-agent';

/** The page each session's last `openAgentChat({ reuse: true })` gave, to be handed to the next such call. */
const reusablePages = new WeakMap<TavernSession, { page: Page; timesTaken: number }>();

/**
 * A new chat with Seraphina, Agent Mode on (and the panel open unless told otherwise), with the mock's records
 * cleared: the starting point of most Agent Mode tests. By default in a fresh browser context (fresh
 * IndexedDB). With `reuse`, the page the last such call gave is taken again when it is idle: no run, no
 * popup, still loaded. A page load costs seconds of CPU, and a new chat has its own chat id, runs and
 * workspace; it comes at `viewport` with the errors collected on it cleared. A test that takes it puts back
 * what it changes page-wide (settings and profiles: restoreSettingsAfter; registered tools, listeners); one that
 * leaves something behind it cannot undo (skills a card offered, another language) does not pass `reuse`.
 */
export async function openAgentChat(session: TavernSession, opts: { panel?: boolean; reuse?: boolean; viewport?: Viewport } = {}): Promise<Page> {
    const entry = reusablePages.get(session);
    reusablePages.delete(session);
    // A page handed back and given out again since (closePage, then open) belongs to another test now.
    const kept = entry && timesTaken(entry.page) === entry.timesTaken ? entry.page : undefined;
    const viewport = opts.viewport ?? DEFAULT_VIEWPORT;
    let page: Page;
    if (opts.reuse && kept && (await settleForReuse(kept))) {
        page = kept;
        // What a new page would be: its size, and no errors from the last test (which that test has checked).
        await page.setViewportSize(viewport);
        const loaded = stPageOf(page);
        loaded.pageErrors.length = 0;
        loaded.consoleErrors.length = 0;
    } else {
        page = await freshPage(session, kept, viewport);
    }
    await openCharacter(page);
    await slash(page, '/newchat');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
    await agentOn(page);
    if (opts.panel !== false) {
        await page.click(PANEL_BUTTON);
        await page.locator(PANEL).waitFor();
    }
    session.mock.reset();
    if (opts.reuse) reusablePages.set(session, { page, timesTaken: timesTaken(page) });
    return page;
}

/**
 * Puts the page's extension settings under `key` back, when the test ends, as they are now: for a test that
 * changes settings on a page the next test takes again. With `save`, they are saved to the server too (for a
 * test whose change SillyTavern saved there, as the profile editor's Save does).
 */
export async function restoreSettingsAfter(t: TestContext, page: Page, opts: { key?: string; save?: boolean } = {}): Promise<void> {
    const key = opts.key ?? 'tavern_agent';
    const saved = await page.evaluate((name) => JSON.stringify(SillyTavern!.getContext().extensionSettings[name] ?? null), key);
    t.after(async () => {
        try {
            await page.evaluate(
                ({ name, json }) => {
                    const settings = SillyTavern!.getContext().extensionSettings;
                    const value: unknown = JSON.parse(json);
                    if (value === null) delete settings[name];
                    else settings[name] = value;
                },
                { name: key, json: saved },
            );
            if (opts.save) await saveSettingsNow(page);
        } catch {
            // A page that closed or navigated away has nothing to put back.
        }
    });
}

async function freshPage(session: TavernSession, previous: Page | undefined, viewport: Viewport): Promise<Page> {
    // An idle SillyTavern page still runs timers; the next test does not need the last one's. Handed back, it
    // is the page the open below loads again, with fresh storage.
    if (previous) await closePage(previous);
    const { page } = await session.open(viewport);
    await waitForExtension(page);
    return page;
}

/**
 * Stops what the last test left running and closes the panel (so it mounts anew); false when the page is not fit
 * to reuse. For a file whose pages are not a session's (text-completion's) as for openAgentChat.
 */
export async function settleForReuse(page: Page): Promise<boolean> {
    if (page.isClosed()) return false;
    try {
        const idle = await page.evaluate(async () => {
            const agent = globalThis.TavernAgent;
            if (!agent || document.querySelector('dialog[open], .popup[open]')) return false;
            if (agent.status().run) await agent.stop();
            for (let i = 0; i < 50 && agent.status().run; i++) await new Promise((resolve) => setTimeout(resolve, 100));
            return !agent.status().run && document.body.dataset.generating === undefined;
        });
        if (!idle) return false;
        const panel = page.locator(PANEL);
        if (await panel.count()) {
            await page.click(PANEL_BUTTON);
            await panel.waitFor({ state: 'detached' });
        }
        return true;
    } catch {
        return false;
    }
}

/**
 * A fresh page in SillyTavern's `language` (it reads the language at load: set, then loaded again), with the
 * extension ready: what the screenshot tests in English and Chinese start from.
 */
export async function openInLanguage(session: TavernSession, language: 'en' | 'zh-cn', viewport: { width: number; height: number }) {
    const opened = await session.open(viewport);
    if (language !== 'en') {
        await opened.page.evaluate((code) => localStorage.setItem('language', code), language);
        await opened.page.reload({ waitUntil: 'domcontentloaded' });
        await waitForSillyTavernReady(opened.page);
    }
    await waitForExtension(opened.page);
    return opened;
}

/** The result the model was shown for the last call of `name` in a request; fails the test when there is none. */
export function lastToolResult(request: RecordedRequest, name: string): string {
    const found = toolResults(request).filter((result) => result.name === name);
    assert.ok(found.length > 0, `the request carries a ${name} result`);
    return found.at(-1)!.content;
}

/** A model turn that writes `text` as the reply, commits it and finishes. */
export const replyCalls = (text: string): MockToolCall[] => [call('workspace_write_file', { path: 'output/main.md', content: text }), call('workspace_commit', {}), call('workspace_finish', {})];

/** Until SillyTavern generates nothing and no agent run is working. */
export async function waitForAgentIdle(page: Page): Promise<void> {
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 30_000 });
}

/**
 * Opens a `<details>` section of the panel (`section`, a selector) until `content` inside it shows. One click is
 * not enough on a starved page: the panel can draw the section again right after the click, and it comes back
 * closed (seen in loaded runs with History and the Memory section). Asked every half second, for 30 s at most.
 */
export async function openSectionUntilShown(page: Page, section: string, content: string): Promise<void> {
    await page.waitForFunction(
        ([sectionSelector, contentSelector]) => {
            const details = document.querySelector<HTMLDetailsElement>(sectionSelector!);
            if (details && !details.open) details.querySelector<HTMLElement>(':scope > summary')?.click();
            return Boolean(document.querySelector<HTMLElement>(contentSelector!)?.checkVisibility());
        },
        [section, content],
        { polling: 500, timeout: 30_000 },
    );
}
