// Lore proposals are safe to accept (issue 39 §7), the pure parts and the claim that keeps two tabs from both
// answering one proposal: which keys SillyTavern runs as regular expressions (checked against its own code),
// the three-way model of an entry changed since the run began, and the claim, atomic on both storages.
// Run: node --import tsx --test tests/unit/lore-accept.test.ts
import 'fake-indexeddb/auto';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import type { LoreClaim, LoreDecision, LoreProposal, LoreText } from '../../src/contract/lore';
import { isRegexKey, regexKeys } from '../../src/contract/lore-keys';
import type { RunRecord } from '../../src/contract/records';
import { IMPORTED_CHAT_KEY } from '../../src/contract/archive';
import { claimLoreProposal, recordLoreDecision, releaseLoreClaim } from '../../src/engine/archive/lore-decisions';
import { entryChange, sameAsShown } from '../../src/host/lore/entry-change';
import type { WorldInfoData } from '../../src/host/sillytavern/world-info-module';
import { openTavernAgentDb } from '../../src/store/db';
import { createIdbRunStorage } from '../../src/store/idb-run-storage';
import { claimVerdict, LORE_CLAIM_TTL_MS, proposalState } from '../../src/store/lore-claims';
import { createMemoryRunStorage, type RunStorage } from '../../src/store/run-storage';
import { threeWay } from '../../src/ui/lore/lore-three-way';
import { journalEvent } from '../fixtures/journal-events';

/** SillyTavern's own parseRegexFromString, taken from its world-info.js (1.19) and compiled here. */
function sillyTavernParseRegex(): (input: string) => RegExp | null {
    const source = readFileSync(path.resolve(import.meta.dirname, '../../node_modules/sillytavern/public/scripts/world-info.js'), 'utf8');
    const start = source.indexOf('export function parseRegexFromString(input) {');
    assert.ok(start >= 0, "SillyTavern's world-info.js still has parseRegexFromString");
    const end = source.indexOf('\n}\n', start);
    const body = source.slice(source.indexOf('{', start) + 1, end);
    return new Function('input', body) as (input: string) => RegExp | null;
}

describe('regular-expression keys', () => {
    const KEYS = [
        '/drag(on|ons)/i',
        '/a/',
        '/a/gimsuy',
        '/a/x',
        '/a/gg',
        '/a/b/',
        '/a\\/b/',
        '/a\\/b\\/c/',
        '/(/',
        '//',
        '///',
        'dragon',
        'a/b/c',
        '/a',
        'a/',
        '  /wyrm/i  ',
        '/<img src=x onerror=alert(1)>/',
        '/^\\s*$/m',
        '/[/',
        '/(a+)+$/',
    ];

    it('are exactly the keys SillyTavern parses as regular expressions (its own function, run on each key as its scan trims it)', () => {
        const parse = sillyTavernParseRegex();
        for (const key of KEYS) assert.equal(isRegexKey(key), parse(key.trim()) !== null, key);
        // The list covers both answers, so the comparison above cannot pass by saying one thing.
        assert.deepEqual(regexKeys(KEYS), ['/drag(on|ons)/i', '/a/', '/a/gimsuy', '/a\\/b/', '/a\\/b\\/c/', '  /wyrm/i  ', '/<img src=x onerror=alert(1)>/', '/^\\s*$/m', '/(a+)+$/']);
    });
});

describe('the three-way model of an entry changed since the run began', () => {
    const start: LoreText = { title: 'Bridge', keys: ['bridge'], content: 'A stone bridge.\nIt is old.\n' };

    it('tells what the lorebook changed, what the proposal changes, and the fields changed on both sides', () => {
        const now: LoreText = { title: 'The bridge', keys: ['bridge'], content: 'A wooden bridge.\nIt is old.\n' };
        const proposal: LoreText = { title: 'Bridge', keys: ['bridge', 'ruins'], content: 'A burnt bridge.\nIt is old.\n' };
        const model = threeWay(start, now, proposal);
        assert.equal(model.deleted, false);
        assert.deepEqual(model.changedSinceStart, ['title', 'content']);
        assert.deepEqual(model.changedByProposal, ['keys', 'content']);
        assert.deepEqual(model.conflicts, ['content'], 'the title changed in the lorebook only; the keys by the proposal only');
        const added = (ops: typeof model.result) => ops.filter((op) => op.op === 1).map((op) => op.text).join('');
        const removed = (ops: typeof model.result) => ops.filter((op) => op.op === -1).map((op) => op.text).join('');
        assert.match(removed(model.sinceStart), /A stone bridge/);
        assert.match(added(model.sinceStart), /A wooden bridge/);
        assert.match(added(model.proposal), /A burnt bridge/);
        assert.doesNotMatch(removed(model.proposal), /wooden/, 'the proposal is against the run start');
        assert.match(removed(model.result), /A wooden bridge/, 'Accept replaces the entry as it is now');
        assert.match(removed(model.result), /Title: The bridge/);
        assert.match(added(model.result), /A burnt bridge/);
    });

    it('a field changed on both sides to the same text is no conflict', () => {
        const same: LoreText = { ...start, content: 'Ruins.\n' };
        assert.deepEqual(threeWay(start, same, same).conflicts, []);
    });

    it('an entry deleted since the run began', () => {
        const model = threeWay(start, null, { ...start, content: 'Ruins.' });
        assert.equal(model.deleted, true);
        assert.deepEqual(model.changedSinceStart, ['title', 'keys', 'content']);
        assert.ok(model.result.every((op) => op.op !== -1), 'accepting writes it anew: nothing to remove');
    });
});

/** A lorebook as SillyTavern's world-info API returns it. */
const book = (entries: Record<string, Record<string, unknown> & { uid: number }>): WorldInfoData => ({ entries });

describe('the entry a proposal edits, against the one its run captured', () => {
    const before: LoreText = { title: 'Bridge', keys: ['bridge'], content: 'A stone bridge.' };
    const proposal: LoreProposal = { proposalId: 'lore-1', ref: 'worldinfo:Chat Book#3', target: { book: 'Chat Book', uid: 3 }, before, after: { ...before, content: 'Ruins.' }, reason: null };

    it('unchanged (a blank key is no change: the capture drops blanks too)', async () => {
        assert.equal(entryChange(book({ 3: { uid: 3, comment: 'Bridge', key: ['bridge', ' '], content: 'A stone bridge.', disable: false } }), proposal), null);
    });

    it('changed, or deleted', async () => {
        assert.deepEqual(entryChange(book({ 3: { uid: 3, comment: 'Bridge', key: ['bridge'], content: 'A wooden bridge.' } }), proposal), { now: { ...before, content: 'A wooden bridge.' } });
        assert.deepEqual(entryChange(book({ 3: { uid: 3, comment: 'Bridge', key: ['bridge', 'river'], content: 'A stone bridge.' } }), proposal), { now: { ...before, keys: ['bridge', 'river'] } });
        assert.deepEqual(entryChange(book({}), proposal), { now: null });
    });

    it('a new entry, or a book gone, has nothing to compare', async () => {
        assert.equal(entryChange(book({}), { ...proposal, target: { book: 'Chat Book', uid: null }, before: null }), null);
        assert.equal(entryChange(null, proposal), null);
    });

    it('Accept anyway goes on only while the entry is what the user was shown', () => {
        const now = { ...before, content: 'A wooden bridge.' };
        assert.equal(sameAsShown(undefined, { now }), false);
        assert.equal(sameAsShown({ now }, { now: { ...now } }), true);
        assert.equal(sameAsShown({ now }, { now: { ...now, content: 'Changed again.' } }), false);
        assert.equal(sameAsShown({ now: null }, { now: null }), true);
        assert.equal(sameAsShown({ now: null }, { now }), false);
    });
});

const RUN = 'run-lore';
const run = (chatKey = 'chat-1'): RunRecord => ({ v: 1, runId: RUN, chatKey, chatId: 'Alice', profileId: 'writer', generationType: 'normal', state: 'completed', messageId: 2, error: null, createdAt: 1, updatedAt: 1 });
const proposalEvent = (seq: number, proposalId: string) =>
    journalEvent(RUN, seq, 'lore-propose', { proposalId, ref: null, target: { book: null, uid: null }, before: null, after: { title: 'Mill', keys: ['mill'], content: 'It burned.' }, reason: null });
const accepted = (proposalId: string): LoreDecision => ({ proposalId, decision: 'accepted', text: { title: 'Mill', keys: ['mill'], content: 'It burned.' }, edited: false, written: { book: 'Chat Book', uid: 0, created: true } });
const claim = (proposalId: string, token: string, at: number): LoreClaim => ({ v: 1, runId: RUN, proposalId, token, at });

describe('claiming a proposal', () => {
    it('the verdict: only a pending proposal with no fresh claim on it', () => {
        const events = [proposalEvent(0, 'lore-a'), proposalEvent(1, 'lore-b'), journalEvent(RUN, 2, 'lore-decide', accepted('lore-b'))];
        assert.equal(proposalState(events, 'lore-a'), 'pending');
        assert.equal(proposalState(events, 'lore-b'), 'decided');
        assert.equal(proposalState(events, 'lore-c'), 'not_proposed');
        assert.equal(claimVerdict('pending', undefined, 5_000), 'claimed');
        assert.equal(claimVerdict('pending', claim('lore-a', 'other', 5_000), 5_000 + LORE_CLAIM_TTL_MS - 1), 'busy');
        assert.equal(claimVerdict('pending', claim('lore-a', 'other', 5_000), 5_000 + LORE_CLAIM_TTL_MS), 'claimed', 'a claim left by a closed tab goes stale');
        assert.equal(claimVerdict('decided', undefined, 5_000), 'decided');
        assert.equal(claimVerdict('not_proposed', undefined, 5_000), 'not_proposed');
    });

    let databases = 0;
    /** Two tabs: two storages over one database (for IndexedDB, two connections to it), sharing what they store. */
    const kinds: Array<{ name: string; tabs(): Promise<[RunStorage, RunStorage]> }> = [
        {
            name: 'memory',
            async tabs() {
                const storage = createMemoryRunStorage();
                return [storage, storage];
            },
        },
        {
            name: 'indexeddb',
            async tabs() {
                const name = `lore-claims-${process.pid}-${(databases += 1)}`;
                return [createIdbRunStorage(await openTavernAgentDb(name)), createIdbRunStorage(await openTavernAgentDb(name))];
            },
        },
    ];

    for (const kind of kinds) {
        it(`two tabs claiming one proposal at once: exactly one gets it, and none after its decision [${kind.name} storage]`, async () => {
            const [a, b] = await kind.tabs();
            await a.putRun(run());
            await a.appendEvents([{ event: proposalEvent(0, 'lore-a') }, { event: proposalEvent(1, 'lore-b') }]);
            for (let round = 0; round < 5; round += 1) {
                const proposalId = `lore-race-${round}`;
                await a.appendEvent(proposalEvent(2 + round, proposalId));
                const verdicts = await Promise.all([a.claimLoreProposal(claim(proposalId, 'tab-a', 1_000)), b.claimLoreProposal(claim(proposalId, 'tab-b', 1_000))]);
                assert.deepEqual([...verdicts].sort(), ['busy', 'claimed'], `round ${round}`);
            }
            const first = await claimLoreProposal(a, RUN, 'lore-a');
            assert.ok(first.ok);
            const second = await claimLoreProposal(b, RUN, 'lore-a');
            assert.equal(second.ok ? null : second.error.code, 'lore.proposal_busy', 'the other tab is told, and writes nothing');
            // A release with another token leaves the claim; the decision ends it, and the proposal stays answered.
            await releaseLoreClaim(b, RUN, 'lore-a', 'not-mine');
            assert.equal(await b.claimLoreProposal(claim('lore-a', 'tab-b', Date.now())), 'busy');
            assert.deepEqual(await recordLoreDecision(a, RUN, accepted('lore-a'), first.value.token), { ok: true, value: null });
            const late = await claimLoreProposal(b, RUN, 'lore-a');
            assert.equal(late.ok ? null : late.error.code, 'lore.already_decided');
            assert.equal(await b.claimLoreProposal(claim('lore-a', 'tab-b', Date.now() + 10 * LORE_CLAIM_TTL_MS)), 'decided', 'a decided proposal is never claimed again, however late');
            // A failed write releases its claim: the proposal can be answered again.
            const failed = await claimLoreProposal(a, RUN, 'lore-b');
            assert.ok(failed.ok);
            await releaseLoreClaim(a, RUN, 'lore-b', failed.value.token);
            assert.ok((await claimLoreProposal(b, RUN, 'lore-b')).ok);
            const unknown = await claimLoreProposal(a, RUN, 'lore-nope');
            assert.equal(unknown.ok ? null : unknown.error.code, 'lore.proposal_not_found');
            // Deleting the run deletes its claims with it.
            await a.deleteRun(RUN);
            await a.putRun(run());
            await a.appendEvent(proposalEvent(0, 'lore-b'));
            assert.equal(await a.claimLoreProposal(claim('lore-b', 'tab-a', Date.now())), 'claimed');
        });
    }

    it('an imported run is never claimed', async () => {
        const storage = createMemoryRunStorage();
        await storage.putRun(run(IMPORTED_CHAT_KEY));
        await storage.appendEvent(proposalEvent(0, 'lore-a'));
        const refused = await claimLoreProposal(storage, RUN, 'lore-a');
        assert.equal(refused.ok ? null : refused.error.code, 'run.read_only');
    });
});
