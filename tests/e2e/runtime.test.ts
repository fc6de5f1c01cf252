import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { sendMessage } from '../harness/browser';
import { call, openAgentChat, calls, chatLines, lastRunState, offeredTools, toolMessages, toolResults, WORKSPACE_ALIASES } from '../harness/agent';
import { startTavernSession, type TavernSession } from '../harness/tavern';

let session: TavernSession;
let page: Page;

before(async () => {
    session = await startTavernSession();
});

after(async () => {
    await session?.close();
});

/** A new chat with Agent Mode on and the panel open, on the page the last test left idle. */
beforeEach(async () => {
    page = await openAgentChat(session, { reuse: true });
});

test('a run using all seven workspace tools commits exactly one clean reply', async () => {
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Draft: the forest is quiet.' })),
        calls(call('workspace_list_files', {}), call('workspace_search_files', { query: 'forest' })),
        calls(call('workspace_read_file', { path: 'output/main.md' })),
        calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'Draft: the forest is quiet.', new_string: '*The forest is quiet tonight.*' })),
        calls(call('workspace_commit', {})),
        calls(call('workspace_finish', { reason: 'done' })),
    );
    const before = await chatLines(page);
    await sendMessage(page, 'Tell me about the forest.');
    const after = await chatLines(page);

    assert.equal(after.length, before.length + 2, 'the user message and one reply');
    const reply = after.at(-1)!;
    assert.equal(reply.is_user, false);
    assert.equal(reply.mes, '*The forest is quiet tonight.*');
    assert.ok(reply.runId, 'the reply carries its run id');
    assert.equal(after.filter((m) => m.is_system).length, before.filter((m) => m.is_system).length, 'no system or tool messages');
    assert.equal(await page.locator('#chat .mes').last().locator('.mes_text').innerText(), 'The forest is quiet tonight.');

    const requests = session.mock.generations();
    assert.equal(requests.length, 6);
    assert.deepEqual(
        offeredTools(requests[0]!),
        [...WORKSPACE_ALIASES, 'agent_await', 'agent_delegate', 'agent_list', 'chat_read_messages', 'chat_search', 'memory_search', 'plan_update', 'script_run', 'skill_list', 'skill_read', 'skill_run_script', 'skill_search', 'state_get', 'state_patch', 'state_scopes', 'state_set', 'worldinfo_propose', 'worldinfo_read', 'worldinfo_read_activated', 'worldinfo_search'].sort(),
    );
    // Each request carries one result for every call made so far, answering those calls in order.
    const called: string[] = [];
    requests.forEach((request, i) => {
        assert.deepEqual(toolResults(request).map((r) => r.name), called, `request ${i + 1} carries the results of every earlier call`);
        called.push(...(request.answeredWith?.toolCalls ?? []).map((c) => c.name));
    });
    const resultOf = (round: number, name: string) => {
        const found = toolResults(requests[round]!).filter((r) => r.name === name);
        assert.equal(found.length, 1, `one ${name} result in request ${round + 1}`);
        return found[0]!.content;
    };
    assert.match(resultOf(5, 'workspace_commit'), /Committed output\/main\.md/);
    const listing = resultOf(2, 'workspace_list_files');
    assert.doesNotMatch(listing, /^ERROR/);
    assert.match(listing, /main\.md/, 'list_files showed the draft');
    assert.match(resultOf(2, 'workspace_search_files'), /workspace:output\/main\.md#L1/, 'search_files found the draft');
    assert.match(resultOf(3, 'workspace_read_file'), /Draft: the forest is quiet\./, 'read_file returned the text');
    assert.equal(await lastRunState(page), 'completed');
});

test('hostile paths get recoverable errors with the right codes, and the run goes on', async () => {
    const hostile: Array<[string, string, string]> = [
        ['../x', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['/etc/passwd', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['C:\\x', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['a\\b', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['input/prompt.json', 'workspace.path_not_visible', 'workspace.path_not_writable'],
        ['tool-results/x', 'workspace.path_not_visible', 'workspace.path_not_writable'],
        ['checkpoints/x', 'workspace.path_not_visible', 'workspace.path_not_writable'],
        ['events.jsonl', 'workspace.path_not_visible', 'workspace.path_not_writable'],
        ['output/a\u0000b', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['', 'workspace.invalid_path', 'workspace.invalid_path'],
    ];
    const listAll = call('workspace_list_files', { path: '', depth: 4 });
    session.mock.enqueue(
        calls(listAll, ...hostile.map(([path]) => call('workspace_read_file', { path }))),
        calls(...hostile.map(([path]) => call('workspace_write_file', { path, content: 'pwned' }))),
        calls(listAll),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Still standing.' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Try the paths.');
    const requests = session.mock.generations();
    assert.equal(requests.length, 4);
    const [before, ...reads] = toolMessages(requests[1]!);
    const writes = toolMessages(requests[2]!).slice(reads.length + 1);
    assert.equal(reads.length, hostile.length);
    assert.equal(writes.length, hostile.length);
    hostile.forEach(([path, readCode, writeCode], i) => {
        assert.match(reads[i]!.content, new RegExp(`^ERROR ${readCode.replace('.', '\\.')}:`), `read ${JSON.stringify(path)}`);
        assert.match(writes[i]!.content, new RegExp(`^ERROR ${writeCode.replace('.', '\\.')}:`), `write ${JSON.stringify(path)}`);
    });
    const listing = toolMessages(requests[3]!).at(-1)!.content;
    assert.doesNotMatch(before!.content, /^ERROR/);
    assert.equal(listing, before!.content, 'nothing was written anywhere: the workspace lists as it did before the writes');
    assert.doesNotMatch(listing, /passwd|tool-results|checkpoints|events\.jsonl|input\//, 'and no hidden store is listed');
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Still standing.');
    assert.equal(await lastRunState(page), 'completed');
});

test('apply_patch: no read, stale, 0 matches, several matches, replace_all and no change', async () => {
    const p = 'scratch/s.md';
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'one two two' })),
        // A file the run created counts as read; patching another path that was never read does not.
        calls(call('workspace_apply_patch', { path: p, old_string: 'a', new_string: 'b' })),
        calls(call('workspace_write_file', { path: p, content: 'alpha', mode: 'append' })),
        calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'three', new_string: '3' })),
        calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'two', new_string: '2' })),
        calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'two', new_string: 'two' })),
        calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'two', new_string: '2', replace_all: true })),
        calls(call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Patch it.');
    const requests = session.mock.generations();
    const result = (round: number) => toolMessages(requests[round]!).at(-1)!.content;
    assert.match(result(2), /^ERROR workspace\.file_not_found:/);
    assert.match(result(4), /^ERROR workspace\.patch_not_found:/);
    assert.match(result(5), /^ERROR workspace\.patch_not_unique:/);
    assert.match(result(6), /^ERROR workspace\.patch_no_change:/);
    assert.doesNotMatch(result(7), /^ERROR/);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'one 2 2');
});

test('finish before commit is refused; replace then append give the right text', async () => {
    session.mock.enqueue(
        calls(call('workspace_finish', {})),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'First version.' }), call('workspace_commit', {})),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Second version.' }), call('workspace_commit', { mode: 'replace' })),
        calls(call('workspace_write_file', { path: 'output/more.md', content: 'And a postscript.' }), call('workspace_commit', { path: 'output/more.md', mode: 'append' })),
        calls(call('workspace_finish', { reason: 'complete' })),
    );
    const before = (await chatLines(page)).length;
    await sendMessage(page, 'Write it in steps.');
    const requests = session.mock.generations();
    assert.match(toolMessages(requests[1]!)[0]!.content, /^ERROR workspace\.commit_required:/);
    const lines = await chatLines(page);
    assert.equal(lines.length, before + 2, 'three commits, one message');
    assert.equal(lines.at(-1)!.mes, 'Second version.\n\nAnd a postscript.');
    assert.equal(await lastRunState(page), 'completed');
});

test('a tool the profile does not allow, an unknown tool and non-JSON arguments are recoverable', async () => {
    session.mock.enqueue(
        calls(
            call('dice_roll', { formula: '1d6' }),
            call('no_such_tool', {}),
            { name: 'workspace_write_file', arguments: '{"path": "output/main.md", "content": ' },
            call('workspace_list_files', { depth: 9 }),
        ),
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Recovered.' }), call('workspace_commit', {}), call('workspace_finish', {})),
    );
    await sendMessage(page, 'Call odd things.');
    const shown = toolMessages(session.mock.generations()[1]!);
    assert.match(shown[0]!.content, /^ERROR tool\.not_allowed:/);
    assert.match(shown[1]!.content, /^ERROR tool\.not_allowed:/);
    assert.match(shown[2]!.content, /^ERROR tool\.invalid_arguments:.*not valid JSON/);
    assert.match(shown[3]!.content, /^ERROR tool\.invalid_arguments: Invalid arguments for workspace_list_files: depth/);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Recovered.');
});

test('Stop during a slow model call cancels the run; nothing is committed', async () => {
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'output/main.md', content: 'Never shown.' })),
        { delayMs: 20_000, toolCalls: [call('workspace_commit', {})] },
    );
    const before = await chatLines(page);
    await page.fill('#send_textarea', 'Take your time.');
    await page.click('#send_but');
    await session.mock.waitForGenerations(2, 15_000);
    await page.click('#mes_stop');
    await page.waitForFunction(() => document.querySelector('.tavern-agent__run')?.getAttribute('data-run-state') === 'cancelled', undefined, { timeout: 10_000 });
    await page.waitForFunction(() => document.body.dataset.generating === undefined);
    const after = await chatLines(page);
    assert.equal(after.length, before.length + 1, 'only the user message was added');
    assert.ok(after.every((m) => !m.mes.includes('Never shown')));
    const slow = session.mock.generations()[1]!;
    // The mock records the abort when the connection closes, which can come after the page shows the cancel.
    await session.mock.waitUntil(() => slow.aborted === true, 'the model call in flight to be aborted');
    assert.equal(JSON.parse(await page.evaluate(() => JSON.stringify(globalThis.TavernAgent!.status()))).run, null);
});

async function waitForIdle(): Promise<void> {
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 30_000 });
}

function commitTurns(text: string) {
    return [
        calls(call('workspace_write_file', { path: 'output/main.md', content: text })),
        calls(call('workspace_commit', {}), call('workspace_finish', {})),
    ];
}

test('regenerate replaces the last reply, and a swipe adds a swipe', async () => {
    session.mock.enqueue(...commitTurns('First answer.'));
    await sendMessage(page, 'Answer me.');
    const afterFirst = await chatLines(page);
    assert.equal(afterFirst.at(-1)!.mes, 'First answer.');

    session.mock.enqueue(...commitTurns('Regenerated answer.'));
    await page.click('#options_button');
    await page.click('#option_regenerate');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'Regenerated answer.', undefined, { timeout: 30_000 });
    await waitForIdle();
    const afterRegenerate = await chatLines(page);
    assert.equal(afterRegenerate.length, afterFirst.length, 'regenerate replaced the reply instead of adding one');
    const firstRun = afterFirst.at(-1)!.runId;
    assert.notEqual(afterRegenerate.at(-1)!.runId, firstRun, 'the new reply belongs to the new run');

    session.mock.enqueue(...commitTurns('A swiped answer.'));
    await page.locator('#chat .mes').last().locator('.swipe_right').click();
    await page.waitForFunction(() => SillyTavern!.getContext().chat.at(-1)?.mes === 'A swiped answer.', undefined, { timeout: 30_000 });
    await waitForIdle();
    const afterSwipe = await chatLines(page);
    assert.equal(afterSwipe.length, afterRegenerate.length, 'a swipe adds no message');
    const last = afterSwipe.at(-1)!;
    assert.deepEqual(last.swipes, ['Regenerated answer.', 'A swiped answer.']);
    assert.equal(last.swipeId, 1);
    // The swipe run saw the chat without the message it replaces.
    const swipeRequest = session.mock.generations().at(-2)!;
    const shown = JSON.stringify((swipeRequest.body as { messages: unknown[] }).messages);
    assert.doesNotMatch(shown, /Regenerated answer\./);
});
