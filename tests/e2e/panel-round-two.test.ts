import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { call, calls, openAgentChat } from '../harness/agent';
import { startTavernSession, type TavernSession } from '../harness/tavern';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

/** The header's elapsed time in ms, as drawn ("788 ms", "2.3 s"; a test run stays under a minute). */
function readElapsed(page: Page): Promise<number | null> {
    return page.evaluate(() => {
        const stat = document.querySelector('.tavern-agent__run-header [data-stat="elapsed"]');
        if (!stat) return null;
        const match = /(-?[\d.]+)\s*(ms|s)\s*$/.exec((stat.textContent ?? '').trim());
        return match ? Number(match[1]) * (match[2] === 'ms' ? 1 : 1000) : null;
    });
}

test('the elapsed time runs forward, at least once a second, while the model is held 3 s', async () => {
    const page = await openAgentChat(session, { reuse: true });
    session.mock.enqueue({ ...calls(call('workspace_write_file', { path: 'output/main.md', content: 'Slow text.' })), delayMs: 3_000 }, calls(call('workspace_commit', {}), call('workspace_finish', { reason: 'done' })));
    await page.fill('#send_textarea', 'Take your time.');
    await page.click('#send_but');
    await page.locator('.tavern-agent__run[data-run-state="running"] .tavern-agent__event[data-kind="model"][data-status="running"]').waitFor();
    const samples: number[] = [];
    let rowMeta: string | null = null;
    // 2.6 s of samples, every 200 ms, while the held request is still out.
    for (let i = 0; i < 13; i++) {
        const value = await readElapsed(page);
        if (value !== null) samples.push(value);
        // Halfway, past a second: the running model row ticks too.
        if (i === 7) rowMeta = await page.locator('.tavern-agent__event[data-kind="model"][data-status="running"] .tavern-agent__event-meta').textContent({ timeout: 1_000 });
        await page.waitForTimeout(200);
    }
    samples.slice(1).forEach((value, i) => assert.ok(value >= samples[i]!, `elapsed went back: ${samples.join(', ')}`));
    assert.ok(samples.length >= 11 && samples.at(-1)! - samples[0]! >= 2_000, `elapsed grew too little: ${samples.join(', ')}`);
    assert.match(rowMeta ?? '', /^\d(\.\d)? s$/, 'the running model row shows its elapsed time, past a second');
    await page.locator('.tavern-agent__run[data-run-state="completed"]').waitFor({ timeout: 30_000 });
});
