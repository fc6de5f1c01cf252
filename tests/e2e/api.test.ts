import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { call, calls, chatLines, offeredTools, openAgentChat } from '../harness/agent';
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
    page = await openAgentChat(session, { panel: false, reuse: true });
});

interface Seen {
    seq: number;
    type: string;
    at: number;
    payload: unknown;
}

const lastUserText = (body: { messages: Array<{ role: string; content: unknown }> }) =>
    String(body.messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');

/** Resolves with every event of the run, through subscribe from `fromSeq`, once the run has ended. */
function collectUntilEnd(p: Page, runId: string, fromSeq: number): Promise<Seen[]> {
    return p.evaluate(
        ({ id, from }) =>
            new Promise<Seen[]>((resolve) => {
                const seen: Seen[] = [];
                const off = globalThis.TavernAgent!.subscribe(
                    id,
                    (event) => {
                        seen.push(event as Seen);
                        const to = (event.payload as { to?: string } | null)?.to;
                        if (event.type === 'run-state' && (to === 'completed' || to === 'failed' || to === 'cancelled')) {
                            off();
                            resolve(seen);
                        }
                    },
                    { fromSeq: from },
                );
            }),
        { id: runId, from: fromSeq },
    );
}

test('/agent run runs a background agent and returns its summary to the pipe; nothing reaches the chat', async () => {
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'summaries/summary.md', content: 'Seraphina guards the glade.' })),
        calls(call('workspace_finish', { reason: 'done' })),
    );
    const before = await chatLines(page);
    const summary = await slash(page, '/agent run Summarize the story so far.');
    assert.equal(summary, 'Seraphina guards the glade.');
    assert.deepEqual(await chatLines(page), before, 'a background run commits nothing');

    const [first] = session.mock.generations();
    assert.equal(lastUserText(first!.body), 'Summarize the story so far.', 'the prompt is the last thing the model reads');
    assert.ok(!offeredTools(first!).includes('workspace_commit'), 'a background run is not offered workspace_commit');

    const runs = await page.evaluate(() => globalThis.TavernAgent!.runs({ chatId: globalThis.TavernAgent!.status().chatId! }));
    assert.equal(runs.length, 1);
    assert.equal(runs[0]!.state, 'completed');
    const runId = runs[0]!.runId;
    const files = await page.evaluate((id) => globalThis.TavernAgent!.files(id), runId);
    assert.ok(files.includes('summaries/summary.md'));
    assert.equal(await page.evaluate((id) => globalThis.TavernAgent!.readFile(id, 'summaries/summary.md'), runId), 'Seraphina guards the glade.');
});

test('subscribe from 0 after a run replays exactly its journal; events() pages it with fromSeq inclusive', async () => {
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'summaries/summary.md', content: 'done' })),
        calls(call('workspace_finish', {})),
    );
    const runId = await page.evaluate(() => globalThis.TavernAgent!.run({ prompt: 'Take notes.' }));
    const live = await collectUntilEnd(page, runId, 0);
    const journal = await page.evaluate((id) => globalThis.TavernAgent!.events(id), runId);
    assert.deepEqual(live, journal, 'the subscription saw the journal, no more, no less');
    assert.deepEqual(journal.map((e) => e.seq), journal.map((_, i) => i), 'seq has no gap');
    assert.equal(journal[0]!.type, 'run-create');

    const replay = await collectUntilEnd(page, runId, 0);
    assert.deepEqual(replay, journal, 'a replay after the end is the journal');
    const page2 = await page.evaluate((id) => globalThis.TavernAgent!.events(id, { fromSeq: 3, limit: 2 }), runId);
    assert.deepEqual(page2, journal.slice(3, 5));
});

test('a subscriber that joins mid-run misses nothing and sees nothing twice', async () => {
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'scratch/a.md', content: 'a' })),
        { ...calls(call('workspace_write_file', { path: 'summaries/summary.md', content: 'b' })), delayMs: 1500 },
        calls(call('workspace_finish', {})),
    );
    const runId = await page.evaluate(() => globalThis.TavernAgent!.run({ prompt: 'Work slowly.' }));
    await session.mock.waitForGenerations(2, 30_000);
    // The run is now waiting on its second model turn: some events are stored, more are coming.
    const [fromZero, fromTwo] = await Promise.all([collectUntilEnd(page, runId, 0), collectUntilEnd(page, runId, 2)]);
    const journal = await page.evaluate((id) => globalThis.TavernAgent!.events(id), runId);
    assert.ok(journal.length > 10);
    assert.deepEqual(fromZero, journal);
    assert.deepEqual(fromTwo, journal.slice(2));
});

test('run() refuses a second run while one is going on, and cancel() stops it', async () => {
    session.mock.enqueue({ ...calls(call('workspace_finish', {})), delayMs: 60_000 });
    const runId = await page.evaluate(() => globalThis.TavernAgent!.run({ prompt: 'Wait.' }));
    await session.mock.waitForGenerations(1, 30_000);
    const second = await page.evaluate(() => globalThis.TavernAgent!.run({ prompt: 'Again.' }).then(() => 'started', (error: Error) => error.message));
    assert.match(second, /run\.already_running/);
    const ended = collectUntilEnd(page, runId, 0);
    assert.equal(await page.evaluate((id) => globalThis.TavernAgent!.cancel(id), runId), true);
    const events = await ended;
    assert.equal(events.at(-1)!.type, 'run-state');
    assert.equal((events.at(-1)!.payload as { to: string }).to, 'cancelled');
    // Its last event reaches subscribers before the page has let the run go (the worker answers after it):
    // resume once the run is over for the page too, or it is refused as still running.
    await page.waitForFunction(() => !globalThis.TavernAgent!.status().run, undefined, { timeout: 10_000, polling: 50 });
    const resume = await page.evaluate((id) => globalThis.TavernAgent!.resume(id).then(() => 'resumed', (error: Error) => error.message), runId);
    assert.match(resume, /cancelled; only an interrupted run can be resumed\. \(run\.not_interrupted\)/, 'a cancelled run is not resumed');
});

test('the pipeline: /agent pipeline and TavernAgent.pipeline set it, refuse an unknown profile with its code and change nothing; typed alone it answers in a toast', async () => {
    assert.deepEqual(JSON.parse(await slash(page, '/agent pipeline')), { before: null, reply: 'agent', after: [] }, 'the default');
    assert.deepEqual(JSON.parse(await slash(page, '/agent pipeline after=memory-keeper reply=sillytavern')), { before: null, reply: 'sillytavern', after: ['memory-keeper'] });
    assert.equal(await slash(page, '/agent pipeline before=nobody-here'), '', 'refused: the pipe gets nothing');
    await page.locator('#toast-container .toast', { hasText: 'profile.not_found' }).waitFor();
    const refused = await page.evaluate(() =>
        Promise.all([
            globalThis.TavernAgent!.pipeline.set({ after: ['no-such-keeper'] }).then(() => 'set', (error: { code?: string }) => error.code),
            globalThis.TavernAgent!.pipeline.set({ reply: 'both' as 'agent' }).then(() => 'set', (error: { code?: string }) => error.code),
        ]),
    );
    assert.deepEqual(refused, ['profile.not_found', 'pipeline.invalid']);
    const unchanged = { before: null, reply: 'sillytavern', after: ['memory-keeper'] };
    assert.deepEqual(await page.evaluate(() => globalThis.TavernAgent!.pipeline.get()), unchanged);
    assert.deepEqual(JSON.parse(await slash(page, '/agent status')).pipeline, unchanged, '/agent status includes it');
    assert.deepEqual(await page.evaluate(() => globalThis.TavernAgent!.pipeline.set({ before: 'director', after: [] })), { before: 'director', reply: 'sillytavern', after: [] });

    await page.fill('#send_textarea', '/agent pipeline');
    await page.click('#send_but');
    await page.locator('#toast-container .toast', { hasText: 'Before the reply: director. Reply: SillyTavern. After the reply: nobody.' }).waitFor();
    await slash(page, '/agent pipeline before=none reply=agent');
});
