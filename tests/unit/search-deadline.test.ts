// Every search tool has a per-call time budget (issue 39 §2): past it, the search stops, returns what it found
// so far and says what it did not search. The clock is faked (each look at it moves it 10 ms), so a search
// over 1,000 messages or entries passes its 2 s budget after about 200 of them, on any machine.
// Run: node --import tsx --test tests/unit/search-deadline.test.ts
import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import type { PrefixMessage, RunInput } from '../../src/contract/run-input';
import type { RunLore } from '../../src/contract/lore';
import { chatSearchTool } from '../../src/tools/chat/search';
import { worldInfoSearchTool } from '../../src/tools/worldinfo/search';
import type { RunControls, ToolContext, ToolDefinition, ToolOutcome } from '../../src/tools/tool';
import type { Workspace } from '../../src/workspace/workspace';
import { noSkills, sampleRunInput } from '../fixtures/run-input';

const N = 1000;

function call(tool: ToolDefinition, raw: Record<string, unknown>, input: RunInput): Promise<ToolOutcome> {
    const context: ToolContext = { input, workspace: {} as Workspace, run: {} as RunControls, skills: noSkills(), signal: new AbortController().signal };
    return tool.execute(tool.args.parse(raw), context);
}

const textOf = (outcome: ToolOutcome) => (outcome.ok ? outcome.result.content : assert.fail(outcome.error.message));

describe('a search stops at its time budget and says so', () => {
    let clock = 0;
    beforeEach(() => {
        clock = 1_000_000;
        mock.method(Date, 'now', () => (clock += 10));
    });
    afterEach(() => mock.restoreAll());

    it('chat.search: the newest messages searched, the hits found among them, the older ones named', async () => {
        const prefix: PrefixMessage[] = Array.from({ length: N }, (_, index) => ({ index, role: index % 2 ? 'user' : 'assistant', name: 'S', text: `lantern ${index}`, hidden: false, agentRunId: null }));
        const outcome = await call(chatSearchTool, { query: 'lantern', limit: 3 }, sampleRunInput({ prefix }));
        const text = textOf(outcome);
        assert.match(text, /The search stopped after 2 s: it covered the newest (\d+) of 1000 messages in the range\. Search the older ones with end_message (\d+)\./);
        const [, covered, older] = /newest (\d+) of .* end_message (\d+)/.exec(text)!;
        assert.ok(Number(covered) > 100 && Number(covered) < N, covered);
        assert.equal(Number(older), N - Number(covered) - 1);
        assert.ok(outcome.ok && outcome.result.details?.stopped === 'time');
        assert.match(text, /#999 /, 'the newest message is among the hits');
    });

    it('worldinfo.search: the first entries searched, in SillyTavern order, the rest named', async () => {
        const lore: RunLore = {
            books: [{ name: 'Big', source: 'character' }],
            chatBook: null,
            entries: Array.from({ length: N }, (_, uid) => ({ book: 'Big', uid, title: `Place ${uid}`, keys: [`k${uid}`], content: 'A mill by the river.', activated: false })),
        };
        const text = textOf(await call(worldInfoSearchTool, { query: 'mill' }, sampleRunInput({ lore })));
        assert.match(text, /The search stopped after 2 s: it covered (\d+) of the 1000 entries, in SillyTavern's order\. Search one book at a time/);
        assert.match(text, /worldinfo:Big#0 /);
    });

    it('with time to spare, nothing is said', async () => {
        mock.restoreAll();
        const prefix: PrefixMessage[] = [{ index: 0, role: 'assistant', name: 'S', text: 'lantern', hidden: false, agentRunId: null }];
        assert.doesNotMatch(textOf(await call(chatSearchTool, { query: 'lantern' }, sampleRunInput({ prefix }))), /stopped/);
    });
});
