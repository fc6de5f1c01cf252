import type { Page } from 'playwright-core';
import { agentOn } from '../../tests/harness/agent';
import { WRITER_PROFILE } from '../../src/contract/profile';
import type { BenchTavern } from './tavern';
import { newChat } from './tavern';

/**
 * The Writer profile with its budgets raised to the schema's maximum, stored as the user's changed copy
 * of the built-in (as the profile editor would), so a bench run is never cut short by its budget.
 */
export async function raiseWriterBudgets(page: Page): Promise<void> {
    const profile = { ...WRITER_PROFILE, tools: { ...WRITER_PROFILE.tools, maxRounds: 500, maxCallsPerRun: 2000 } };
    await page.evaluate((writer) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles?: Record<string, unknown> }>;
        settings.tavern_agent ??= { profiles: {} };
        settings.tavern_agent.profiles ??= {};
        settings.tavern_agent.profiles.writer = writer;
    }, profile);
}

export async function openPanel(page: Page): Promise<void> {
    const open = await page.evaluate(() => Boolean(document.querySelector('#tavern_agent_panel_root .tavern-agent')));
    if (!open) await page.click('#tavern_agent_button .drawer-icon');
    await page.waitForSelector('#tavern_agent_panel_root .tavern-agent');
}

export async function closePanel(page: Page): Promise<void> {
    const open = await page.evaluate(() => Boolean(document.querySelector('#tavern_agent_panel_root .tavern-agent')));
    if (open) await page.click('#tavern_agent_button .drawer-icon');
    await page.waitForSelector('#tavern_agent_panel_root .tavern-agent', { state: 'detached' });
}

/** A fresh page on a new chat with Agent Mode on, the panel open and the budgets raised. */
export async function openAgentPage(tavern: BenchTavern): Promise<{ page: Page; close(): Promise<void> }> {
    const { page, context } = await tavern.openChat();
    await newChat(page);
    await raiseWriterBudgets(page);
    await agentOn(page);
    await openPanel(page);
    return { page, close: () => context.close().catch(() => undefined) };
}

/** Sends a message and waits until SillyTavern is idle again and the run has ended. */
export async function sendAndWait(page: Page, text: string, timeoutMs = 120_000): Promise<void> {
    const before = await page.evaluate(() => SillyTavern!.getContext().chat.length);
    await page.evaluate((message) => {
        const textarea = document.getElementById('send_textarea') as HTMLTextAreaElement;
        textarea.value = message;
        textarea.dispatchEvent(new Event('input', { bubbles: true }));
        (document.getElementById('send_but') as HTMLElement).click();
    }, text);
    await page.waitForFunction(
        (n) =>
            SillyTavern!.getContext().chat.length > n &&
            document.body.dataset.generating === undefined &&
            !globalThis.TavernAgent?.status().run,
        before,
        { timeout: timeoutMs, polling: 50 },
    );
}
