import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sendMessage } from '../harness/browser';
import { agentOn, call, calls, chatLines, openAgentChat, toolMessages } from '../harness/agent';
import { slash, startTavernSession, type TavernSession } from '../harness/tavern';
import { bigBilingualChat, writeChatFile } from '../fixtures/chat-files';

let session: TavernSession;

/** The group chat of the last test: written before the first page loads, which reads the groups. */
const GROUP_ID = '1764400000000';

before(async () => {
    session = await startTavernSession();
    const userDir = session.st.userDir;
    writeChatFile(path.join(userDir, 'chats', 'default_Seraphina', 'Big chat.jsonl'), bigBilingualChat());
    mkdirSync(path.join(userDir, 'groups'), { recursive: true });
    writeFileSync(
        path.join(userDir, 'groups', `${GROUP_ID}.json`),
        JSON.stringify({ id: GROUP_ID, name: 'Fellowship', members: ['default_Seraphina.png'], disabled_members: [], chat_id: GROUP_ID, chats: [GROUP_ID], activation_strategy: 0, generation_mode: 0, allow_self_responses: false, auto_mode_delay: 5, fav: false }),
    );
    writeChatFile(path.join(userDir, 'group chats', `${GROUP_ID}.jsonl`), [
        { name: 'Seraphina', is_user: false, mes: 'Welcome, travellers.' },
        { name: 'Aria', is_user: false, mes: 'I carry the copper key.' },
        { name: 'Tester', is_user: true, mes: 'Who has the key?' },
    ]);
});

after(async () => {
    await session?.close();
});

function finishTurns(text = 'Done reading.') {
    return [calls(call('workspace_write_file', { path: 'output/main.md', content: text }), call('workspace_commit', {}), call('workspace_finish', {}))];
}

/** The `ref` indexes a chat.search result lists, in order. */
function hitIndexes(result: string): number[] {
    return [...result.matchAll(/ref chat:current#(\d+)/g)].map((m) => Number(m[1]));
}

// Every test takes the last test's page again (a page load is seconds of CPU): each keeps to its own chat, and
// the lorebook one makes is that chat's own.

test('chat.search and chat.read_messages over a 2,000-message bilingual chat', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await page.evaluate(() => SillyTavern!.getContext().openCharacterChat('Big chat'));
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 2000, undefined, { timeout: 30_000 });
    await agentOn(page);
    session.mock.reset();
    session.mock.enqueue(
        calls(
            call('chat_search', { query: 'silver lantern' }),
            call('chat_search', { query: '长城' }),
            call('chat_search', { query: 'lantern', role: 'user' }),
            call('chat_search', { query: 'lantern', start_message: 100, end_message: 899 }),
            call('chat_search', { query: 'lantern', scan_limit: 10 }),
            call('chat_search', { query: 'no such needle anywhere' }),
            call('chat_search', { query: 'lantern', limit: 51 }),
            call('chat_search', { query: 'lantern', role: 'system' }),
            call('chat_search', { query: '東京' }),
            call('worldinfo_read_activated', {}),
        ),
        calls(
            call('chat_read_messages', { messages: [{ index: 151 }, { index: 600 }] }),
            call('chat_read_messages', { messages: [{ index: 2001 }] }),
            call('chat_read_messages', { messages: Array.from({ length: 21 }, (_, i) => ({ index: i })) }),
            call('chat_read_messages', { messages: [{ index: 1998 }] }),
            call('chat_read_messages', { messages: [{ index: 1998, start_char: 0, max_chars: 8001 }] }),
            call('chat_read_messages', { messages: [{ index: 1998, start_char: 100, max_chars: 50 }] }),
            call('chat_read_messages', { messages: [{ index: 1, start_char: 5000 }] }),
        ),
        ...finishTurns(),
    );
    await sendMessage(page, 'What do you remember?');

    const searches = toolMessages(session.mock.generations()[1]!).map((m) => m.content);
    assert.deepEqual(hitIndexes(searches[0]!).slice(0, 4).sort((a, b) => a - b), [151, 800, 1200, 1999], 'every visible lantern, any case');
    assert.ok(!hitIndexes(searches[0]!).includes(900), 'a hidden message is left out unless the profile opts in');
    assert.deepEqual(hitIndexes(searches[1]!).sort((a, b) => a - b), [600, 1500], 'Chinese without spaces');
    assert.deepEqual(hitIndexes(searches[2]!).sort((a, b) => a - b), [151, 1999], 'only user messages');
    assert.deepEqual(hitIndexes(searches[3]!).sort((a, b) => a - b), [151, 800], 'only within 100..899');
    assert.deepEqual(hitIndexes(searches[4]!), [1999], 'scan_limit counts from the newest');
    assert.equal(hitIndexes(searches[5]!).length, 0);
    assert.doesNotMatch(searches[5]!, /^ERROR/, 'zero hits is a normal result');
    assert.match(searches[6]!, /^ERROR tool\.invalid_arguments:/, 'limit is at most 50');
    assert.deepEqual(hitIndexes(searches[7]!), [], 'the only system message is hidden, so left out by default');
    assert.deepEqual(hitIndexes(searches[8]!), [1700], 'Japanese without spaces');
    // No lorebook entry applies to this chat: that is "nothing activated", not "the activation was not captured".
    assert.match(searches[9]!, /^No world-info entries were activated for this turn/);

    const reads = toolMessages(session.mock.generations()[2]!).slice(searches.length).map((m) => m.content);
    assert.match(reads[0]!, /I found a Silver Lantern in the ruins\./);
    assert.match(reads[0]!, /我们明天去北京看长城/);
    assert.match(reads[0]!, /Tester/);
    assert.match(reads[1]!, /^ERROR chat\.message_not_found:/);
    assert.match(reads[2]!, /^ERROR chat\.read_too_large: .*21 messages requested, at most 20/s);
    assert.match(reads[3]!, /^ERROR chat\.read_too_large:.*12000/s, 'names the message length');
    assert.match(reads[4]!, /^ERROR chat\.read_too_large: .*max_chars 8001 for #1998 is over the 8000-char limit/s);
    assert.match(reads[5]!, /x{50}/);
    assert.doesNotMatch(reads[5]!, /x{51}/);
    assert.match(reads[6]!, /^ERROR chat\.invalid_range:/);
    assert.equal((await chatLines(page)).at(-1)!.mes, 'Done reading.');
});

test('a message added after the run started is not visible to it, nor is its own commit', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    session.mock.enqueue(
        { delayMs: 1500, toolCalls: [call('workspace_write_file', { path: 'output/main.md', content: 'A unicorn? I saw nothing.' })] },
        calls(call('workspace_commit', {})),
        calls(call('chat_search', { query: 'unicorn' }), call('chat_read_messages', { messages: [{ index: 2 }] })),
        calls(call('workspace_finish', {})),
    );
    await page.fill('#send_textarea', 'Did you see anything?');
    await page.click('#send_but');
    await session.mock.waitForGenerations(1, 15_000);
    await page.evaluate(() => SillyTavern!.getContext().executeSlashCommandsWithOptions('/sys A unicorn walks past.'));
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 30_000 });
    const shown = toolMessages(session.mock.generations()[3]!).map((m) => m.content);
    const [search, read] = shown.slice(-2);
    assert.equal(hitIndexes(search!).length, 0, 'neither the later message nor the commit is found');
    assert.match(read!, /^ERROR chat\.message_not_found:/, 'the prefix ends at the message that started the run');
    const lines = await chatLines(page);
    assert.ok(lines.some((m) => m.mes.includes('A unicorn walks past.')));
    assert.equal(lines.at(-1)!.mes, 'A unicorn? I saw nothing.');
});

test('worldinfo.read_activated lists exactly this turn\'s activated entries and reads them', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    const book = await slash(page, '/getchatbook');
    assert.ok(book, 'a chat lorebook was created');
    const dragon = await slash(page, `/createentry file="${book}" key=dragon Dragons sleep under the northern mountains.`);
    const mermaid = await slash(page, `/createentry file="${book}" key=mermaid Mermaids sing in the southern bay.`);
    const rule = await slash(page, `/createentry file="${book}" key=unused The forest remembers every footstep.`);
    await slash(page, `/setentryfield file="${book}" uid=${rule} field=constant true`);
    await slash(page, `/setentryfield file="${book}" uid=${dragon} field=comment Dragons`);
    session.mock.reset();
    session.mock.enqueue(
        calls(call('worldinfo_read_activated', {})),
        calls(
            call('worldinfo_read_activated', { entries: [{ ref: `worldinfo:${book}#${dragon}` }, { ref: `worldinfo:${book}#${rule}`, start_char: 4, max_chars: 6 }] }),
            call('worldinfo_read_activated', { entries: [{ ref: `worldinfo:${book}#${mermaid}` }] }),
        ),
        ...finishTurns('The dragon sleeps.'),
    );
    await sendMessage(page, 'Tell me about the dragon.');
    const listing = toolMessages(session.mock.generations()[1]!)[0]!.content;
    // The book name is taken literally: SillyTavern 1.18 names a new chat book "… (1)", with regex characters.
    const refPattern = (uid: string) => new RegExp(`worldinfo:${book.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}#${uid}\\b`);
    assert.match(listing, refPattern(dragon));
    assert.match(listing, refPattern(rule));
    assert.doesNotMatch(listing, refPattern(mermaid), 'an entry whose key is absent is not listed');
    assert.match(listing, /Dragons/);
    const [read, notActive] = toolMessages(session.mock.generations()[2]!).slice(1).map((m) => m.content);
    assert.match(read!, /Dragons sleep under the northern mountains\./);
    assert.match(read!, /forest/);
    assert.doesNotMatch(read!, /remembers every/, 'the range was honoured');
    assert.match(notActive!, /^ERROR worldinfo\.entry_not_found:/);
    // The same entries reached SillyTavern's own prompt for this turn (the run's starting context).
    assert.match(JSON.stringify(session.mock.generations()[0]!.body), /Dragons sleep under the northern mountains/);
});

test('in a group chat the tools work and hits carry their speaker\'s name', async () => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await page.evaluate(async (id) => {
        const groups = (await import(/* webpackIgnore: true */ '/scripts/group-chats.js' as string)) as { openGroupById(id: string): Promise<unknown> };
        await groups.openGroupById(id);
    }, GROUP_ID);
    await page.waitForFunction(() => Boolean(SillyTavern!.getContext().groupId) && SillyTavern!.getContext().chat.length === 3, undefined, { timeout: 20_000 });
    await agentOn(page);
    session.mock.reset();
    session.mock.enqueue(calls(call('chat_search', { query: 'copper key' }), call('chat_read_messages', { messages: [{ index: 1 }] })), ...finishTurns('Aria has it.'));
    await sendMessage(page, 'Tell me, who has the copper key?');
    const [search, read] = toolMessages(session.mock.generations()[1]!).map((m) => m.content);
    assert.match(search!, /#1 assistant Aria/);
    assert.match(JSON.stringify(session.mock.generations()[0]!.body), /I carry the copper key/, 'the group history reached the prompt');
    assert.match(read!, /#1 assistant Aria\b/);
    assert.match(read!, /I carry the copper key\./);
    const lines = await chatLines(page);
    assert.equal(lines.at(-1)!.mes, 'Aria has it.');
    assert.equal(lines.at(-1)!.name, 'Seraphina', 'the group member who was speaking got the reply');
});
