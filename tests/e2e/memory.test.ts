// Issue 14 §1: the chat's memory (persist/) travels with the chat, in the `extra` of the message a run
// committed (per swipe), so a second device or cleared site data (a fresh browser context = a fresh
// IndexedDB) starts its next run from it; a memory over the bound still commits, warns and stays local.
import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { openCharacter, sendMessage } from '../harness/browser';
import { call, calls, chatLines, openAgentChat, toolResults } from '../harness/agent';
import { startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';

/** What a message's `extra.tavern_agent.memory` holds (issue 14): the files in full, or a delta on an earlier agent message. */
interface Memory {
    v: number;
    files?: Record<string, string>;
    base?: string;
    changed?: Record<string, string>;
    removed?: string[];
}

/** One chat message as far as memory goes: its marker, and the marker of every swipe. */
interface MemoryLine {
    is_user: boolean;
    mes: string;
    marker: { runId?: string; memory?: Memory } | null;
    swipeId: number | null;
    swipeMarkers: Array<{ runId?: string; memory?: Memory } | null>;
}

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

async function memoryLines(page: Page): Promise<MemoryLine[]> {
    return page.evaluate(() =>
        SillyTavern!.getContext().chat.map((m) => {
            const info = (m as { swipe_info?: Array<{ extra?: Record<string, unknown> } | undefined> }).swipe_info;
            return {
                is_user: m.is_user,
                mes: m.mes,
                marker: (m.extra?.tavern_agent as MemoryLine['marker'] | undefined) ?? null,
                swipeId: typeof m.swipe_id === 'number' ? m.swipe_id : null,
                swipeMarkers: Array.isArray(info) ? info.map((i) => (i?.extra?.tavern_agent as MemoryLine['marker'] | undefined) ?? null) : [],
            };
        }),
    );
}

/** The marker a message shows: its current one, or that of one of its swipes. */
function markerAt(line: MemoryLine, swipe?: number): MemoryLine['marker'] {
    return swipe === undefined ? line.marker : (line.swipeMarkers[swipe] ?? null);
}

/**
 * The persist/ files a run starting after message `index` (as shown, or showing swipe `swipe`) gets from
 * the chat alone, as a device without any cache must: the newest agent message at or before it whose
 * memory resolves, a delta applied onto the memory of the earlier message it names as its base. A message
 * whose run left the memory unchanged may carry none: the one before it then speaks for it.
 */
function chatMemoryAt(lines: MemoryLine[], index: number, swipe?: number): Record<string, string> {
    const resolve = (at: number, marker: MemoryLine['marker'], chain: string[]): Record<string, string> | null => {
        const memory = marker?.memory;
        if (!memory) return null;
        assert.equal(memory.v, 1);
        if (memory.files) return { ...memory.files };
        assert.ok(memory.base, `a memory is either full files or a delta with a base: ${JSON.stringify(memory)}`);
        assert.ok(!chain.includes(memory.base), `a memory delta chain loops: ${[...chain, memory.base].join(' → ')}`);
        const baseAt = lines.findIndex((line, i) => i < at && line.marker?.runId === memory.base);
        assert.ok(baseAt >= 0, `the base of run ${marker.runId}'s delta (run ${memory.base}) is an earlier message of the chat`);
        const base = resolve(baseAt, lines[baseAt]!.marker, [...chain, memory.base]);
        assert.ok(base, `the base of run ${marker.runId}'s delta (run ${memory.base}) carries its memory in the chat`);
        for (const removed of memory.removed ?? []) delete base[removed];
        return { ...base, ...(memory.changed ?? {}) };
    };
    for (let i = index; i >= 0; i -= 1) {
        const marker = i === index ? markerAt(lines[i]!, swipe) : lines[i]!.marker;
        if (!marker?.runId) continue;
        const found = resolve(i, marker, [marker.runId]);
        if (found) return found;
    }
    return {};
}

/** The chat as SillyTavern saved it on the server: the file that travels to other devices and into exports. */
function savedChat(chatId: string): Array<{ is_user?: boolean; mes?: string; extra?: { tavern_agent?: { runId?: string; memory?: Memory } } }> {
    const chats = path.join(session.st.userDir, 'chats');
    const file = readdirSync(chats, { recursive: true, encoding: 'utf8' }).find((name) => path.basename(name) === `${chatId}.jsonl`);
    assert.ok(file, `SillyTavern saved ${chatId}.jsonl`);
    return readFileSync(path.join(chats, file), 'utf8')
        .split('\n')
        .filter((line) => line.trim())
        .slice(1) // the header line holds the chat's metadata
        .map((line) => JSON.parse(line));
}

/** Waits until neither SillyTavern nor the agent is busy (a swipe or regenerate has no sendMessage to wait on). */
async function waitForIdle(page: Page): Promise<void> {
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 30_000 });
}

/** "Another device of the same user": a fresh browser context (fresh IndexedDB) that opens an existing chat. */
async function openOnAnotherDevice(chatId: string, messages: number): Promise<Page> {
    const { page } = await session.open();
    await waitForExtension(page);
    await openCharacter(page);
    await page.evaluate((id) => SillyTavern!.getContext().openCharacterChat(id), chatId);
    await page.waitForFunction(
        ([id, n]) => SillyTavern!.getContext().getCurrentChatId() === id && SillyTavern!.getContext().chat.length === n,
        [chatId, messages] as const,
        { timeout: 30_000 },
    );
    assert.equal(await page.evaluate(() => globalThis.TavernAgent!.status().enabled), true, 'Agent Mode is on: it lives in the chat');
    return page;
}

/** A run's closing turn: the reply, committed, and the run finished. */
function reply(text: string) {
    return calls(call('workspace_write_file', { path: 'output/main.md', content: text }), call('workspace_commit', {}), call('workspace_finish', {}));
}

/** The result the model was shown, in the given request of the current run, for its one call of `name`. */
function shownResult(request: number, name: string): string {
    const found = toolResults(session.mock.generations()[request]!).filter((r) => r.name === name);
    assert.equal(found.length, 1, `request ${request + 1} carries one ${name} result`);
    return found[0]!.content;
}

// The first three tests follow one chat across two devices, in order: A writes the memory, B reads it and
// adds to it, then B swipes. Each sets up what the next needs before asserting, so a failure in one still
// lets the next say what it sees.
//
// Device A is the page the tests that need no other device take again (a page load is seconds of CPU): each
// works in its own new chat. "Another device" is always a page of its own, with fresh storage.
let chatId = '';
let deviceB: Page | undefined;

test('device A: a run that writes persist/notes.md leaves it in the extra of the message it committed, in the saved chat too', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    chatId = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'persist/notes.md', content: 'The bridge fell.' })), reply('I will remember the bridge.'));
    await sendMessage(page, 'Remember: the bridge fell.');
    await waitForIdle(page);

    const lines = await memoryLines(page);
    assert.equal(lines.length, 3, 'the greeting, the user message and one reply');
    const last = lines.at(-1)!;
    assert.equal(last.is_user, false);
    assert.equal(last.mes, 'I will remember the bridge.');
    assert.ok(last.marker?.runId, 'the reply carries its run id');
    // The chat's first agent message has nothing to be a delta of: the files in full.
    assert.deepEqual(last.marker!.memory, { v: 1, files: { 'persist/notes.md': 'The bridge fell.' } });
    assert.deepEqual(last.swipeMarkers[last.swipeId ?? 0], last.marker, "the current swipe's swipe_info carries the same marker");

    const saved = savedChat(chatId).at(-1)!;
    assert.equal(saved.mes, 'I will remember the bridge.');
    assert.deepEqual(saved.extra?.tavern_agent, last.marker, "the chat file on the server carries the memory");
});

test('device B (fresh IndexedDB): the next run in the same chat reads the memory A wrote', async () => {
    assert.ok(chatId, 'the first test made the chat');
    deviceB = await openOnAnotherDevice(chatId, 3);
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_read_file', { path: 'persist/notes.md' })), reply('The bridge is gone.'));
    await sendMessage(deviceB, 'What do you remember?');
    await waitForIdle(deviceB);

    const read = shownResult(1, 'workspace_read_file');
    assert.doesNotMatch(read, /^ERROR/, 'not workspace.file_not_found');
    assert.match(read, /The bridge fell\./);
    const lines = await chatLines(deviceB);
    assert.equal(lines.length, 5);
    assert.equal(lines.at(-1)!.mes, 'The bridge is gone.');
    // A run that left persist/ as it was may write nothing, but the chat still says what its memory is.
    const memory = await memoryLines(deviceB);
    assert.deepEqual(chatMemoryAt(memory, memory.length - 1), { 'persist/notes.md': 'The bridge fell.' });
});

test('device B: a run appends to the memory; a swipe of that reply starts from the memory before it', async () => {
    assert.ok(deviceB, 'the second test opened the chat on device B');
    const page = deviceB;
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'persist/notes.md', content: '\nThe ferry sank.', mode: 'append' })), reply('Noted: the ferry.'));
    await sendMessage(page, 'Remember: the ferry sank.');
    await waitForIdle(page);
    const afterAppend = await memoryLines(page);
    assert.equal(afterAppend.length, 7);
    const appended = afterAppend.at(-1)!;
    assert.equal(appended.mes, 'Noted: the ferry.');
    assert.ok(appended.marker?.memory, 'a run that changed the memory writes it into its message');
    assert.deepEqual(chatMemoryAt(afterAppend, afterAppend.length - 1), { 'persist/notes.md': 'The bridge fell.\nThe ferry sank.' });

    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_read_file', { path: 'persist/notes.md' })), reply('Only the bridge.'));
    await page.locator('#chat .mes').last().locator('.swipe_right').click();
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Only the bridge.', undefined, { timeout: 30_000 });
    await waitForIdle(page);

    const read = shownResult(1, 'workspace_read_file');
    assert.doesNotMatch(read, /^ERROR/);
    assert.match(read, /The bridge fell\./);
    assert.doesNotMatch(read, /The ferry sank\./, "the swiped reply's memory is not the swipe's starting point");

    const lines = await memoryLines(page);
    assert.equal(lines.length, 7, 'a swipe adds no message');
    const swiped = lines.at(-1)!;
    assert.equal(swiped.swipeId, 1);
    assert.notEqual(swiped.marker?.runId, appended.marker?.runId, 'the swipe belongs to its own run');
    assert.deepEqual(swiped.swipeMarkers[1], swiped.marker, "the new swipe's swipe_info carries the same marker");
    assert.deepEqual(chatMemoryAt(lines, lines.length - 1), { 'persist/notes.md': 'The bridge fell.' });
    // Every branch keeps its own memory: the first swipe still holds the ferry.
    assert.deepEqual(swiped.swipeMarkers[0], appended.marker);
    assert.deepEqual(chatMemoryAt(lines, lines.length - 1, 0), { 'persist/notes.md': 'The bridge fell.\nThe ferry sank.' });
    await closePage(page);
    deviceB = undefined;
});

test('a memory over 256 KB: the run commits, a warning is shown, the message carries no memory, and the next run here still reads it', async () => {
    // Device A again, in a new chat: the memory kept in this browser is this chat's.
    const page = await openAgentChat(session, { reuse: true, panel: false });
    const ending = 'END-OF-THE-LEDGER';
    const big = 'x'.repeat(300_000 - ending.length) + ending;
    // Every warning toast shown from now on, with its text (toasts fade, so they are caught as they appear).
    await page.evaluate(() => {
        const seen: string[] = [];
        const counted = new WeakSet<Element>(); // a toast added with its new container is reported twice
        (globalThis as { memoryTestWarnings?: string[] }).memoryTestWarnings = seen;
        const observer = new MutationObserver(() => {
            for (const toast of document.querySelectorAll('#toast-container .toast-warning')) {
                if (counted.has(toast)) continue;
                counted.add(toast);
                seen.push(toast.textContent ?? '');
            }
        });
        observer.observe(document.body, { childList: true, subtree: true });
        // Disconnected at the end: a later test takes this page again.
        (globalThis as { memoryTestObserver?: MutationObserver }).memoryTestObserver = observer;
    });

    session.mock.enqueue(calls(call('workspace_write_file', { path: 'persist/ledger.md', content: big })), reply('The ledger is written.'));
    await sendMessage(page, 'Write the whole ledger down.');
    await waitForIdle(page);
    await page.waitForFunction(() => ((globalThis as { memoryTestWarnings?: string[] }).memoryTestWarnings ?? []).length > 0, undefined, { timeout: 10_000 });
    const warnings = await page.evaluate(() => (globalThis as { memoryTestWarnings?: string[] }).memoryTestWarnings ?? []);
    assert.equal(warnings.length, 1, `one warning: ${JSON.stringify(warnings)}`);
    assert.match(warnings[0]!, /too large to travel with the chat \(over 256 KB\)/);
    assert.match(warnings[0]!, /kept in this browser/);

    const lines = await memoryLines(page);
    assert.equal(lines.length, 3);
    const last = lines.at(-1)!;
    assert.equal(last.mes, 'The ledger is written.', 'the run committed its reply');
    assert.ok(last.marker?.runId, 'the reply carries its run id');
    assert.equal(last.marker!.memory, undefined, 'no memory in the message');
    assert.equal(last.swipeMarkers[last.swipeId ?? 0]?.memory, undefined, 'nor in its swipe_info');

    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_read_file', { path: 'persist/ledger.md', start_char: 300_000 - ending.length })), reply('Still here.'));
    await sendMessage(page, 'How does the ledger end?');
    await waitForIdle(page);
    const read = shownResult(1, 'workspace_read_file');
    assert.doesNotMatch(read, /^ERROR/, 'the memory kept in this browser is still there');
    assert.match(read, /END-OF-THE-LEDGER/);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Still here.');
    await page.evaluate(() => (globalThis as { memoryTestObserver?: MutationObserver }).memoryTestObserver?.disconnect());
});

test('a chat exported from SillyTavern and imported as a new chat keeps its memory for the next run, on a fresh browser', async () => {
    assert.ok(chatId, 'the first test made the chat');
    // SillyTavern's own export is the chat's .jsonl file, and importing one stores it as a new chat: do both
    // on disk, then open the copy where no run ever happened.
    const chats = path.join(session.st.userDir, 'chats');
    const file = readdirSync(chats, { recursive: true, encoding: 'utf8' }).find((name) => path.basename(name) === `${chatId}.jsonl`)!;
    const copyId = `${chatId} imported`;
    copyFileSync(path.join(chats, file), path.join(chats, path.dirname(file), `${copyId}.jsonl`));
    const page = await openOnAnotherDevice(copyId, 7);
    // Its journals stayed behind: the panel names the agent replies made elsewhere, with the memory they carry.
    await page.locator('#tavern_agent_button .drawer-icon').click();
    await page.locator('[data-remote-replies]').waitFor({ timeout: 30_000 });
    assert.match((await page.locator('[data-remote-replies]').textContent()) ?? '', /persist\/notes\.md/);
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_read_file', { path: 'persist/notes.md' })), reply('Imported, and I still remember.'));
    await sendMessage(page, 'Do you remember?');
    await waitForIdle(page);
    const read = shownResult(1, 'workspace_read_file');
    assert.doesNotMatch(read, /^ERROR/);
    assert.match(read, /The bridge fell\./);
    await closePage(page);
});

test('deleting an agent reply takes its memory with it, on a device that never ran the agent', async () => {
    // Device A again, in a new chat; the other device is a page of its own.
    const page = await openAgentChat(session, { reuse: true, panel: false });
    const id = await page.evaluate(() => SillyTavern!.getContext().getCurrentChatId()!);
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'persist/notes.md', content: 'First memory.' })), reply('One.'));
    await sendMessage(page, 'One.');
    await waitForIdle(page);
    session.mock.enqueue(calls(call('workspace_write_file', { path: 'persist/notes.md', content: 'Second memory.' })), reply('Two.'));
    await sendMessage(page, 'Two.');
    await waitForIdle(page);

    const other = await openOnAnotherDevice(id, 5);
    // SillyTavern's own deletion of the last message (the context API has it; our typing of the context does not).
    await other.evaluate(() => (SillyTavern!.getContext() as unknown as { deleteLastMessage(): Promise<void> }).deleteLastMessage());
    await other.waitForFunction(() => SillyTavern!.getContext().chat.length === 4, undefined, { timeout: 30_000 });
    session.mock.reset();
    session.mock.enqueue(calls(call('workspace_read_file', { path: 'persist/notes.md' })), reply('Three.'));
    await sendMessage(other, 'What do you remember now?');
    await waitForIdle(other);
    const read = shownResult(1, 'workspace_read_file');
    assert.match(read, /First memory\./);
    assert.doesNotMatch(read, /Second memory\./, "the deleted reply's memory went with it");
    await closePage(other);
});
