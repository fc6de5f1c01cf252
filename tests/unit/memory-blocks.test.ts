// Memory blocks and recall (issue 37 §1, §4): block front matter, the pinned memory a run starts with (budget,
// blocks left out), the limit held on every write, and memory.search.
// Run: node --import tsx --test tests/unit/memory-blocks.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseProfile } from '../../src/contract/profile-migrations';
import { DEFAULT_PINNED_CHARS, WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import type { PrefixMessage } from '../../src/contract/run-input';
import { pinnedMemory, pinnedMemoryText } from '../../src/engine/agents/pinned-memory';
import { Journal } from '../../src/engine/journal/journal';
import { createMemoryRunStorage } from '../../src/store/run-storage';
import { memorySearchTool, MAX_MEMORY_HITS } from '../../src/tools/memory/search';
import type { ToolContext, ToolDefinition, ToolOutcome } from '../../src/tools/tool';
import { applyPatchTool } from '../../src/tools/workspace/apply-patch';
import { readFileTool } from '../../src/tools/workspace/read-file';
import { writeFileTool } from '../../src/tools/workspace/write-file';
import { DEFAULT_BLOCK_LIMIT, parseMemoryBlock } from '../../src/workspace/memory-block';
import { DEFAULT_ROOT_POLICY, type RootPolicy } from '../../src/workspace/roots';
import { Workspace } from '../../src/workspace/workspace';
import { noSkills, sampleRunInput } from '../fixtures/run-input';
import { rawCall, runHarness, toolTurn } from '../fixtures/run-harness';

const block = (front: string, body: string) => `---\n${front}\n---\n${body}`;

describe('block front matter', () => {
    it('reads title, pinned and limit, and the text after the front matter', () => {
        const parsed = parseMemoryBlock('persist/threads.md', block('title: Open threads\npinned: true\nlimit: 500', '- The lantern.\n'));
        assert.deepEqual(parsed, { path: 'persist/threads.md', title: 'Open threads', pinned: true, limit: 500, body: '- The lantern.\n' });
    });

    it('falls back field by field: the file name for a title, not pinned unless `true`, the default limit', () => {
        const parsed = parseMemoryBlock('persist/places.md', block('title: 12\npinned: "yes"\nlimit: -4', 'The glade.'));
        assert.deepEqual(parsed, { path: 'persist/places.md', title: 'places', pinned: false, limit: DEFAULT_BLOCK_LIMIT, body: 'The glade.' });
        assert.equal(parseMemoryBlock('persist/a.md', block('limit: 2.5', 'x'))!.limit, DEFAULT_BLOCK_LIMIT);
        assert.equal(parseMemoryBlock('persist/a.md', block('limit: 999999999', 'x'))!.limit, DEFAULT_BLOCK_LIMIT);
    });

    it('is no block (never an error) without readable front matter, outside persist/ or in a file that is not Markdown', () => {
        for (const text of ['# Just notes', '---\ntitle: open', '---\n: [unclosed\n---\nx', '---\n- a list\n---\nx', `---\ntitle: ${'x'.repeat(5000)}\n---\nx`, '---\na: &a [1]\nb: [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\n---\n']) {
            assert.equal(parseMemoryBlock('persist/notes.md', text), null, JSON.stringify(text.slice(0, 40)));
        }
        assert.equal(parseMemoryBlock('scratch/notes.md', block('pinned: true', 'x')), null);
        assert.equal(parseMemoryBlock('persist/notes.txt', block('pinned: true', 'x')), null);
    });
});

describe('the pinned memory a run starts with', () => {
    const files = {
        'persist/characters.md': block('title: Characters\npinned: true', 'Seraphina guards the glade.'),
        'persist/places.md': block('title: Places\npinned: false', 'The glade; the ruined tower.'),
        'persist/threads.md': block('title: Open threads\npinned: true', '- Bring the lantern to the village.'),
        'persist/zeal.md': block('title: Long one\npinned: true', 'z'.repeat(60)),
        'persist/zz.md': block('title: Tiny\npinned: true', 'tiny'),
        'persist/notes.md': 'Plain notes, no block.',
    };

    it('shows pinned blocks in path order within the budget, skips one that does not fit, and names it', () => {
        const all = pinnedMemory(files, DEFAULT_PINNED_CHARS);
        assert.deepEqual(all.shown.map((b) => b.path), ['persist/characters.md', 'persist/threads.md', 'persist/zeal.md', 'persist/zz.md']);
        assert.deepEqual(all.leftOut, []);
        // 27 + 35 characters fit in 70; the 60 of "Long one" do not, and the 4 of "Tiny" after it still do.
        const tight = pinnedMemory(files, 70);
        assert.deepEqual(tight.shown.map((b) => b.path), ['persist/characters.md', 'persist/threads.md', 'persist/zz.md']);
        assert.deepEqual(tight.leftOut.map((b) => b.path), ['persist/zeal.md']);
        const small = pinnedMemory(files, 40);
        assert.deepEqual(small.shown.map((b) => b.path), ['persist/characters.md', 'persist/zz.md']);
        assert.deepEqual(small.leftOut.map((b) => b.path), ['persist/threads.md', 'persist/zeal.md']);
    });

    it('is text under each title, with the names of blocks left out; nothing when no block is pinned', () => {
        const text = pinnedMemoryText(files, 70)!;
        assert.match(text, /## Characters \(persist\/characters\.md\)\nSeraphina guards the glade\./);
        assert.match(text, /## Open threads \(persist\/threads\.md\)\n- Bring the lantern/);
        assert.doesNotMatch(text, /ruined tower/, 'an unpinned block is not shown');
        assert.doesNotMatch(text, /Plain notes/);
        assert.match(text, /left out \(over this agent's 70-character budget for pinned memory\): "Long one" \(persist\/zeal\.md, 60 chars\)/);
        assert.equal(pinnedMemoryText({ 'persist/notes.md': 'x', 'persist/places.md': files['persist/places.md'] }, 100), null);
        assert.match(pinnedMemoryText(files, 0)!, /"Characters" \(persist\/characters\.md, 27 chars\), "Open threads"/, 'a budget of 0 shows none and names all');
    });

    const prefixWith = (memory: Record<string, string>): PrefixMessage[] => [
        { index: 0, role: 'assistant', name: 'Seraphina', text: 'Hello.', hidden: false, agentRunId: 'run-a', memory: { v: 1, files: memory } },
        { index: 1, role: 'user', name: 'Tester', text: 'Go on.', hidden: false, agentRunId: null },
    ];
    const reply = () => toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Reply.' }), rawCall('c', 'workspace_commit'), rawCall('f', 'workspace_finish'));

    it("opens the run's first request (its system message), following the chat's memory; a profile that cannot see persist/ gets none", async () => {
        const h = runHarness({ script: [reply()] });
        await h.run(sampleRunInput({ runId: 'pin-1', prefix: prefixWith(files) }), { ...WRITER_PROFILE, memory: { ...WRITER_PROFILE.memory, pinnedChars: 70 } });
        const system = String(h.requests[0]!.messages[0]!.content);
        assert.match(system, /Seraphina guards the glade\./);
        assert.match(system, /Bring the lantern/);
        assert.doesNotMatch(system, /ruined tower/);
        assert.match(system, /"Long one" \(persist\/zeal\.md, 60 chars\)/);

        const hidden = runHarness({ script: [reply()] });
        const noPersist: Profile = { ...WRITER_PROFILE, workspace: { visibleRoots: ['output', 'scratch'], writableRoots: ['output', 'scratch'] } };
        await hidden.run(sampleRunInput({ runId: 'pin-2', prefix: prefixWith(files) }), noPersist);
        assert.doesNotMatch(String(hidden.requests[0]!.messages[0]!.content), /Pinned memory|glade\./);
    });

    it('is a profile setting: 8,000 by default, and a stored profile without it still loads', () => {
        const { memory: _dropped, ...old } = WRITER_PROFILE;
        const parsed = parseProfile(old);
        assert.ok(parsed.ok);
        assert.deepEqual(parsed.profile.memory, { pinnedChars: 8_000, buildChunk: 40 });
        const bad = parseProfile({ ...WRITER_PROFILE, memory: { pinnedChars: -1 } });
        assert.ok(!bad.ok && bad.errors.some((error) => error.path === 'memory.pinnedChars'));
    });
});

function setup(policy: RootPolicy = DEFAULT_ROOT_POLICY) {
    const storage = createMemoryRunStorage();
    const journal = new Journal('run-1', storage, () => undefined, () => 1000);
    const workspace = new Workspace('run-1', policy, storage, journal, () => 1000);
    const context = { input: sampleRunInput(), workspace, run: {} as ToolContext['run'], skills: noSkills(), signal: new AbortController().signal } satisfies ToolContext;
    const call = (tool: ToolDefinition, raw: Record<string, unknown>): Promise<ToolOutcome> => tool.execute(tool.args.parse(raw), context);
    return { workspace, call };
}

function refused(outcome: ToolOutcome): { code: string; message: string } {
    if (outcome.ok) assert.fail(`expected an error, got: ${outcome.result.content.slice(0, 200)}`);
    return outcome.error;
}

function text(outcome: ToolOutcome): string {
    if (!outcome.ok) assert.fail(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
    return outcome.result.content;
}

describe("a pinned block's limit, on every write", () => {
    const pinned = (body: string, limit = 20) => block(`title: Threads\npinned: true\nlimit: ${limit}`, body);

    it('refuses a write_file (replace or append) past the limit, naming the limit and the length, and leaves the file as it was', async () => {
        const { workspace, call } = setup();
        text(await call(writeFileTool, { path: 'persist/threads.md', content: pinned('- short') }));
        const before = workspace.get('persist/threads.md');
        const replace = refused(await call(writeFileTool, { path: 'persist/threads.md', content: pinned('x'.repeat(21)) }));
        assert.equal(replace.code, 'memory.block_too_long');
        assert.match(replace.message, /limit of 20 characters; this write would make its text 21 characters \(it has 7 now\)/);
        const append = refused(await call(writeFileTool, { path: 'persist/threads.md', content: '- and a much longer line', mode: 'append' }));
        assert.equal(append.code, 'memory.block_too_long');
        assert.deepEqual(workspace.get('persist/threads.md'), before, 'nothing was written');
        // A new file is checked too; an unpinned block and a plain file have no limit.
        assert.equal(refused(await call(writeFileTool, { path: 'persist/new.md', content: pinned('y'.repeat(30)) })).code, 'memory.block_too_long');
        assert.equal(workspace.get('persist/new.md'), undefined);
        text(await call(writeFileTool, { path: 'persist/places.md', content: block('pinned: false\nlimit: 5', 'a long unpinned text') }));
        text(await call(writeFileTool, { path: 'persist/notes.md', content: 'z'.repeat(5000) }));
    });

    it('refuses a patch past the limit; a block already over it may shrink, never grow', async () => {
        const { workspace, call } = setup();
        text(await call(writeFileTool, { path: 'persist/threads.md', content: pinned('- one') }));
        text(await call(readFileTool, { path: 'persist/threads.md' }));
        const patch = refused(await call(applyPatchTool, { path: 'persist/threads.md', old_string: '- one', new_string: '- one, two, three, four, five' }));
        assert.equal(patch.code, 'memory.block_too_long');
        assert.match(patch.message, /limit of 20 characters; this write would make its text 29 characters \(it has 5 now\)/);
        assert.equal(workspace.get('persist/threads.md')!.version, 1, 'the patch wrote nothing');

        // Its limit lowered (an unpinned block pinned later, an older file): shrinking works, growing does not.
        text(await call(writeFileTool, { path: 'persist/threads.md', content: pinned('- one, two, three', 100) }));
        text(await call(writeFileTool, { path: 'persist/threads.md', content: pinned('- one, two, three', 5) }));
        text(await call(readFileTool, { path: 'persist/threads.md' }));
        text(await call(applyPatchTool, { path: 'persist/threads.md', old_string: ', three', new_string: '' }));
        text(await call(readFileTool, { path: 'persist/threads.md' }));
        assert.equal(refused(await call(applyPatchTool, { path: 'persist/threads.md', old_string: 'two', new_string: 'two!' })).code, 'memory.block_too_long');
    });

    it('is held by the workspace itself: a writer that skipped the check fails loudly instead of writing', async () => {
        const { workspace } = setup();
        await assert.rejects(workspace.write('persist/threads.md', pinned('x'.repeat(50)), 'replace'), /unchecked write/);
        assert.equal(workspace.get('persist/threads.md'), undefined);
    });
});

describe('memory.search', () => {
    async function seeded(policy?: RootPolicy) {
        const s = setup(policy);
        await s.workspace.seed({
            'persist/characters.md': block('title: Characters\npinned: true', 'Seraphina guards the glade.\nThe ranger owes her a debt.'),
            'persist/threads.md': block('title: Open threads\npinned: true', '- Bring the lantern to the village.'),
            'persist/scenes/001.md': '# 第一幕\n\n我们在古老的灯塔下找到了钥匙。\n之后下起了雨。',
            'persist/scenes/002.md': 'The lantern went out at the ruined tower; the village lantern festival began.',
            'scratch/lantern.md': 'not memory: the lantern',
        });
        return s;
    }

    it('ranks files holding more of the words first, gives refs read_file can read, and searches only persist/', async () => {
        const { call } = await seeded();
        const result = text(await call(memorySearchTool, { query: 'lantern village' }));
        assert.match(result, /^2 hits for "lantern village" in 4 memory files \(persist\/\)\./);
        assert.doesNotMatch(result, /scratch\//);
        // Both hold both words (neither the phrase): equal scores keep path order.
        assert.deepEqual([...result.matchAll(/^(persist\/\S+) ·/gm)].map((m) => m[1]), ['persist/scenes/002.md', 'persist/threads.md']);
        assert.match(result, /persist\/threads\.md · pinned block "Open threads" · score 0\.80 · ref workspace:persist\/threads\.md#L5-L5/);
        const ranked = text(await call(memorySearchTool, { query: 'ranger owes' }));
        assert.match(ranked, /^1 hit .*\n\npersist\/characters\.md · pinned block "Characters" · score 1\.00 · ref workspace:persist\/characters\.md#L6-L6\n/s, "the phrase ranks highest, on the line that holds it");
        const partial = text(await call(memorySearchTool, { query: 'ranger lantern' }));
        // One of two words each: the longer word weighs more (as in chat.search).
        assert.deepEqual([...partial.matchAll(/^(persist\/\S+) · .* score (\S+)/gm)].map((m) => `${m[1]} ${m[2]}`), ['persist/scenes/002.md 0.43', 'persist/threads.md 0.43', 'persist/characters.md 0.37']);
        // A block's title counts: "threads" is in no text, only in a title.
        assert.match(text(await call(memorySearchTool, { query: 'threads' })), /^1 hit .*\n\npersist\/threads\.md · pinned block "Open threads" · score 1\.00/s);
        const ref = /ref workspace:(persist\/threads\.md)#L(\d+)/.exec(result)!;
        assert.match(text(await call(readFileTool, { path: ref[1]!, start_line: Number(ref[2]), line_count: 1 })), /Bring the lantern/);
    });

    it('finds Chinese written without spaces, with the line in its ref', async () => {
        const { call } = await seeded();
        const result = text(await call(memorySearchTool, { query: '灯塔' }));
        assert.match(result, /^1 hit for "灯塔"/);
        assert.match(result, /persist\/scenes\/001\.md · file · score 1\.00 · ref workspace:persist\/scenes\/001\.md#L3-L3\n# 第一幕 我们在古老的灯塔下找到了钥匙/);
        assert.match(text(await call(memorySearchTool, { query: '古老灯塔钥匙' })), /persist\/scenes\/001\.md/);
    });

    it('keeps to its limit (≤ 20, more refused), answers zero hits normally, and refuses an agent that cannot see persist/', async () => {
        const { call } = await seeded();
        assert.match(text(await call(memorySearchTool, { query: 'lantern', limit: 1 })), /^2 hits .*showing the best 1\./);
        assert.equal(memorySearchTool.args.safeParse({ query: 'x', limit: MAX_MEMORY_HITS + 1 }).success, false);
        assert.equal(memorySearchTool.args.safeParse({ query: 'x', limit: MAX_MEMORY_HITS }).success, true);
        assert.match(text(await call(memorySearchTool, { query: 'dragon' })), /^No hits for "dragon" in 4 memory files/);
        assert.equal(refused(await call(memorySearchTool, { query: '   ' })).code, 'tool.invalid_arguments');
        const narrow = await seeded({ visible: ['output', 'scratch'], writable: ['output'] });
        assert.equal(refused(await narrow.call(memorySearchTool, { query: 'lantern' })).code, 'workspace.path_not_visible');
    });
});
