// Scripts end to end (issue 35): a TauriTavern card's skill script runs in the sandbox worker; a spinning
// script is stopped at its time limit and the run goes on; one program tallies 50 searches of a 2,000-message
// chat in one model round; a program cannot write; a profile with scripts off is offered neither tool.
import { closePage } from '../harness/recycled-pages';
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { WRITER_PROFILE } from '../../src/contract/profile';
import { agentOn, call, calls, offeredTools, openAgentChat, restoreSettingsAfter, toolMessages } from '../harness/agent';
import { openCharacter, sendMessage } from '../harness/browser';
import { slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';
import { cardJson, importCard, offered, OFFER } from '../fixtures/cards';
import { bigBilingualChat, writeChatFile } from '../fixtures/chat-files';
import { skillMd } from '../fixtures/skill-files';

let session: TavernSession;

before(async () => {
    session = await startTavernSession();
    writeChatFile(path.join(session.st.userDir, 'chats', 'default_Seraphina', 'Big chat.jsonl'), bigBilingualChat());
});

after(async () => {
    await session?.close();
});

const finish = (text = 'Done.') => calls(call('workspace_write_file', { path: 'output/main.md', content: text }), call('workspace_commit', {}), call('workspace_finish', {}));

const STATS = skillMd('stat-table', 'Computes a stat table.', '# Stats\n\nRun `total` with `{ "bonus": n }`: it reads scratch/stats.json and writes scratch/total.md.');
const TOTAL = `import { workspace } from '@tauritavern/runtime';
import { sum } from './lib/sum.js';
export default function (args) {
    const stats = JSON.parse(workspace.readText('scratch/stats.json'));
    const total = sum(Object.values(stats)) + args.bonus;
    workspace.writeText('scratch/total.md', 'Total: ' + total);
    return { total };
}`;
const SUM = 'export const sum = (values) => values.reduce((a, b) => a + b, 0);';
const SPIN = 'export default function () { while (true) {} }';

/** TauriTavern's payload: one skill with scripts, inline files. */
function statsPayload() {
    return {
        version: 1,
        items: [
            {
                bundleFormat: 'inline-files-v1',
                skillName: 'stat-table',
                files: [
                    { path: 'SKILL.md', encoding: 'utf8', content: STATS },
                    { path: 'scripts/total.js', encoding: 'utf8', content: TOTAL },
                    { path: 'scripts/lib/sum.js', encoding: 'utf8', content: SUM },
                    { path: 'scripts/spin.js', encoding: 'utf8', content: SPIN },
                ],
                source: { kind: 'character', id: 'tally', label: 'Tally' },
            },
        ],
    };
}

test("a card's skill script runs: the model gets its JSON result, and the file it wrote reads back; a spinning script is stopped at its time limit and the run goes on", async () => {
    const { page } = await session.open();
    await waitForExtension(page);
    const avatar = await importCard(page, cardJson('Tally', statsPayload()));
    await openCharacter(page, avatar);
    assert.equal(await offered(page), true);
    assert.match(await page.locator(OFFER).innerText(), /stat-table/);
    await page.locator(OFFER).locator('.popup-button-ok').click();
    await page.waitForFunction(() => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { index?: Array<{ name: string }> } | undefined>;
        return (settings.tavern_agent_skills?.index ?? []).some((line) => line.name === 'stat-table');
    });
    await agentOn(page);
    session.mock.reset();
    session.mock.enqueue(
        calls(call('workspace_write_file', { path: 'scratch/stats.json', content: '{"str": 10, "dex": 14, "con": 12}' })),
        calls(call('skill_run_script', { skill: 'stat-table', script: 'total', args: { bonus: 4 } })),
        calls(call('workspace_read_file', { path: 'scratch/total.md' })),
        calls(call('skill_run_script', { skill: 'stat-table', script: 'spin' })),
        finish('Your total is 40.'),
    );
    // The spinning script takes its whole 30 s: longer than a turn's usual wait.
    await page.fill('#send_textarea', 'What is my stat total?');
    await page.click('#send_but');
    // While the script spins in its sandbox worker, the engine answers at once: it is never starved.
    await session.mock.waitForGenerations(4);
    await page.waitForTimeout(2_000);
    const answered = await page.evaluate(async () => {
        const started = performance.now();
        await globalThis.TavernAgent!.health();
        return performance.now() - started;
    });
    assert.ok(answered < 1_000, `the engine answered in ${answered} ms while a script spun`);
    await page.waitForFunction(() => document.body.dataset.generating === undefined && !globalThis.TavernAgent!.status().run, undefined, { timeout: 90_000 });
    const requests = session.mock.generations();
    assert.equal(requests.length, 5);
    assert.ok(offeredTools(requests[0]!).includes('skill_run_script'));
    assert.equal(toolMessages(requests[2]!).at(-1)!.content, 'Executed skill script `stat-table/scripts/total.js`. Result:\n{"total":40}\nWrote: scratch/total.md.');
    assert.match(toolMessages(requests[3]!).at(-1)!.content, /Total: 40/);
    const spun = toolMessages(requests[4]!).at(-1)!.content;
    assert.match(spun, /^ERROR skill\.run_script_execution_failed: .*timed out after 30\.0s/s);
    const chat = await page.evaluate(() => SillyTavern!.getContext().chat.map((m) => m.mes));
    assert.equal(chat.at(-1), 'Your total is 40.', 'the run went on after the stopped script');
    await closePage(page);
});

test('script_run tallies 50 searches of a 2,000-message chat in one model round; a program that writes gets a coded error', async () => {
    // A page the next test takes again (a page load is seconds of CPU).
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await page.evaluate(() => SillyTavern!.getContext().openCharacterChat('Big chat'));
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 2000, undefined, { timeout: 30_000 });
    await agentOn(page);
    session.mock.reset();
    const code = `const tally = {};
for (let i = 0; i < 50; i++) {
    const word = args.words[i % args.words.length];
    const text = await tools.chat_search({ query: word, limit: 50 });
    tally[word] = (text.match(/ref chat:current#/g) || []).length;
}
return tally;`;
    session.mock.enqueue(
        calls(call('script_run', { code, args: { words: ['lantern', 'stars', 'stream', 'pines', 'fire'] } })),
        calls(call('script_run', { code: 'try { await tools.workspace_write_file({ path: "scratch/x.md", content: "x" }); return "written"; } catch (e) { return e.code; }' })),
        finish('Counted.'),
    );
    await sendMessage(page, 'How often did we mention each thing?');
    const requests = session.mock.generations();
    assert.equal(requests.length, 3, 'one request for the program, not 50');
    const tally = JSON.parse(toolMessages(requests[1]!).at(-1)!.content.replace(/^Program result:\n/, '').split('\nConsole:')[0]!) as Record<string, number>;
    assert.deepEqual(Object.keys(tally).sort(), ['fire', 'lantern', 'pines', 'stars', 'stream']);
    assert.equal(tally.lantern, 4, 'the four silver lanterns the visible chat holds');
    assert.ok(tally.stars! > 10);
    assert.equal(toolMessages(requests[2]!).at(-1)!.content, 'Program result:\n"tool.not_allowed"');
});

test("a profile with scripts off is offered neither script tool", async (t) => {
    const page = await openAgentChat(session, { reuse: true, panel: false });
    await restoreSettingsAfter(t, page);
    await page.evaluate((profile) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles?: Record<string, unknown> }>;
        settings.tavern_agent = { ...settings.tavern_agent, profiles: { ...(settings.tavern_agent?.profiles ?? {}), [profile.id]: profile } };
    }, { ...WRITER_PROFILE, id: 'no-scripts', displayName: 'No scripts', scripts: 'off' as const });
    assert.equal(JSON.parse(await slash(page, '/agent profile no-scripts')).profileId, 'no-scripts');
    await agentOn(page);
    session.mock.reset();
    session.mock.enqueue(finish());
    await sendMessage(page, 'Hello.');
    const tools = offeredTools(session.mock.generations()[0]!);
    assert.ok(tools.includes('skill_read'));
    assert.ok(!tools.includes('skill_run_script') && !tools.includes('script_run'), tools.join(', '));
});
