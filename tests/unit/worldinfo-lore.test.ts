// Unit tests of worldinfo.search / worldinfo.read / worldinfo.propose over a run's frozen lorebooks (issue 19).
// Run: node --import tsx --test tests/unit/worldinfo-lore.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RECOVERABLE_CODES } from '../../src/contract/errors';
import { eventFact, type EventPayloads, type EventType, type JournalEvent } from '../../src/contract/events';
import type { LoreEntry, RunLore } from '../../src/contract/lore';
import { WRITER_PROFILE } from '../../src/contract/profile';
import type { RunInput } from '../../src/contract/run-input';
import type { RunControls, ToolContext, ToolDefinition, ToolOutcome } from '../../src/tools/tool';
import { worldInfoProposeTool } from '../../src/tools/worldinfo/propose';
import { worldInfoReadTool } from '../../src/tools/worldinfo/read';
import { worldInfoSearchTool } from '../../src/tools/worldinfo/search';
import type { JournalWriter } from '../../src/workspace/journal-writer';
import type { Workspace } from '../../src/workspace/workspace';
import { noSkills, sampleRunInput } from '../fixtures/run-input';
import { payloadsOf } from '../fixtures/run-harness';

function entry(book: string, uid: number, title: string, keys: string[], content: string, activated = false): LoreEntry {
    return { book, uid, title, keys, content, activated };
}

const LORE: RunLore = {
    books: [
        { name: 'Eldoria', source: 'character' },
        { name: 'Chat Book', source: 'chat' },
        { name: '山河志', source: 'global' },
    ],
    chatBook: 'Chat Book',
    entries: [
        entry('Eldoria', 1, 'River', ['river', 'Silverrun'], 'The Silverrun flows east past the mill.', true),
        entry('Eldoria', 2, 'Old Bridge', ['bridge'], 'A stone bridge crosses the river near the mill. Boats are moored below it.'),
        entry('Eldoria', 3, 'Ferryman', ['ferry', 'Tomas'], 'Tomas rows travellers across for a copper.'),
        entry('Chat Book', 0, 'Camp', ['camp'], 'The party camps by the old oak.'),
        entry('山河志', 5, '长江', ['长江', '大河'], '长江自西向东流，两岸多渡口与石桥。'),
    ],
};

type Recorded = JournalEvent;

function journal(events: Recorded[]): JournalWriter {
    return {
        async append<T extends EventType>(type: T, payload: EventPayloads[T]) {
            const event: JournalEvent = { v: 1, runId: 'run-test-1', seq: events.length, at: 0, ...eventFact(type, payload) };
            events.push(event);
            return event;
        },
    };
}

function inputWith(lore: RunLore | undefined, profile = WRITER_PROFILE): RunInput {
    return sampleRunInput({ ...(lore ? { lore } : {}), profile });
}

function call(tool: ToolDefinition, raw: Record<string, unknown>, input: RunInput, events: Recorded[] = []): Promise<ToolOutcome> {
    const context: ToolContext = { input, workspace: {} as Workspace, run: {} as RunControls, skills: noSkills(), signal: new AbortController().signal, journal: journal(events) };
    return tool.execute(tool.args.parse(raw), context);
}

function text(outcome: ToolOutcome): string {
    if (!outcome.ok) assert.fail(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
    return outcome.result.content;
}

function errorOf(outcome: ToolOutcome) {
    if (outcome.ok) assert.fail(`expected an error, got: ${outcome.result.content.slice(0, 200)}`);
    return outcome.error;
}

const refsOf = (result: string) => [...result.matchAll(/^(worldinfo:.+?#\d+) · /gm)].map((m) => m[1]);

describe('worldinfo.search', () => {
    it('finds entries by content and by key, activated or not, each with ref, title, keys and the activated flag', async () => {
        const byContent = text(await call(worldInfoSearchTool, { query: 'boats near the river' }, inputWith(LORE)));
        assert.equal(refsOf(byContent)[0], 'worldinfo:Eldoria#2', 'the entry holding most words ranks first');
        assert.match(byContent, /worldinfo:Eldoria#2 · title "Old Bridge" · keys: bridge · not activated/);
        assert.match(byContent, /Boats are moored/);
        const byKey = text(await call(worldInfoSearchTool, { query: 'tomas' }, inputWith(LORE)));
        assert.deepEqual(refsOf(byKey), ['worldinfo:Eldoria#3']);
        const activated = text(await call(worldInfoSearchTool, { query: 'silverrun' }, inputWith(LORE)));
        assert.match(activated, /worldinfo:Eldoria#1 .* · activated this turn/);
    });

    it('finds Chinese text without spaces, and narrows to one book', async () => {
        const chinese = text(await call(worldInfoSearchTool, { query: '石桥渡口' }, inputWith(LORE)));
        assert.deepEqual(refsOf(chinese), ['worldinfo:山河志#5']);
        const oneBook = text(await call(worldInfoSearchTool, { query: 'camp mill', book: 'Chat Book' }, inputWith(LORE)));
        assert.deepEqual(refsOf(oneBook), ['worldinfo:Chat Book#0']);
        assert.equal(errorOf(await call(worldInfoSearchTool, { query: 'mill', book: 'Nowhere' }, inputWith(LORE))).code, 'tool.invalid_arguments');
    });

    it('answers zero hits as a normal result and honours limit', async () => {
        assert.match(text(await call(worldInfoSearchTool, { query: 'unicorn' }, inputWith(LORE))), /^No hits for "unicorn" in 5 enabled entries/);
        const limited = text(await call(worldInfoSearchTool, { query: 'the', limit: 1 }, inputWith(LORE)));
        assert.equal(refsOf(limited).length, 1);
        assert.match(limited, /showing the best 1/);
    });

    it('says so when the lorebooks were not captured', async () => {
        assert.equal(errorOf(await call(worldInfoSearchTool, { query: 'river' }, inputWith(undefined))).code, 'worldinfo.activation_unavailable');
    });
});

describe('worldinfo.read', () => {
    it('reads any in-scope entry whole or as a range', async () => {
        const result = text(await call(worldInfoReadTool, { entries: [{ ref: 'worldinfo:Eldoria#2' }, { ref: 'Eldoria#3', start_char: 0, max_chars: 5 }] }, inputWith(LORE)));
        assert.match(result, /A stone bridge crosses the river near the mill\./);
        assert.match(result, /=== worldinfo:Eldoria#3 .*\n Tomas|=== worldinfo:Eldoria#3 [^\n]*\nTomas\n?$/m);
        assert.doesNotMatch(result, /rows travellers/);
    });

    it('uses the codes of read_activated for unknown refs and reads over the limits', async () => {
        assert.equal(errorOf(await call(worldInfoReadTool, { entries: [{ ref: 'worldinfo:Eldoria#99' }] }, inputWith(LORE))).code, 'worldinfo.entry_not_found');
        assert.equal(errorOf(await call(worldInfoReadTool, { entries: [{ ref: 'worldinfo:Eldoria#1', max_chars: 9000 }] }, inputWith(LORE))).code, 'worldinfo.read_too_large');
        assert.equal(errorOf(await call(worldInfoReadTool, { entries: [{ ref: 'worldinfo:Eldoria#1', start_char: 500 }] }, inputWith(LORE))).code, 'worldinfo.invalid_range');
        const many = Array.from({ length: 21 }, () => ({ ref: 'worldinfo:Eldoria#1' }));
        assert.equal(errorOf(await call(worldInfoReadTool, { entries: many }, inputWith(LORE))).code, 'worldinfo.read_too_large');
    });
});

describe('worldinfo.propose', () => {
    it('registers its codes as recoverable', () => {
        for (const code of ['worldinfo.proposal_denied', 'worldinfo.entry_not_found']) assert.ok((RECOVERABLE_CODES as readonly string[]).includes(code), code);
    });

    it('records a new entry for the chat lorebook as a lore-propose event, writing nothing', async () => {
        const events: Recorded[] = [];
        const result = text(await call(worldInfoProposeTool, { title: 'Ruined bridge', keys: ['bridge', 'ruins'], content: 'The old bridge was destroyed.', reason: 'Burned in the raid.' }, inputWith(LORE), events));
        assert.match(result, /Nothing is written yet/);
        assert.equal(events.length, 1);
        assert.equal(events[0]!.type, 'lore-propose');
        const proposal = payloadsOf(events, 'lore-propose')[0]!;
        assert.deepEqual(proposal.target, { book: 'Chat Book', uid: null });
        assert.equal(proposal.before, null);
        assert.deepEqual(proposal.after, { title: 'Ruined bridge', keys: ['bridge', 'ruins'], content: 'The old bridge was destroyed.' });
        assert.equal(proposal.reason, 'Burned in the raid.');
    });

    it("edits a chat-lorebook entry in place, and makes another book's entry this chat's own version", async () => {
        const events: Recorded[] = [];
        text(await call(worldInfoProposeTool, { ref: 'worldinfo:Chat Book#0', content: 'The party left the camp.' }, inputWith(LORE), events));
        const own = payloadsOf(events, 'lore-propose')[0]!;
        assert.deepEqual(own.target, { book: 'Chat Book', uid: 0 });
        assert.deepEqual(own.before, { title: 'Camp', keys: ['camp'], content: 'The party camps by the old oak.' });
        assert.deepEqual(own.after.keys, ['camp'], 'keys are kept when left out');

        const copy = text(await call(worldInfoProposeTool, { ref: 'worldinfo:Eldoria#2', content: 'The bridge lies in ruins.' }, inputWith(LORE), events));
        assert.match(copy, /the original is left as it is/);
        const other = payloadsOf(events, 'lore-propose')[1]!;
        assert.deepEqual(other.target, { book: 'Chat Book', uid: null });
        assert.equal(other.ref, 'worldinfo:Eldoria#2');
        assert.equal(other.before?.content, 'A stone bridge crosses the river near the mill. Boats are moored below it.');
        assert.equal(other.after.title, 'Old Bridge');
    });

    it('targets a chat without a lorebook as null (created on accept)', async () => {
        const events: Recorded[] = [];
        text(await call(worldInfoProposeTool, { title: 'Note', content: 'x' }, inputWith({ ...LORE, chatBook: null }), events));
        assert.deepEqual(payloadsOf(events, 'lore-propose')[0]!.target, { book: null, uid: null });
    });

    it('denies other books unless the profile allows them', async () => {
        const events: Recorded[] = [];
        const denied = errorOf(await call(worldInfoProposeTool, { ref: 'worldinfo:Eldoria#2', content: 'Ruins.', book: 'Eldoria' }, inputWith(LORE), events));
        assert.equal(denied.code, 'worldinfo.proposal_denied');
        assert.equal(events.length, 0);
        const open = { ...WRITER_PROFILE, lore: { editOtherBooks: true } };
        text(await call(worldInfoProposeTool, { ref: 'worldinfo:Eldoria#2', content: 'Ruins.', book: 'Eldoria' }, inputWith(LORE, open), events));
        assert.deepEqual(payloadsOf(events, 'lore-propose')[0]!.target, { book: 'Eldoria', uid: 2 });
    });

    it('refuses unknown refs, missing ref and title, and no-change proposals', async () => {
        const events: Recorded[] = [];
        assert.equal(errorOf(await call(worldInfoProposeTool, { ref: 'worldinfo:Eldoria#42', content: 'x' }, inputWith(LORE), events)).code, 'worldinfo.entry_not_found');
        assert.equal(errorOf(await call(worldInfoProposeTool, { content: 'x' }, inputWith(LORE), events)).code, 'tool.invalid_arguments');
        assert.equal(errorOf(await call(worldInfoProposeTool, { ref: 'worldinfo:Chat Book#0', content: 'The party camps by the old oak.' }, inputWith(LORE), events)).code, 'tool.invalid_arguments');
        assert.equal(events.length, 0);
    });
});

describe('profiles and the lore tools', () => {
    it('search and read for the writer, researcher and game master; propose for the writer and game master only', async () => {
        const { builtInProfile, isToolAllowed } = await import('../../src/contract/profile');
        for (const id of ['writer', 'researcher', 'game-master']) {
            const profile = builtInProfile(id)!;
            assert.ok(isToolAllowed(profile, 'worldinfo.search') && isToolAllowed(profile, 'worldinfo.read'), id);
        }
        assert.ok(isToolAllowed(builtInProfile('writer')!, 'worldinfo.propose'));
        assert.ok(isToolAllowed(builtInProfile('game-master')!, 'worldinfo.propose'));
        assert.ok(!isToolAllowed(builtInProfile('researcher')!, 'worldinfo.propose'));
        assert.ok(!isToolAllowed(builtInProfile('editor')!, 'worldinfo.search'));
    });

    it('a stored profile from before the lore option loads, with other books off', async () => {
        const { parseProfile } = await import('../../src/contract/profile-migrations');
        const { lore: _lore, ...stored } = WRITER_PROFILE;
        const parsed = parseProfile(JSON.parse(JSON.stringify({ ...stored, id: 'old-writer' })));
        assert.ok(parsed.ok);
        assert.deepEqual(parsed.profile.lore, { editOtherBooks: false });
        assert.equal(parsed.migratedFrom, null);
    });
});
