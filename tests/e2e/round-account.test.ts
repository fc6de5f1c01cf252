// Issue 41 §1 and §4: the per-round cost account. One tool round of an agent turn (the model asks for
// workspace_list_files once) is counted exactly, on both sides of the worker wall, with the panel closed and
// open (tests/harness/round-account.ts says how). A feature that adds work to every round must change a number
// here on purpose; features a run does not use must leave every number as it is.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { openCharacter, openSillyTavern } from '../harness/browser';
import { agentOn, call, calls } from '../harness/agent';
import { countEvents, countingContexts, measureRounds, type MeasuredRounds, type RoundAccount } from '../harness/round-account';
import { slash, startTavernSession, waitForExtension, type TavernSession } from '../harness/tavern';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';

let session: TavernSession;
let page: Page;

before(async () => {
    session = await startTavernSession();
    page = (await openSillyTavern(countingContexts(session.browser), session.st.url)).page;
    await waitForExtension(page);
    await countEvents(page);
    await openCharacter(page);
});

after(async () => {
    await session?.close();
});

/**
 * The second tool round of a run (the response to its second model request, the tool, the third request),
 * panel closed. What each number is:
 * - 1 message to the worker: the model's response (comlink's reply to requestModel); the events go one way
 *   on the run's event port, which the page answers only once, at the run's end;
 * - 2 messages to the page: the round's events in one delivery (model-response, tool-call-start,
 *   tool-call-complete, model-request) and the next requestModel call (the new messages only);
 * - 1 IndexedDB transaction: the journal's one write of the round's events and hidden files;
 * - 1 BroadcastChannel post: the same events to the user's other tabs;
 * - 1 fetch: the model request through SillyTavern's backend; no SillyTavern event;
 * - 1 timer on the page: the live feed's frame; 1 in the worker: the journal's flush;
 * - 1 mutation of 1 node under the Send badge: its progress text.
 */
const CLOSED: RoundAccount = {
    messagesToWorker: 1,
    bytesToWorker: 353,
    messagesToPage: 2,
    bytesToPage: 1860,
    idbTransactions: 1,
    broadcastPosts: 1,
    sillyTavernEvents: 0,
    fetches: 1,
    pageTimers: 1,
    workerTimers: 1,
    panelMutations: 0,
    panelNodes: 0,
    badgeMutations: 1,
    badgeNodes: 1,
};

/**
 * The same round with the panel open adds only page work: 4 more timers (a second frame of the live feed,
 * the new model row's elapsed-time interval, and Preact's after-paint pair of timeout and frame) and the
 * timeline's DOM: 15 mutations for the round's two rows and the header's counts, plus one per row already
 * drawn (each row's aria-setsize grows with the list; bounded by the rows the virtual list draws). A row
 * that finishes changes its spans' text and its icon, and adds or removes no element (was 2 more mutations
 * and 3 more nodes, each added element a scan by SillyTavern's keyboard.js).
 */
const OPEN: RoundAccount = { ...CLOSED, pageTimers: 5, panelMutations: 18, panelNodes: 17 };

/**
 * What grows from one round to the next: the model-request event lists every part of the request by hash,
 * so each round's event is two hashes longer (the assistant's call and the tool's result), and the panel
 * has two more drawn rows whose list size changes.
 */
const GROWTH = { bytesToPage: 35, panelMutations: 2, panelNodes: 2 };

const ROUNDS = 3;

/** A new chat with Agent Mode on, the panel as asked, and the chat's profile and pipeline if given. */
async function newAgentChat(opts: { panel: boolean; profile?: Profile; pipeline?: string }): Promise<void> {
    await slash(page, '/newchat');
    await page.waitForFunction(() => SillyTavern!.getContext().chat.length === 1);
    await agentOn(page);
    if (opts.profile) await useProfile(opts.profile);
    if (opts.pipeline) assert.ok((await slash(page, `/agent pipeline ${opts.pipeline}`)).startsWith('{'));
    const open = (await page.locator('aside.tavern-agent').count()) > 0;
    if (open !== opts.panel) await page.click('#tavern_agent_button .drawer-icon');
    await page.locator('aside.tavern-agent').waitFor({ state: opts.panel ? 'visible' : 'detached' });
}

/** Stores a profile the way the panel does (SillyTavern extension settings) and picks it for this chat. */
async function useProfile(profile: Profile): Promise<void> {
    await page.evaluate((p) => {
        const settings = SillyTavern!.getContext().extensionSettings as Record<string, { profiles: Record<string, unknown> }>;
        settings.tavern_agent = { profiles: { ...(settings.tavern_agent?.profiles ?? {}), [p.id]: p } };
    }, profile);
    assert.equal(JSON.parse(await slash(page, `/agent profile ${profile.id}`)).profileId, profile.id);
}

/** Each measured round against the account expected of the second one, grown or shrunk by its place in the run. */
function assertRounds(measured: MeasuredRounds, second: RoundAccount, what: string): void {
    assert.equal(measured.rounds.length, ROUNDS);
    measured.rounds.forEach((round, index) => {
        const steps = index - 1;
        const expected: RoundAccount = { ...second };
        if (second.panelMutations > 0) Object.assign(expected, { panelMutations: second.panelMutations + GROWTH.panelMutations * steps, panelNodes: second.panelNodes + GROWTH.panelNodes * steps });
        expected.bytesToPage = second.bytesToPage + GROWTH.bytesToPage * steps;
        assert.deepEqual(round, expected, `${what}, tool round ${index + 1} of ${ROUNDS}; it did:\n${measured.details[index]!.join('\n')}`);
    });
}

/** The tools the Writer offers that BARE does not: script_run and skill_run_script, and the four state tools. */
const FEATURE_TOOLS = ['skill_run_script', 'script_run', 'state_scopes', 'state_get', 'state_patch', 'state_set'];

const offeredTools = (index: number) => ((session.mock.generations()[index]?.body as { tools?: Array<{ function: { name: string } }> }).tools ?? []).map((tool) => tool.function.name);

test('one tool round with the panel closed: 1 + 2 messages across the wall, 1 transaction, 1 broadcast, 1 fetch, 2 timers, 1 badge node', async () => {
    await newAgentChat({ panel: false });
    assertRounds(await measureRounds(page, session.mock, ROUNDS), CLOSED, 'panel closed');
    assert.ok(FEATURE_TOOLS.every((name) => offeredTools(session.mock.generations().length - 1).includes(name)), 'the Writer offers the tools of scripts and state');
});

test('one tool round with the panel open: the same, plus 4 timers and the timeline rows on the page', async () => {
    await newAgentChat({ panel: true });
    assertRounds(await measureRounds(page, session.mock, ROUNDS), OPEN, 'panel open');
});

/** The Writer profile with scripts, state tools, compaction and pinned memory all off. */
const BARE: Profile = {
    ...WRITER_PROFILE,
    id: 'round-account-bare',
    displayName: 'Bare',
    scripts: 'off',
    tools: { ...WRITER_PROFILE.tools, allow: WRITER_PROFILE.tools.allow.filter((pattern) => pattern !== 'state.*') },
    // The highest threshold there is: the context is never full enough to compact.
    compaction: { threshold: 1, keepRecentRounds: WRITER_PROFILE.compaction.keepRecentRounds },
    memory: { ...WRITER_PROFILE.memory, pinnedChars: 0 },
};

test('§4: scripts, state, compaction and pinned memory, allowed but unused, add nothing to a round', async () => {
    // The default Writer (the base case above) allows all four; here none is. The tools offered are named by
    // the request's stored tool set (one hash), so even allowing them costs a round nothing.
    await newAgentChat({ panel: false, profile: BARE });
    assertRounds(await measureRounds(page, session.mock, ROUNDS), CLOSED, 'features off');
    assert.ok(FEATURE_TOOLS.every((name) => !offeredTools(session.mock.generations().length - 1).includes(name)), 'the bare profile offers none of them');
});

test('§4: a director before the reply and a keeper after it leave the reply run’s rounds as they are', async () => {
    await newAgentChat({ panel: false, pipeline: 'before=director reply=agent after=memory-keeper' });
    const director = calls(call('workspace_write_file', { path: 'output/brief.md', content: 'Keep it short.' }), call('workspace_finish', {}));
    const keeper = calls(call('workspace_finish', {}));
    assertRounds(await measureRounds(page, session.mock, ROUNDS, { before: [director], after: [keeper] }), CLOSED, 'with a director and a keeper');
    const offered = offeredTools;
    assert.ok(!offered(0).includes('workspace_commit') && offered(1).includes('workspace_commit'), 'the director asked first (it may not commit), then the reply run');
    // The keeper works in the background after the reply: the next test must not meet it.
    await page.waitForFunction(async () => (await globalThis.TavernAgent!.runs()).every((run) => !['running', 'pending'].includes(run.state)), undefined, { timeout: 30_000, polling: 200 });
});
