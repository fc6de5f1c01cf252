// Unit tests of chat.search and chat.read_messages over a frozen run input.
// Run: node --import tsx --test tests/unit/chat-tools.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RECOVERABLE_CODES } from '../../src/contract/errors';
import type { PrefixMessage, RunInput } from '../../src/contract/run-input';
import { CHAT_TOOLS } from '../../src/tools/chat/index';
import { readMessagesTool } from '../../src/tools/chat/read-messages';
import { chatSearchTool } from '../../src/tools/chat/search';
import { parseQuery } from '../../src/tools/chat/search-index';
import type { RunControls, ToolContext, ToolDefinition, ToolOutcome } from '../../src/tools/tool';
import type { Workspace } from '../../src/workspace/workspace';
import { noSkills, sampleRunInput } from '../fixtures/run-input';

type Spec = Pick<PrefixMessage, 'text'> & Partial<PrefixMessage>;

/** A prefix numbered 0..n-1: assistant/user alternating unless told otherwise. */
function prefixOf(specs: Spec[]): PrefixMessage[] {
    return specs.map((spec, index) => ({
        index,
        role: spec.role ?? (index % 2 === 0 ? 'assistant' : 'user'),
        name: spec.name ?? (spec.role === 'user' || (spec.role === undefined && index % 2 === 1) ? 'Tester' : 'Seraphina'),
        text: spec.text,
        hidden: spec.hidden ?? false,
        agentRunId: null,
    }));
}

/** Tools only read `input`; the rest of the context is never touched by them. */
function contextOf(input: RunInput): ToolContext {
    return { input, workspace: {} as Workspace, run: {} as RunControls, skills: noSkills(), signal: new AbortController().signal };
}

/** Parses the arguments with the tool's own schema (as the dispatcher does), then executes. */
function call(tool: ToolDefinition, raw: Record<string, unknown>, input: RunInput): Promise<ToolOutcome> {
    return tool.execute(tool.args.parse(raw), contextOf(input));
}

/** A run whose profile opted in to hidden (`is_system`) messages. */
function optedIn(input: RunInput): RunInput {
    return { ...input, profile: { ...input.profile, context: { ...input.profile.context, includeHiddenMessages: true } } };
}

function withPrefix(specs: Spec[]): RunInput {
    return sampleRunInput({ prefix: prefixOf(specs) });
}

function text(outcome: ToolOutcome): string {
    if (!outcome.ok) assert.fail(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
    return outcome.result.content;
}

function errorOf(outcome: ToolOutcome) {
    if (outcome.ok) assert.fail(`expected an error, got: ${outcome.result.content.slice(0, 200)}`);
    return outcome.error;
}

/** Indexes of the hits in ranked order, read from the result text. */
function hitIndexes(outcome: ToolOutcome): number[] {
    return [...text(outcome).matchAll(/^#(\d+) .* ref chat:current#\1$/gm)].map((match) => Number(match[1]));
}

describe('chat tool definitions', () => {
    it('exports chat.search and chat.read_messages with aliases', () => {
        assert.deepEqual(
            CHAT_TOOLS.map((tool) => [tool.name, tool.alias, tool.readOnly]),
            [
                ['chat.search', 'chat_search', true],
                ['chat.read_messages', 'chat_read_messages', true],
            ],
        );
    });

    it('registers its error codes as recoverable', () => {
        for (const code of ['chat.message_not_found', 'chat.invalid_range', 'chat.read_too_large']) {
            assert.ok((RECOVERABLE_CODES as readonly string[]).includes(code), code);
        }
    });
});

describe('chat.search', () => {
    it('finds English words case-insensitively, with index, role, speaker, score, ref and snippet', async () => {
        const input = withPrefix([{ text: 'You wake in a quiet forest glade.' }, { text: 'I pick up the SILVER Key.' }, { text: 'Nothing here.' }]);
        const result = text(await call(chatSearchTool, { query: 'silver KEY' }, input));
        assert.match(result, /^1 hit for "silver KEY" in 3 scanned messages \(#0–#2\)\./);
        assert.match(result, /^#1 user Tester score 1\.00 ref chat:current#1\nI pick up the SILVER Key\.$/m);
    });

    it('finds Chinese text written without spaces, by a word and by bigrams', async () => {
        const input = withPrefix([{ text: '今天天气很好。' }, { text: '我们明天去北京看长城' }, { text: '长城很长' }, { text: '北京的秋天' }]);
        const byWord = await call(chatSearchTool, { query: '长城' }, input);
        assert.deepEqual(hitIndexes(byWord), [2, 1]);
        const byPhrase = await call(chatSearchTool, { query: '北京长城' }, input);
        const hits = hitIndexes(byPhrase);
        // #1 holds 北京 and 长城 (two of the three bigrams); #2 and #3 hold one each.
        assert.equal(hits[0], 1);
        assert.deepEqual([...hits].sort(), [1, 2, 3]);
        assert.match(text(byPhrase), /#1 user Tester score 0\.53 ref chat:current#1\n我们明天去北京看长城/);
        assert.equal(hitIndexes(await call(chatSearchTool, { query: '城' }, input)).length, 2);
    });

    it('tokenizes CJK runs into bigrams and words into lowercased words', () => {
        assert.deepEqual(parseQuery('北京长城').tokens.map((t) => t.text), ['北京', '京长', '长城']);
        assert.deepEqual(parseQuery('城').tokens.map((t) => t.text), ['城']);
        assert.deepEqual(parseQuery('The Silver-KEY, walk长城').tokens.map((t) => t.text), ['the', 'silver', 'key', 'walk', '长城']);
        assert.deepEqual(parseQuery('a cat').tokens.map((t) => t.text), ['cat']);
        assert.equal(parseQuery('  Silver   KEY ').phrase, 'silver key');
    });

    it('finds Japanese kana and kanji without spaces', async () => {
        const input = withPrefix([{ text: '昨日は東京タワーへ行きました。' }, { text: 'どうもありがとうございます' }, { text: 'さようなら' }]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'タワー' }, input)), [0]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'ありがとう' }, input)), [1]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: '東京タワーへ行く' }, input)), [0]);
    });

    it('ranks by score (phrase, then share of weighted tokens), then newest first', async () => {
        const input = withPrefix([
            { text: 'The dragon slept.' }, // dragon only
            { text: 'A silver dragon, old and wise.' }, // phrase
            { text: 'Silver coins and a sleeping dragon.' }, // both words, no phrase
            { text: 'Silver rain.' }, // silver only
            { text: 'Another dragon roars.' }, // dragon only, newer than #0
            { text: 'The silver dragon returns.' }, // phrase, newest
            { text: 'No match at all.' },
        ]);
        const outcome = await call(chatSearchTool, { query: 'silver dragon' }, input);
        // #4, #3 and #0 tie at 0.40 ("silver" and "dragon" weigh the same): newest first.
        assert.deepEqual(hitIndexes(outcome), [5, 1, 2, 4, 3, 0]);
        assert.match(text(outcome), /^6 hits for "silver dragon" in 7 scanned messages/);
        assert.match(text(outcome), /#5 user Tester score 1\.00/);
        assert.match(text(outcome), /#2 assistant Seraphina score 0\.80/);
        assert.match(text(outcome), /#3 user Tester score 0\.40/);
    });

    it('ranks visible messages before hidden ones of the same score', async () => {
        const input = optedIn(withPrefix([
            { text: 'I found a silver lantern.' },
            { text: 'A hidden note about the silver lantern.', hidden: true },
            { text: 'The silver lantern glows.' },
            { text: 'Just a lantern.' },
        ]));
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'silver lantern' }, input)), [2, 0, 1, 3]);
    });

    it('leaves hidden messages out unless the profile opts in', async () => {
        const input = withPrefix([
            { text: 'I found a silver lantern.' },
            { text: 'A hidden note about the silver lantern.', hidden: true },
            { text: 'The silver lantern glows.' },
        ]);
        const outcome = await call(chatSearchTool, { query: 'lantern' }, input);
        assert.deepEqual(hitIndexes(outcome), [2, 0]);
        assert.doesNotMatch(text(outcome), /hidden note/);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'lantern' }, optedIn(input))), [2, 0, 1]);
    });

    it('matches words of one or two letters as whole words only', async () => {
        const input = withPrefix([{ text: 'The road north is not safe.' }, { text: 'No, never!' }, { text: 'this island' }, { text: 'AI是什么' }]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'no such needle anywhere' }, input)), [1]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'is' }, input)), [0]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'ai' }, input)), [3]);
        // Longer words stay substrings: "land" finds "island".
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'land' }, input)), [2]);
    });

    it('weighs longer tokens more', async () => {
        const input = withPrefix([{ text: 'a lantern' }, { text: 'an owl' }]);
        const outcome = await call(chatSearchTool, { query: 'owl lantern' }, input);
        assert.deepEqual(hitIndexes(outcome), [0, 1]);
    });

    it('filters by role; hidden messages are searched as system and marked hidden', async () => {
        const input = optedIn(withPrefix([
            { text: 'apple pie', role: 'assistant' },
            { text: 'apple tart', role: 'user' },
            { text: 'apple note', role: 'user', hidden: true },
            { text: 'apple narration', role: 'system', name: 'Narrator' },
            { text: 'apple secret', role: 'assistant', hidden: true },
        ]));
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', role: 'user' }, input)), [1]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', role: 'assistant' }, input)), [0]);
        const system = await call(chatSearchTool, { query: 'apple', role: 'system' }, input);
        assert.deepEqual(hitIndexes(system), [3, 4, 2]);
        assert.match(text(system), /^#4 system hidden Seraphina score/m);
        assert.match(text(system), /^#3 system Narrator score/m);
        assert.match(text(system), /^#2 system hidden Tester score/m);
        assert.match(text(system), /role system/);
        assert.equal(hitIndexes(await call(chatSearchTool, { query: 'apple' }, input)).length, 5);
        assert.equal(chatSearchTool.args.safeParse({ query: 'apple', role: 'tool' }).success, false);
    });

    it('searches only start_message to end_message, both inclusive', async () => {
        const input = withPrefix(Array.from({ length: 10 }, (_, i) => ({ text: `apple ${i}` })));
        const outcome = await call(chatSearchTool, { query: 'apple', start_message: 3, end_message: 5 }, input);
        assert.deepEqual(hitIndexes(outcome), [5, 4, 3]);
        assert.match(text(outcome), /in 3 scanned messages \(#3–#5\)/);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', start_message: 8 }, input)), [9, 8]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', start_message: 9 }, input)), [9]);
        // An end past the newest message is clamped.
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', start_message: 8, end_message: 500 }, input)), [9, 8]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', end_message: 1 }, input)), [1, 0]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', start_message: 4, end_message: 4 }, input)), [4]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', end_message: 0 }, input)), [0]);
    });

    it('refuses a reversed range or a start past the newest message', async () => {
        const input = withPrefix(Array.from({ length: 10 }, (_, i) => ({ text: `apple ${i}` })));
        const reversed = errorOf(await call(chatSearchTool, { query: 'apple', start_message: 6, end_message: 5 }, input));
        assert.equal(reversed.code, 'chat.invalid_range');
        assert.match(reversed.message, /before start_message 6/);
        assert.match(reversed.hint, /at least 6/);
        const past = errorOf(await call(chatSearchTool, { query: 'apple', start_message: 10 }, input));
        assert.equal(past.code, 'chat.invalid_range');
        assert.match(past.message, /#0–#9/);
        assert.match(past.hint, /0 to 9/);
        assert.equal(chatSearchTool.args.safeParse({ query: 'apple', start_message: -1 }).success, false);
        assert.equal(chatSearchTool.args.safeParse({ query: 'apple', end_message: -1 }).success, false);
    });

    it('counts scan_limit back from the newest message (of the range)', async () => {
        const input = withPrefix(Array.from({ length: 10 }, (_, i) => ({ text: `apple ${i}` })));
        const outcome = await call(chatSearchTool, { query: 'apple', scan_limit: 3 }, input);
        assert.deepEqual(hitIndexes(outcome), [9, 8, 7]);
        assert.match(text(outcome), /in 3 scanned messages \(#7–#9\)/);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', end_message: 5, scan_limit: 2 }, input)), [5, 4]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', start_message: 8, scan_limit: 5 }, input)), [9, 8]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple 1' }, withPrefix([{ text: 'apple 1' }, { text: 'x' }, { text: 'y' }]))), [0]);
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'apple', scan_limit: 2 }, withPrefix([{ text: 'apple 1' }, { text: 'x' }, { text: 'y' }]))), []);
        assert.equal(chatSearchTool.args.safeParse({ query: 'apple', scan_limit: 0 }).success, false);
    });

    it('returns at most limit hits (default 20, max 50; 51 fails the schema)', async () => {
        const input = withPrefix(Array.from({ length: 60 }, (_, i) => ({ text: `apple ${i}` })));
        const byDefault = await call(chatSearchTool, { query: 'apple' }, input);
        assert.equal(hitIndexes(byDefault).length, 20);
        assert.deepEqual(hitIndexes(byDefault).slice(0, 2), [59, 58]);
        assert.match(text(byDefault), /^60 hits for "apple" in 60 scanned messages \(#0–#59\); showing the best 20\./);
        assert.equal(hitIndexes(await call(chatSearchTool, { query: 'apple', limit: 50 }, input)).length, 50);
        assert.equal(hitIndexes(await call(chatSearchTool, { query: 'apple', limit: 1 }, input)).length, 1);
        assert.equal(chatSearchTool.args.safeParse({ query: 'apple', limit: 51 }).success, false);
        assert.equal(chatSearchTool.args.safeParse({ query: 'apple', limit: 0 }).success, false);
        assert.equal(chatSearchTool.args.safeParse({ query: '' }).success, false);
        assert.equal(chatSearchTool.args.safeParse({}).success, false);
    });

    it('treats zero hits as a normal result', async () => {
        const outcome = await call(chatSearchTool, { query: 'unicorn' }, withPrefix([{ text: 'apple' }, { text: 'pear' }]));
        assert.equal(outcome.ok, true);
        assert.match(text(outcome), /^No hits for "unicorn" in 2 scanned messages \(#0–#1\)\./);
        assert.equal(outcome.ok && outcome.result.details?.hits, 0);
        const empty = await call(chatSearchTool, { query: 'unicorn' }, withPrefix([]));
        assert.match(text(empty), /no messages yet/);
    });

    it('refuses a query of whitespace only', async () => {
        const error = errorOf(await call(chatSearchTool, { query: '   ' }, withPrefix([{ text: 'apple' }])));
        assert.equal(error.code, 'tool.invalid_arguments');
    });

    it('cuts a plain-text snippet of about 200 chars around the first match, newlines collapsed', async () => {
        const long = `${'lorem ipsum '.repeat(50)}\n\nthe hidden\ntreasure lies here\n\n${'dolor sit '.repeat(50)}`;
        const result = text(await call(chatSearchTool, { query: 'treasure' }, withPrefix([{ text: long }])));
        const snippet = result.split('\n').at(-1)!;
        assert.ok(snippet.startsWith('…') && snippet.endsWith('…'), snippet);
        assert.ok(snippet.length <= 204, `${snippet.length}`);
        assert.match(snippet, /the hidden treasure lies here/);
        assert.doesNotMatch(snippet, /<|>/);
        const centre = snippet.indexOf('treasure');
        assert.ok(centre > 70 && centre < 130, `${centre}`);
        // A short message is shown whole.
        assert.match(text(await call(chatSearchTool, { query: 'treasure' }, withPrefix([{ text: 'A\ntreasure!' }]))), /\nA treasure!$/);
    });

    it('maps snippets back when lowercasing changes lengths', async () => {
        const result = text(await call(chatSearchTool, { query: 'dragon' }, withPrefix([{ text: `${'İ'.repeat(300)} DRAGON ${'x'.repeat(300)}` }])));
        assert.match(result, /DRAGON/);
    });

    it('shows each group member by name', async () => {
        const input = withPrefix([
            { text: 'Hello from the lighthouse.', role: 'assistant', name: 'Alice' },
            { text: 'Tell me about the lighthouse.', role: 'user', name: 'Tester' },
            { text: 'The lighthouse is haunted.', role: 'assistant', name: 'Bob' },
        ]);
        const result = text(await call(chatSearchTool, { query: 'lighthouse' }, input));
        assert.match(result, /^#2 assistant Bob score 1\.00 ref chat:current#2$/m);
        assert.match(result, /^#1 user Tester score 1\.00 ref chat:current#1$/m);
        assert.match(result, /^#0 assistant Alice score 1\.00 ref chat:current#0$/m);
    });

    it('sees only the frozen prefix, never the prompt or a later chat', async () => {
        const input = sampleRunInput({
            prefix: prefixOf([{ text: 'A quiet glade.' }]),
            prompt: [{ role: 'system', content: 'zephyrword lives only in the prompt' }],
        });
        assert.match(text(await call(chatSearchTool, { query: 'zephyrword' }, input)), /^No hits/);
        // A new snapshot is a new array: the lowercased memo never leaks between snapshots.
        const later = sampleRunInput({ prefix: prefixOf([{ text: 'A quiet glade.' }, { text: 'zephyrword!' }]) });
        assert.deepEqual(hitIndexes(await call(chatSearchTool, { query: 'zephyrword' }, later)), [1]);
        assert.match(text(await call(chatSearchTool, { query: 'zephyrword' }, input)), /^No hits/);
    });
});

describe('chat.read_messages', () => {
    const input = withPrefix([
        { text: 'You wake in a quiet forest glade.\n\nBirds sing.', name: 'Seraphina' },
        { text: 'Where am I?', name: 'Tester' },
        { text: 'A secret note.', role: 'user', hidden: true, name: 'Tester' },
        { text: '我们明天去北京看长城' },
    ]);

    it('does not read a hidden message unless the profile opts in', async () => {
        const outcome = await call(readMessagesTool, { messages: [{ index: 2 }] }, input);
        assert.equal(outcome.ok, false);
        assert.equal(!outcome.ok && outcome.error.code, 'chat.message_not_found');
        assert.doesNotMatch(JSON.stringify(outcome), /secret note/);
    });

    it('reads whole messages with speaker, role, ref and exact text', async () => {
        const result = text(await call(readMessagesTool, { messages: [{ index: 0 }, { index: 1 }] }, input));
        assert.match(result, /^2 messages read, 57 chars of text\./);
        assert.ok(result.includes('=== #0 assistant Seraphina ref chat:current#0 · 46 chars, whole ===\nYou wake in a quiet forest glade.\n\nBirds sing.'));
        assert.ok(result.includes('=== #1 user Tester ref chat:current#1 · 11 chars, whole ===\nWhere am I?'));
    });

    it('reads ranges and says where to continue', async () => {
        const result = text(await call(readMessagesTool, { messages: [{ index: 3, start_char: 5, max_chars: 2 }, { index: 0, start_char: 35 }] }, input));
        assert.ok(result.includes('=== #3 user Tester ref chat:current#3 · chars 5–6 of 10, continue at start_char 7 ===\n北京'));
        assert.ok(result.includes('· chars 35–45 of 46, to the end ===\nBirds sing.'));
        const capped = text(await call(readMessagesTool, { messages: [{ index: 1, max_chars: 8000 }] }, input));
        assert.ok(capped.includes('11 chars, whole ===\nWhere am I?'));
    });

    it('marks hidden messages and shows group speakers', async () => {
        const result = text(await call(readMessagesTool, { messages: [{ index: 2 }] }, optedIn(input)));
        assert.ok(result.includes('=== #2 system hidden Tester ref chat:current#2'));
        const group = withPrefix([
            { text: 'Hi.', role: 'assistant', name: 'Alice' },
            { text: 'Yo.', role: 'assistant', name: 'Bob' },
        ]);
        const both = text(await call(readMessagesTool, { messages: [{ index: 0 }, { index: 1 }] }, group));
        assert.match(both, /=== #0 assistant Alice ref chat:current#0/);
        assert.match(both, /=== #1 assistant Bob ref chat:current#1/);
    });

    it('refuses an index outside the prefix, naming the valid range', async () => {
        for (const index of [4, -1, 100]) {
            const error = errorOf(await call(readMessagesTool, { messages: [{ index: 0 }, { index }] }, input));
            assert.equal(error.code, 'chat.message_not_found');
            assert.match(error.message, new RegExp(`#${index}`));
            assert.match(error.message, /valid indexes are 0\.\.3/);
        }
        const empty = errorOf(await call(readMessagesTool, { messages: [{ index: 0 }] }, withPrefix([])));
        assert.equal(empty.code, 'chat.message_not_found');
        assert.equal(readMessagesTool.args.safeParse({ messages: [] }).success, false);
        assert.equal(readMessagesTool.args.safeParse({ messages: [{ start_char: 1 }] }).success, false);
    });

    it('refuses bad ranges with chat.invalid_range', async () => {
        const cases = [
            { index: 1, start_char: 11 },
            { index: 1, start_char: 50 },
            { index: 1, start_char: -1 },
            { index: 1, max_chars: 0 },
            { index: 1, start_char: 2, max_chars: -5 },
        ];
        for (const request of cases) {
            const error = errorOf(await call(readMessagesTool, { messages: [request] }, input));
            assert.equal(error.code, 'chat.invalid_range', JSON.stringify(request));
            assert.match(error.message, /#1 has 11 chars/);
        }
        assert.match(errorOf(await call(readMessagesTool, { messages: [{ index: 1, start_char: 11 }] }, input)).hint, /0 to 10/);
    });

    it('refuses more than 20 messages, naming their lengths', async () => {
        const many = withPrefix(Array.from({ length: 25 }, (_, i) => ({ text: 'x'.repeat(i + 1) })));
        const twenty = await call(readMessagesTool, { messages: Array.from({ length: 20 }, (_, index) => ({ index })) }, many);
        assert.match(text(twenty), /^20 messages read/);
        const error = errorOf(await call(readMessagesTool, { messages: Array.from({ length: 21 }, (_, index) => ({ index })) }, many));
        assert.equal(error.code, 'chat.read_too_large');
        assert.match(error.message, /21 messages requested, at most 20 a call/);
        assert.match(error.message, /#0 1 char, #1 2 chars, .*#20 21 chars/);
        assert.match(error.hint, /at most 20 messages/);
    });

    it('refuses a range over 8000 chars and a whole message over 8000 chars, suggesting ranges', async () => {
        const big = withPrefix([{ text: 'a'.repeat(8001) }, { text: 'b'.repeat(100) }]);
        const overMax = errorOf(await call(readMessagesTool, { messages: [{ index: 1, max_chars: 8001 }] }, big));
        assert.equal(overMax.code, 'chat.read_too_large');
        assert.match(overMax.message, /max_chars 8001 for #1 is over the 8000-char limit/);
        assert.match(overMax.message, /Lengths: #1 100 chars/);

        const whole = errorOf(await call(readMessagesTool, { messages: [{ index: 0 }, { index: 1 }] }, big));
        assert.equal(whole.code, 'chat.read_too_large');
        assert.match(whole.message, /#0 is 8001 chars, over the 8000-char limit/);
        assert.match(whole.message, /Lengths: #0 8001 chars, #1 100 chars/);
        assert.match(whole.hint, /\{"index":0,"start_char":0,"max_chars":8000\}, then start_char 8000/);

        const fromStart = errorOf(await call(readMessagesTool, { messages: [{ index: 0, start_char: 0 }] }, big));
        assert.equal(fromStart.code, 'chat.read_too_large');

        const first = text(await call(readMessagesTool, { messages: [{ index: 0, max_chars: 8000 }] }, big));
        assert.match(first, /chars 0–7999 of 8001, continue at start_char 8000/);
        const rest = text(await call(readMessagesTool, { messages: [{ index: 0, start_char: 8000 }] }, big));
        assert.match(rest, /chars 8000–8000 of 8001, to the end ===\na$/);
    });

    it('refuses more than 20000 chars a call, naming lengths and what fits', async () => {
        const big = withPrefix([{ text: 'a'.repeat(8000) }, { text: 'b'.repeat(8000) }, { text: 'c'.repeat(4001) }, { text: 'd'.repeat(4000) }]);
        const exact = await call(readMessagesTool, { messages: [{ index: 0 }, { index: 1 }, { index: 3 }] }, big);
        assert.match(text(exact), /^3 messages read, 20000 chars of text/);
        const error = errorOf(await call(readMessagesTool, { messages: [{ index: 0 }, { index: 1 }, { index: 2 }] }, big));
        assert.equal(error.code, 'chat.read_too_large');
        assert.match(error.message, /this call would return 20001 chars, at most 20000 a call/);
        assert.match(error.message, /Lengths: #0 8000 chars, #1 8000 chars, #2 4001 chars/);
        assert.match(error.hint, /first 2 requests fit \(16000 chars\)/);
        // A range counts with its own size, not the message's.
        const ranged = await call(readMessagesTool, { messages: [{ index: 0 }, { index: 1 }, { index: 2, max_chars: 4000 }] }, big);
        assert.match(text(ranged), /20000 chars of text/);
    });
});
