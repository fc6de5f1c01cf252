// Unit tests of the seven workspace tools over a workspace, journal and run, each suite once on the in-memory
// storage and once on IndexedDB storage (tests/fixtures/storage-kinds.ts).
// Run: node --import tsx --test tests/unit/workspace-tools.test.ts
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { JournalEvent } from '../../src/contract/events';
import { Journal } from '../../src/engine/journal/journal';
import type { RunControls, ToolContext, ToolDefinition, ToolOutcome } from '../../src/tools/tool';
import { applyPatchTool } from '../../src/tools/workspace/apply-patch';
import { commitTool } from '../../src/tools/workspace/commit';
import { finishTool } from '../../src/tools/workspace/finish';
import { WORKSPACE_TOOLS } from '../../src/tools/workspace/index';
import { listFilesTool } from '../../src/tools/workspace/list-files';
import { readFileTool } from '../../src/tools/workspace/read-file';
import { searchFilesTool } from '../../src/tools/workspace/search-files';
import { writeFileTool } from '../../src/tools/workspace/write-file';
import { rebuildCheckpoint } from '../../src/workspace/checkpoints';
import { DEFAULT_ROOT_POLICY, type RootPolicy } from '../../src/workspace/roots';
import { Workspace } from '../../src/workspace/workspace';
import { noSkills, sampleRunInput } from '../fixtures/run-input';
import { suitesPerStorageKind } from '../fixtures/storage-kinds';

/** Each `describe` below runs once per storage kind; `newStorage()` makes a fresh storage of that kind. */
const { describe, newStorage } = suitesPerStorageKind();

const RUN_ID = 'run-1';

function setup(opts: { foreground?: boolean; policy?: RootPolicy } = {}) {
    const storage = newStorage();
    const events: JournalEvent[] = [];
    const journal = new Journal(RUN_ID, storage, (event) => events.push(event), () => 1000);
    const workspace = new Workspace(RUN_ID, opts.policy ?? DEFAULT_ROOT_POLICY, storage, journal, () => 1000);
    const commits: Array<{ path: string; text: string; mode: 'replace' | 'append'; reason: string | null }> = [];
    const finishes: Array<string | null> = [];
    const run: RunControls = {
        foreground: opts.foreground ?? true,
        hasCommitted: () => commits.length > 0,
        async commit(request) {
            commits.push(request);
            return { messageId: 41 + commits.length };
        },
        finish(reason) {
            finishes.push(reason);
        },
    };
    const context: ToolContext = { input: sampleRunInput(), workspace, run, skills: noSkills(), signal: new AbortController().signal };
    /** Parses the arguments with the tool's own schema (as the dispatcher does), then executes. */
    const call = (tool: ToolDefinition, raw: Record<string, unknown>): Promise<ToolOutcome> => tool.execute(tool.args.parse(raw), context);
    const eventsOf = (type: string) => events.filter((event) => event.type === type);
    return { storage, events, eventsOf, workspace, commits, finishes, call };
}

function text(outcome: ToolOutcome): string {
    if (!outcome.ok) assert.fail(`expected success, got ${outcome.error.code}: ${outcome.error.message}`);
    return outcome.result.content;
}

function code(outcome: ToolOutcome): string {
    if (outcome.ok) assert.fail(`expected an error, got: ${outcome.result.content.slice(0, 200)}`);
    return outcome.error.code;
}

function errorOf(outcome: ToolOutcome) {
    if (outcome.ok) assert.fail(`expected an error, got: ${outcome.result.content.slice(0, 200)}`);
    return outcome.error;
}

const TEN_LINES = Array.from({ length: 10 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('workspace tool definitions', () => {
    it('registers the seven tools with canonical names and aliases', () => {
        assert.deepEqual(
            WORKSPACE_TOOLS.map((tool) => [tool.name, tool.alias]),
            [
                ['workspace.list_files', 'workspace_list_files'],
                ['workspace.search_files', 'workspace_search_files'],
                ['workspace.read_file', 'workspace_read_file'],
                ['workspace.write_file', 'workspace_write_file'],
                ['workspace.apply_patch', 'workspace_apply_patch'],
                ['workspace.commit', 'workspace_commit'],
                ['workspace.finish', 'workspace_finish'],
            ],
        );
        assert.deepEqual(
            WORKSPACE_TOOLS.filter((tool) => tool.readOnly).map((tool) => tool.name),
            ['workspace.list_files', 'workspace.search_files', 'workspace.read_file'],
        );
        assert.match(readFileTool.description, /NOT part of the file/);
        assert.match(applyPatchTool.description, /read the file first/);
        assert.match(commitTool.description, /then call workspace_finish/);
    });

    it('rejects out-of-range arguments at the schema', () => {
        assert.equal(listFilesTool.args.safeParse({ depth: 5 }).success, false);
        assert.equal(listFilesTool.args.safeParse({ depth: 0 }).success, false);
        assert.equal(listFilesTool.args.safeParse({ depth: 4 }).success, true);
        assert.equal(searchFilesTool.args.safeParse({ query: 'x', limit: 51 }).success, false);
        assert.equal(searchFilesTool.args.safeParse({ query: 'x', limit: 50 }).success, true);
        assert.equal(searchFilesTool.args.safeParse({ query: 'x', context_lines: 6 }).success, false);
        assert.equal(searchFilesTool.args.safeParse({ query: '' }).success, false);
        // read_file's bounds are checked by the tool (read_too_large / invalid_range), not the schema.
        assert.equal(readFileTool.args.safeParse({ path: 'a/b', max_chars: 80001 }).success, true);
        assert.equal(readFileTool.args.safeParse({ path: 'a/b', start_line: 1.5 }).success, false);
        assert.equal(readFileTool.args.safeParse({}).success, false);
        assert.equal(writeFileTool.args.safeParse({ path: 'scratch/a', content: 'x', mode: 'insert' }).success, false);
        assert.equal(applyPatchTool.args.safeParse({ path: 'scratch/a', old_string: '', new_string: 'x' }).success, false);
    });

    it('fills the documented defaults', () => {
        assert.deepEqual(listFilesTool.args.parse({}), { path: '', depth: 2 });
        assert.deepEqual(searchFilesTool.args.parse({ query: 'q' }), { query: 'q', path: '', limit: 20, context_lines: 2 });
        assert.deepEqual(writeFileTool.args.parse({ path: 'p', content: '' }), { path: 'p', content: '', mode: 'replace' });
        assert.deepEqual(commitTool.args.parse({}), { path: 'output/main.md', mode: 'replace' });
    });
});

describe('hostile paths', () => {
    const hostile: Array<[label: string, path: string, read: string, write: string, list: string | null]> = [
        ['parent', '../x', 'workspace.invalid_path', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['nested parent', 'scratch/../input/x', 'workspace.invalid_path', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['absolute', '/etc/passwd', 'workspace.invalid_path', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['drive letter', 'C:\\x', 'workspace.invalid_path', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['drive letter, slash', 'C:/x', 'workspace.invalid_path', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['backslash', 'a\\b', 'workspace.invalid_path', 'workspace.invalid_path', 'workspace.invalid_path'],
        ['input store', 'input/prompt.json', 'workspace.path_not_visible', 'workspace.path_not_writable', 'workspace.path_not_visible'],
        ['input root', 'input', 'workspace.path_not_visible', 'workspace.path_not_writable', 'workspace.path_not_visible'],
        ['tool results', 'tool-results/x', 'workspace.path_not_visible', 'workspace.path_not_writable', 'workspace.path_not_visible'],
        ['checkpoints', 'checkpoints/x', 'workspace.path_not_visible', 'workspace.path_not_writable', 'workspace.path_not_visible'],
        ['journal', 'events.jsonl', 'workspace.path_not_visible', 'workspace.path_not_writable', 'workspace.path_not_visible'],
        ['unknown root', 'secrets/x.md', 'workspace.path_not_visible', 'workspace.path_not_writable', 'workspace.path_not_visible'],
        ['NUL', 'scratch/a\0b.md', 'workspace.invalid_path', 'workspace.invalid_path', 'workspace.invalid_path'],
        // The empty path is the workspace root: listing it is fine, reading or writing it is not.
        ['empty', '', 'workspace.invalid_path', 'workspace.invalid_path', null],
        ['root alias', './', 'workspace.invalid_path', 'workspace.invalid_path', null],
    ];

    for (const [label, path, readCode, writeCode, listCode] of hostile) {
        it(`${label}: ${JSON.stringify(path)}`, async () => {
            const { call, storage, events, workspace } = setup();
            await workspace.writeHidden('input/prompt.json', 'SECRET PROMPT');
            const filesBefore = (await storage.listFiles(RUN_ID)).length;

            assert.equal(code(await call(readFileTool, { path })), readCode);
            assert.equal(code(await call(writeFileTool, { path, content: 'pwned' })), writeCode);
            assert.equal(code(await call(writeFileTool, { path, content: 'pwned', mode: 'append' })), writeCode);
            assert.equal(code(await call(applyPatchTool, { path, old_string: 'SECRET', new_string: 'x' })), writeCode);
            if (listCode === null) assert.match(text(await call(listFilesTool, { path })), /^Workspace root/);
            else assert.equal(code(await call(listFilesTool, { path })), listCode);
            if (listCode !== null) assert.equal(code(await call(searchFilesTool, { query: 'SECRET', path })), listCode);

            assert.equal((await storage.listFiles(RUN_ID)).length, filesBefore, 'nothing written');
            assert.equal(events.length, 0, 'nothing journaled');
            assert.equal(workspace.list().length, 0);
        });
    }

    it('never lists or searches the hidden stores', async () => {
        const { call, workspace } = setup();
        await workspace.writeHidden('input/prompt.json', 'SECRET PROMPT');
        await workspace.writeHidden('tool-results/c1.json', 'SECRET RESULT');
        const listing = text(await call(listFilesTool, { depth: 4 }));
        assert.doesNotMatch(listing, /input|tool-results|SECRET/);
        assert.match(text(await call(searchFilesTool, { query: 'secret' })), /^No matches/);
    });

    it('a root itself is not a file to write or read', async () => {
        const { call } = setup();
        assert.equal(code(await call(writeFileTool, { path: 'output', content: 'x' })), 'workspace.path_is_directory');
        assert.equal(code(await call(readFileTool, { path: 'output' })), 'workspace.path_is_directory');
    });

    it('respects a narrowed root policy', async () => {
        const { call, workspace } = setup({ policy: { visible: ['output', 'scratch'], writable: ['scratch'] } });
        assert.equal(code(await call(writeFileTool, { path: 'output/main.md', content: 'x' })), 'workspace.path_not_writable');
        assert.equal(code(await call(readFileTool, { path: 'persist/memory.md' })), 'workspace.path_not_visible');
        text(await call(writeFileTool, { path: 'scratch/a.md', content: 'x' }));
        assert.equal(workspace.get('scratch/a.md')?.content, 'x');
        const listing = text(await call(listFilesTool, {}));
        assert.deepEqual(listing.split('\n').slice(1), ['output/  (empty)', 'scratch/  (1 file)', 'scratch/a.md  (1 chars)']);
    });
});

describe('workspace.list_files', () => {
    async function seeded() {
        const env = setup();
        await env.workspace.seed({
            'output/main.md': 'Hello',
            'scratch/a.md': 'aaa',
            'scratch/notes/b.md': 'bb',
            'scratch/notes/deep/c.md': 'c',
            'scratch/notes/deep/deeper/d.md': 'dddd',
            'persist/memory.md': 'remember',
        });
        return env;
    }
    const lines = (outcome: ToolOutcome) => text(outcome).split('\n').slice(1);

    it('depth 1 at the root lists every visible root, empty ones too', async () => {
        const { call } = await seeded();
        const outcome = await call(listFilesTool, { depth: 1 });
        assert.match(text(outcome), /^Workspace root, depth 1: 5 roots, 6 files\./);
        assert.deepEqual(lines(outcome), ['output/  (1 file)', 'scratch/  (4 files)', 'plan/  (empty)', 'summaries/  (empty)', 'persist/  (1 file)']);
    });

    it('depth 2 (the default) adds the roots\' own files and folders', async () => {
        const { call } = await seeded();
        assert.deepEqual(lines(await call(listFilesTool, {})), [
            'output/  (1 file)',
            'output/main.md  (5 chars)',
            'scratch/  (4 files)',
            'scratch/a.md  (3 chars)',
            'scratch/notes/  (3 files)',
            'plan/  (empty)',
            'summaries/  (empty)',
            'persist/  (1 file)',
            'persist/memory.md  (8 chars)',
        ]);
        for (const root of ['', '.', './']) assert.equal(text(await call(listFilesTool, { path: root })), text(await call(listFilesTool, {})));
    });

    it('depth 3 and 4 go deeper; depth counts below the listed path', async () => {
        const { call } = await seeded();
        const three = lines(await call(listFilesTool, { depth: 3 }));
        assert.ok(three.includes('scratch/notes/b.md  (2 chars)'));
        assert.ok(three.includes('scratch/notes/deep/  (2 files)'));
        assert.ok(!three.includes('scratch/notes/deep/c.md  (1 chars)'));
        const four = lines(await call(listFilesTool, { depth: 4 }));
        assert.ok(four.includes('scratch/notes/deep/c.md  (1 chars)'));
        assert.ok(four.includes('scratch/notes/deep/deeper/  (1 file)'));
        assert.ok(!four.some((line) => line.includes('d.md')));

        assert.deepEqual(lines(await call(listFilesTool, { path: 'scratch', depth: 1 })), ['scratch/a.md  (3 chars)', 'scratch/notes/  (3 files)']);
        assert.deepEqual(lines(await call(listFilesTool, { path: 'scratch/notes/', depth: 4 })), [
            'scratch/notes/b.md  (2 chars)',
            'scratch/notes/deep/  (2 files)',
            'scratch/notes/deep/c.md  (1 chars)',
            'scratch/notes/deep/deeper/  (1 file)',
            'scratch/notes/deep/deeper/d.md  (4 chars)',
        ]);
    });

    it('a file path lists just that file; a missing path is file_not_found; an empty root says so', async () => {
        const { call } = await seeded();
        assert.equal(text(await call(listFilesTool, { path: 'output/main.md' })), 'output/main.md  (5 chars, version 0)');
        const missing = errorOf(await call(listFilesTool, { path: 'scratch/nope' }));
        assert.equal(missing.code, 'workspace.file_not_found');
        assert.match(missing.message, /scratch\/nope/);
        assert.match(text(await call(listFilesTool, { path: 'plan' })), /^plan\/, depth 2: 0 files\.\n\(empty folder\)$/);
    });

    it('shows at most 200 entries, then how many more', async () => {
        const { call, workspace } = setup();
        const files: Record<string, string> = {};
        for (let i = 0; i < 230; i += 1) files[`scratch/f${String(i).padStart(3, '0')}.md`] = 'x';
        await workspace.seed(files);
        const out = text(await call(listFilesTool, {})).split('\n');
        assert.equal(out.length, 1 + 200 + 1);
        assert.match(out.at(-1)!, /^… 35 more/); // 5 roots + 230 files = 235 entries
    });
});

describe('workspace.search_files', () => {
    async function seeded() {
        const env = setup();
        await env.workspace.seed({
            'scratch/a.md': 'one\nDragon two\nthree\nfour\nfive dragon and DRAGON\nsix\nseven\n',
            'output/main.md': 'A dragon appears.',
            'persist/memory.md': 'nothing here',
        });
        return env;
    }

    it('finds case-insensitive hits ordered by path then line, with context and refs', async () => {
        const { call } = await seeded();
        const outcome = await call(searchFilesTool, { query: 'DRAGON', context_lines: 1 });
        const out = text(outcome);
        assert.match(out, /^3 hits for "DRAGON" in the workspace \(3 files searched\)\./);
        const blocks = out.split('\n\n').slice(1);
        assert.deepEqual(blocks, [
            'output/main.md:1  (workspace:output/main.md#L1-L1)\n1│A dragon appears.',
            'scratch/a.md:2  (workspace:scratch/a.md#L1-L3)\n1│one\n2│Dragon two\n3│three',
            'scratch/a.md:5  (workspace:scratch/a.md#L4-L6)\n4│four\n5│five dragon and DRAGON\n6│six',
        ]);
    });

    it('honours context_lines 0 and the default of 2', async () => {
        const { call } = await seeded();
        const zero = text(await call(searchFilesTool, { query: 'two', context_lines: 0 }));
        assert.match(zero, /scratch\/a\.md:2  \(workspace:scratch\/a\.md#L2-L2\)\n2│Dragon two$/);
        const two = text(await call(searchFilesTool, { query: 'five' }));
        assert.match(two, /scratch\/a\.md:5  \(workspace:scratch\/a\.md#L3-L7\)\n3│three\n4│four\n5│five dragon and DRAGON\n6│six\n7│seven$/);
    });

    it('stops at limit and says how many there were', async () => {
        const { call } = await seeded();
        const out = text(await call(searchFilesTool, { query: 'dragon', limit: 2 }));
        assert.match(out, /^3 hits .*showing the first 2\./);
        assert.equal(out.split('\n\n').length, 3);
    });

    it('zero hits is a normal result', async () => {
        const { call } = await seeded();
        const outcome = await call(searchFilesTool, { query: 'unicorn' });
        assert.equal(text(outcome), 'No matches for "unicorn" in the workspace (3 files searched).');
    });

    it('limits the search to a folder or a file; a missing path is file_not_found', async () => {
        const { call } = await seeded();
        assert.match(text(await call(searchFilesTool, { query: 'dragon', path: 'scratch' })), /^2 hits .* in "scratch" \(1 file searched\)/);
        assert.match(text(await call(searchFilesTool, { query: 'dragon', path: 'output/main.md' })), /^1 hit for/);
        assert.equal(code(await call(searchFilesTool, { query: 'dragon', path: 'plan/x.md' })), 'workspace.file_not_found');
    });

    it('finds text spanning lines and cuts very long lines', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/long.md': `${'x'.repeat(5000)}needle${'y'.repeat(5000)}\nend\nof file` });
        const out = text(await call(searchFilesTool, { query: 'needle' }));
        assert.ok(out.length < 1000);
        assert.match(out, /1│…x+needley+…/);
        assert.match(text(await call(searchFilesTool, { query: 'end\nof' })), /scratch\/long\.md:2-3/);
    });

    it('stays bounded with 50 hits of long lines', async () => {
        const { call, workspace } = setup();
        const line = `hit ${'z'.repeat(2000)}`;
        await workspace.seed({ 'scratch/big.md': Array.from({ length: 300 }, () => line).join('\n') });
        const out = text(await call(searchFilesTool, { query: 'hit', limit: 50, context_lines: 5 }));
        assert.ok(out.length <= 80_000, `result has ${out.length} chars`);
    });
});

describe('workspace.read_file', () => {
    it('reads a whole file with numbered lines and records a full read', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/r.md': TEN_LINES });
        const out = text(await call(readFileTool, { path: 'scratch/r.md' }));
        const rows = out.split('\n');
        assert.equal(rows[0], 'scratch/r.md — lines 1–10 of 10 (version 0)');
        assert.equal(rows[1], ' 1│line 1');
        assert.equal(rows[10], '10│line 10');
        assert.equal(rows.length, 11);
        assert.equal(workspace.readState.versionRead('scratch/r.md'), 0);
        assert.ok(workspace.readState.covers('scratch/r.md', [0], TEN_LINES.length));
    });

    it('reads a line range and records exactly that text', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/r.md': TEN_LINES });
        const out = text(await call(readFileTool, { path: 'scratch/r.md', start_line: 3, line_count: 2 }));
        assert.equal(out, 'scratch/r.md — lines 3–4 of 10 (version 0)\n3│line 3\n4│line 4');
        const start = TEN_LINES.indexOf('line 3');
        const end = TEN_LINES.indexOf('line 5');
        assert.ok(workspace.readState.covers('scratch/r.md', [start], end - start));
        assert.ok(!workspace.readState.covers('scratch/r.md', [start], end - start + 1));
        assert.ok(!workspace.readState.covers('scratch/r.md', [0], 3));
        // line_count past the end reads to the end.
        assert.match(text(await call(readFileTool, { path: 'scratch/r.md', start_line: 9, line_count: 50 })), /lines 9–10 of 10/);
    });

    it('reads a char range', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/r.md': TEN_LINES });
        const out = text(await call(readFileTool, { path: 'scratch/r.md', start_char: 9, max_chars: 10 }));
        // chars 9..18 are "ne 2\nline 3"[0..10) = "ne 2\nline "
        assert.equal(out, `scratch/r.md — chars 9–18 of ${TEN_LINES.length}, lines 2–3 of 10 (version 0)\n2│ne 2\n3│line \n[Not everything you asked for: this read stopped at its size limit (10 chars of text). To continue, call workspace_read_file with path "scratch/r.md" and start_char 19.]`);
        assert.ok(workspace.readState.covers('scratch/r.md', [9], 10));
        assert.ok(!workspace.readState.covers('scratch/r.md', [8], 2));
        // A char range to the end of the file says nothing about continuing.
        assert.doesNotMatch(text(await call(readFileTool, { path: 'scratch/r.md', start_char: 60 })), /continue/);
    });

    it('refuses mixed and invalid ranges with the file size in the message', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/r.md': TEN_LINES, 'scratch/empty.md': '' });
        const path = 'scratch/r.md';
        assert.equal(code(await call(readFileTool, { path, start_line: 2, start_char: 3 })), 'workspace.mixed_range');
        assert.equal(code(await call(readFileTool, { path, line_count: 2, start_char: 3 })), 'workspace.mixed_range');
        const beyond = errorOf(await call(readFileTool, { path, start_line: 11 }));
        assert.equal(beyond.code, 'workspace.invalid_range');
        assert.match(beyond.message, /10 lines/);
        const zeroCount = errorOf(await call(readFileTool, { path, start_line: 1, line_count: 0 }));
        assert.equal(zeroCount.code, 'workspace.invalid_range');
        assert.match(zeroCount.message, /10 lines/);
        assert.equal(code(await call(readFileTool, { path, line_count: -3 })), 'workspace.invalid_range');
        const charBeyond = errorOf(await call(readFileTool, { path, start_char: TEN_LINES.length }));
        assert.equal(charBeyond.code, 'workspace.invalid_range');
        assert.match(charBeyond.message, new RegExp(`${TEN_LINES.length} chars`));
        assert.equal(code(await call(readFileTool, { path, max_chars: 0 })), 'workspace.invalid_range');
        assert.equal(code(await call(readFileTool, { path: 'scratch/empty.md', start_line: 2 })), 'workspace.invalid_range');
        assert.equal(workspace.readState.versionRead(path), undefined, 'failed reads record nothing');
        assert.equal(text(await call(readFileTool, { path: 'scratch/empty.md' })), 'scratch/empty.md — empty file, 0 lines (version 0)');
    });

    it('folders and missing files', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/notes/a.md': 'x' });
        assert.equal(code(await call(readFileTool, { path: 'scratch/notes' })), 'workspace.path_is_directory');
        const missing = errorOf(await call(readFileTool, { path: 'scratch/a.md' }));
        assert.equal(missing.code, 'workspace.file_not_found');
        assert.match(missing.hint, /scratch\/notes\/a\.md/);
    });

    it('returns the first part of a large file and says how to continue', async () => {
        const { call, workspace } = setup();
        const line = (n: number) => `${String(n).padStart(4, '0')} ${'x'.repeat(54)}`; // 59 chars + newline
        const content = Array.from({ length: 2000 }, (_, i) => line(i + 1)).join('\n') + '\n';
        await workspace.seed({ 'scratch/big.md': content });
        const first = text(await call(readFileTool, { path: 'scratch/big.md' }));
        assert.match(first.split('\n')[0]!, /^scratch\/big\.md — lines 1–1333 of 2000 \(version 0\)$/);
        assert.match(first, /start_line 1334\.\]$/);
        assert.ok(first.length < 100_000);
        const rest = text(await call(readFileTool, { path: 'scratch/big.md', start_line: 1334 }));
        assert.match(rest.split('\n')[0]!, /lines 1334–2000 of 2000/);
        assert.doesNotMatch(rest, /To continue/);
        // Text in either part counts as read; text across the seam of two reads needs a read that spans it.
        const seam = content.indexOf(line(1334));
        assert.ok(workspace.readState.covers('scratch/big.md', [0, seam - 60], 60));
        assert.ok(workspace.readState.covers('scratch/big.md', [seam, content.length - 60], 60));
        assert.ok(!workspace.readState.covers('scratch/big.md', [seam - 10], 20));
        text(await call(applyPatchTool, { path: 'scratch/big.md', old_string: line(2000), new_string: 'last' }));
    });

    it('cuts a single huge line by chars and continues with start_char', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/one-line.md': 'a'.repeat(100_000) });
        const out = text(await call(readFileTool, { path: 'scratch/one-line.md' }));
        assert.match(out.split('\n')[0]!, /chars 0–79999 of 100000, lines 1–1 of 1/);
        assert.match(out, /start_char 80000\.\]$/);
        assert.ok(out.length < 80_300);
        assert.ok(workspace.readState.covers('scratch/one-line.md', [0], 80_000));
        assert.ok(!workspace.readState.covers('scratch/one-line.md', [79_999], 2));
        const rest = text(await call(readFileTool, { path: 'scratch/one-line.md', start_char: 80_000 }));
        assert.match(rest.split('\n')[0]!, /chars 80000–99999 of 100000/);
    });

    it('max_chars caps a whole-file read at line boundaries', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/r.md': TEN_LINES });
        const out = text(await call(readFileTool, { path: 'scratch/r.md', max_chars: 20 }));
        // Three lines would be 21 chars with their newlines.
        assert.equal(out.split('\n')[0], 'scratch/r.md — lines 1–2 of 10 (version 0)');
        assert.match(out, /start_line 3\.\]$/);
    });
});

describe('workspace.write_file', () => {
    it('replaces, appends and creates on append, without echoing the text', async () => {
        const { call, workspace } = setup();
        const created = text(await call(writeFileTool, { path: 'scratch/draft.md', content: 'first secret words' }));
        assert.equal(created, 'Created scratch/draft.md with 18 chars (replace; version 1).');
        const replaced = text(await call(writeFileTool, { path: 'scratch/draft.md', content: 'second' }));
        assert.equal(replaced, 'Replaced scratch/draft.md with 6 chars (version 2).');
        const appended = text(await call(writeFileTool, { path: 'scratch/draft.md', content: '\nthird', mode: 'append' }));
        assert.equal(appended, 'Appended 6 chars to scratch/draft.md; it now has 12 chars (version 3).');
        assert.equal(workspace.get('scratch/draft.md')?.content, 'second\nthird');
        assert.doesNotMatch(created + replaced + appended, /secret|third/);

        text(await call(writeFileTool, { path: 'plan/new.md', content: 'appended into being', mode: 'append' }));
        assert.deepEqual(workspace.get('plan/new.md'), { content: 'appended into being', version: 1 });
        text(await call(writeFileTool, { path: 'scratch/empty.md', content: '' }));
        assert.equal(workspace.get('scratch/empty.md')?.content, '');
    });

    it('refuses folders and paths under a file', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/notes/a.md': 'x' });
        assert.equal(code(await call(writeFileTool, { path: 'scratch/notes', content: 'x' })), 'workspace.path_is_directory');
        assert.equal(code(await call(writeFileTool, { path: 'scratch/notes/a.md/b.md', content: 'x' })), 'workspace.invalid_path');
        assert.equal(workspace.get('scratch/notes')?.content, undefined);
    });

    it('journals the write and stores it', async () => {
        const { call, eventsOf, storage } = setup();
        text(await call(writeFileTool, { path: 'output/main.md', content: 'Hello' }));
        assert.deepEqual(eventsOf('file-write').map((e) => e.payload), [{ path: 'output/main.md', mode: 'replace', version: 1, chars: 5 }]);
        assert.deepEqual((await storage.listFiles(RUN_ID)).map((f) => [f.path, f.content, f.version]), [['output/main.md', 'Hello', 1]]);
    });
});

describe('workspace.apply_patch', () => {
    const path = 'scratch/p.md';

    it('requires a read first, unless the run wrote the file whole', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ [path]: TEN_LINES });
        const refused = errorOf(await call(applyPatchTool, { path, old_string: 'line 2', new_string: 'LINE 2' }));
        assert.equal(refused.code, 'workspace.patch_requires_read');
        assert.match(refused.hint, /workspace_read_file/);
        assert.equal(workspace.get(path)?.version, 0);

        text(await call(writeFileTool, { path: 'scratch/mine.md', content: 'my own words' }));
        text(await call(applyPatchTool, { path: 'scratch/mine.md', old_string: 'own', new_string: 'new' }));
        assert.equal(workspace.get('scratch/mine.md')?.content, 'my new words');
    });

    it('a write the agent did not see makes the file stale', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ [path]: TEN_LINES });
        text(await call(readFileTool, { path }));
        await workspace.write(path, 'line 11\n', 'append'); // someone else's append: read-state not updated
        const stale = errorOf(await call(applyPatchTool, { path, old_string: 'line 2\n', new_string: 'LINE 2\n' }));
        assert.equal(stale.code, 'workspace.stale_file');
        assert.match(stale.message, /version 0.*version 1/);
        text(await call(readFileTool, { path }));
        text(await call(applyPatchTool, { path, old_string: 'line 2\n', new_string: 'LINE 2\n' }));
    });

    it('the agent\'s own append keeps what it had read', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ [path]: TEN_LINES });
        text(await call(readFileTool, { path }));
        text(await call(writeFileTool, { path, content: 'line 11\n', mode: 'append' }));
        text(await call(applyPatchTool, { path, old_string: 'line 1\n', new_string: 'LINE 1\n' }));
        text(await call(applyPatchTool, { path, old_string: 'line 11', new_string: 'LINE 11' }));
        assert.match(workspace.get(path)!.content, /^LINE 1\n[\s\S]*LINE 11\n$/);
    });

    it('0 matches, >1 matches, replace_all and no change', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ [path]: 'cat\ndog\ncat\nbird\ncat\n' });
        text(await call(readFileTool, { path }));

        const missing = errorOf(await call(applyPatchTool, { path, old_string: 'horse', new_string: 'pony' }));
        assert.equal(missing.code, 'workspace.patch_not_found');
        assert.match(missing.message, /scratch\/p\.md/);
        assert.match(missing.hint, /Read the file again/);
        assert.match(errorOf(await call(applyPatchTool, { path, old_string: 'DOG', new_string: 'wolf' })).hint, /letter case starts at line 2/);

        const many = errorOf(await call(applyPatchTool, { path, old_string: 'cat', new_string: 'lion' }));
        assert.equal(many.code, 'workspace.patch_not_unique');
        assert.match(many.message, /3 times .*lines 1, 3, 5/);
        assert.match(many.hint, /replace_all/);

        assert.equal(code(await call(applyPatchTool, { path, old_string: 'dog', new_string: 'dog' })), 'workspace.patch_no_change');
        assert.equal(workspace.get(path)?.version, 0, 'refused patches change nothing');

        const all = text(await call(applyPatchTool, { path, old_string: 'cat', new_string: 'lion', replace_all: true }));
        assert.match(all, /^Replaced 3 occurrences in scratch\/p\.md \(lines 1, 3, 5 before the edit\); it now has 24 chars \(version 1\)\.$/);
        assert.equal(workspace.get(path)?.content, 'lion\ndog\nlion\nbird\nlion\n');

        const one = text(await call(applyPatchTool, { path, old_string: 'dog', new_string: 'wolf' }));
        assert.match(one, /^Replaced 1 occurrence in scratch\/p\.md \(line 2 before the edit\)/);
        assert.equal(workspace.get(path)?.content, 'lion\nwolf\nlion\nbird\nlion\n');
    });

    it('edits only text inside a partial read', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ [path]: TEN_LINES, 'scratch/q.md': 'x\nkey\ny\nkey\n' });
        text(await call(readFileTool, { path, start_line: 1, line_count: 3 }));
        const outside = errorOf(await call(applyPatchTool, { path, old_string: 'line 8', new_string: 'LINE 8' }));
        assert.equal(outside.code, 'workspace.patch_requires_read');
        assert.match(outside.message, /line 8/);
        const straddling = errorOf(await call(applyPatchTool, { path, old_string: 'line 3\nline 4', new_string: 'x' }));
        assert.equal(straddling.code, 'workspace.patch_requires_read');
        text(await call(applyPatchTool, { path, old_string: 'line 2', new_string: 'LINE 2' }));
        // A patch reads only what it wrote (issue 39 §10): line 8 is still unread.
        assert.equal(errorOf(await call(applyPatchTool, { path, old_string: 'line 8', new_string: 'LINE 8' })).code, 'workspace.patch_requires_read');

        text(await call(readFileTool, { path: 'scratch/q.md', start_line: 1, line_count: 2 }));
        const partial = errorOf(await call(applyPatchTool, { path: 'scratch/q.md', old_string: 'key', new_string: 'KEY', replace_all: true }));
        assert.equal(partial.code, 'workspace.patch_requires_read');
    });

    it('says so when old_string carries read_file line-number prefixes', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ [path]: TEN_LINES });
        const shown = text(await call(readFileTool, { path, start_line: 2, line_count: 2 })).split('\n').slice(1).join('\n');
        assert.equal(shown, '2│line 2\n3│line 3');
        const error = errorOf(await call(applyPatchTool, { path, old_string: shown, new_string: 'x' }));
        assert.equal(error.code, 'workspace.patch_not_found');
        assert.match(error.hint, /line-number prefixes/);
        assert.match(error.hint, /Without them it matches 1 time\./);
        const padded = errorOf(await call(applyPatchTool, { path, old_string: ' 2| line 2', new_string: 'x' }));
        assert.match(padded.hint, /line-number prefixes/);
    });

    it('missing files and folders', async () => {
        const { call, workspace } = setup();
        await workspace.seed({ 'scratch/notes/a.md': 'x' });
        assert.equal(code(await call(applyPatchTool, { path: 'scratch/none.md', old_string: 'a', new_string: 'b' })), 'workspace.file_not_found');
        assert.equal(code(await call(applyPatchTool, { path: 'scratch/notes', old_string: 'a', new_string: 'b' })), 'workspace.path_is_directory');
    });
});

describe('checkpoints', () => {
    it('every write and patch makes one checkpoint, and each version can be rebuilt', async () => {
        const { call, workspace, storage, eventsOf } = setup();
        const path = 'output/main.md';
        const versions: string[] = [];
        const keep = () => versions.push(workspace.get(path)!.content);

        text(await call(writeFileTool, { path, content: 'The knight rode north.\n' }));
        keep();
        text(await call(writeFileTool, { path, content: 'Snow fell.\n', mode: 'append' }));
        keep();
        text(await call(applyPatchTool, { path, old_string: 'north', new_string: 'south' }));
        keep();
        text(await call(writeFileTool, { path: 'scratch/other.md', content: 'unrelated' }));
        text(await call(writeFileTool, { path, content: 'A new draft entirely.\n' }));
        keep();
        text(await call(readFileTool, { path }));
        text(await call(searchFilesTool, { query: 'draft' }));
        text(await call(listFilesTool, {}));

        const checkpointEvents = eventsOf('checkpoint');
        assert.equal(checkpointEvents.length, 5, 'reads, searches and listings make none');
        assert.deepEqual(eventsOf('patch-apply').map((e) => e.payload), [{ path, replacements: 1, version: 3, edits: [[16, 5, 5]] }]);
        const checkpoints = await storage.listCheckpoints(RUN_ID, path);
        assert.equal(checkpoints.length, 4);
        assert.deepEqual(
            checkpoints.map((c) => rebuildCheckpoint(checkpoints, c.seq)),
            versions,
        );
        assert.ok(checkpoints.slice(1).every((c) => c.full === null && c.delta !== null), 'later checkpoints store deltas');
    });
});

describe('workspace.commit', () => {
    it('refuses a missing or blank file', async () => {
        const { call, commits } = setup();
        const missing = errorOf(await call(commitTool, {}));
        assert.equal(missing.code, 'workspace.empty_artifact');
        assert.match(missing.message, /output\/main\.md/);
        text(await call(writeFileTool, { path: 'output/main.md', content: '  \n\t\n' }));
        assert.equal(code(await call(commitTool, {})), 'workspace.empty_artifact');
        assert.equal(code(await call(commitTool, { path: 'input/prompt.json' })), 'workspace.path_not_visible');
        assert.equal(code(await call(commitTool, { path: 'output' })), 'workspace.path_is_directory');
        assert.equal(commits.length, 0);
    });

    it('checkpoints the text and commits it through the run', async () => {
        const { call, commits, eventsOf, storage } = setup();
        text(await call(writeFileTool, { path: 'output/main.md', content: 'The reply.' }));
        const out = text(await call(commitTool, { reason: 'draft done' }));
        assert.equal(out, 'Committed output/main.md to the chat as message #42 (replace). Call workspace_finish when the reply is complete.');
        assert.deepEqual(commits, [{ path: 'output/main.md', text: 'The reply.', mode: 'replace', reason: 'draft done' }]);
        assert.equal(eventsOf('checkpoint').length, 2);
        const checkpoints = await storage.listCheckpoints(RUN_ID, 'output/main.md');
        assert.equal(rebuildCheckpoint(checkpoints, checkpoints.at(-1)!.seq), 'The reply.');

        text(await call(writeFileTool, { path: 'scratch/extra.md', content: 'More.' }));
        assert.match(text(await call(commitTool, { path: 'scratch/extra.md', mode: 'append' })), /\(append\)/);
        assert.deepEqual(commits[1], { path: 'scratch/extra.md', text: 'More.', mode: 'append', reason: null });
    });
});

describe('workspace.finish', () => {
    it('a foreground run must commit first', async () => {
        const { call, finishes } = setup();
        const refused = errorOf(await call(finishTool, { reason: 'done' }));
        assert.equal(refused.code, 'workspace.commit_required');
        assert.match(refused.hint, /output\/main\.md/);
        assert.deepEqual(finishes, []);

        text(await call(writeFileTool, { path: 'output/main.md', content: 'Reply' }));
        text(await call(commitTool, {}));
        text(await call(finishTool, { reason: 'done' }));
        assert.deepEqual(finishes, ['done']);
    });

    it('a background run may finish without committing', async () => {
        const { call, finishes } = setup({ foreground: false });
        text(await call(finishTool, {}));
        assert.deepEqual(finishes, [null]);
    });
});

describe('a patch reads only what it wrote (issue 39 §10)', () => {
    it('text never read stays unpatchable after a patch elsewhere; the written text and what was read before stay patchable', async () => {
        const { workspace, call } = setup();
        await workspace.seed({ 'persist/notes.md': 'alpha one\nbeta two\ngamma three\ndelta four\nepsilon five\n' });
        await call(readFileTool, { path: 'persist/notes.md', start_line: 1, line_count: 2 });
        const first = await call(applyPatchTool, { path: 'persist/notes.md', old_string: 'alpha one', new_string: 'ALPHA ONE!' });
        assert.ok(first.ok, JSON.stringify(first));
        const unread = await call(applyPatchTool, { path: 'persist/notes.md', old_string: 'delta four', new_string: 'DELTA' });
        assert.ok(!unread.ok && unread.error.code === 'workspace.patch_requires_read', 'line 4 was never read');
        assert.ok((await call(applyPatchTool, { path: 'persist/notes.md', old_string: 'beta two', new_string: 'BETA' })).ok, 'line 2 was read before, and moved with the first patch');
        assert.ok((await call(applyPatchTool, { path: 'persist/notes.md', old_string: 'ALPHA ONE!', new_string: 'Alpha.' })).ok, 'what it wrote counts as read');
    });
});
