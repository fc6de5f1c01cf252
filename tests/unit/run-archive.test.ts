import { it } from 'node:test';
import assert from 'node:assert/strict';
import type { RunStorage } from '../../src/store/run-storage';
import { runAgent } from '../../src/engine/run/run-lifecycle';
import { ALL_TOOLS } from '../../src/tools/registry';
import { checkpointDiff, exportRun, importRun, IMPORTED_CHAT_KEY, listCheckpoints, listRunFiles, readRunFile, restoreCheckpoint } from '../../src/engine/archive/run-archive';
import { ok } from '../../src/contract/result';
import type { ModelReply } from '../../src/contract/model';
import { sampleRunInput } from '../fixtures/run-input';
import { suitesPerStorageKind } from '../fixtures/storage-kinds';
import { journalEvent } from '../fixtures/journal-events';
import { markInterruptedRuns } from '../../src/engine/tabs/sweep';
import { planResume } from '../../src/engine/run/resume-plan';

const { describe, newStorage } = suitesPerStorageKind();

function toolTurn(...calls: Array<[string, unknown]>): ModelReply {
    return {
        ok: true,
        durationMs: 1,
        raw: { choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: calls.map(([name, args], i) => ({ id: `c${i}-${name}-${Math.random()}`, type: 'function', function: { name, arguments: JSON.stringify(args) } })) } }] },
    };
}

/** A completed run that wrote a draft, patched it twice, and left memory in persist/. */
async function finishedRun(storage: RunStorage, runId = 'run-1'): Promise<void> {
    const script: ModelReply[] = [
        toolTurn(['workspace_write_file', { path: 'output/main.md', content: 'one\ntwo\nthree\n' }], ['workspace_write_file', { path: 'persist/notes.md', content: 'Tom' }]),
        toolTurn(['workspace_apply_patch', { path: 'output/main.md', old_string: 'two', new_string: 'TWO' }]),
        toolTurn(['workspace_apply_patch', { path: 'persist/notes.md', old_string: 'Tom', new_string: 'Tim' }]),
        toolTurn(['workspace_commit', {}], ['workspace_finish', {}]),
    ];
    const outcome = await runAgent(sampleRunInput({ runId }), {
        storage,
        host: { requestModel: async () => script.shift()!, commit: async () => ok({ messageId: 3 }), onEvents: () => undefined },
        tools: ALL_TOOLS,
        sink: () => undefined,
        signal: new AbortController().signal,
    });
    assert.equal(outcome.state, 'completed');
}

// Run archive operations on a finished run, once on each storage kind.
describe('run archive', () => {
    it('files list visible files first, then the hidden stores, and read back', async () => {
        const storage = newStorage();
        await finishedRun(storage);
        const files = await listRunFiles(storage, 'run-1');
        const firstHidden = files.findIndex((f) => f.hidden);
        assert.ok(firstHidden > 0 && files.slice(firstHidden).every((f) => f.hidden));
        assert.ok(files.some((f) => f.path === 'input/prompt.json' && f.hidden));
        assert.ok(files.some((f) => f.path.startsWith('tool-results/')));
        const draft = await readRunFile(storage, 'run-1', 'output/main.md');
        assert.ok(draft.ok && draft.value.content === 'one\nTWO\nthree\n');
        assert.equal((await readRunFile(storage, 'run-1', 'output/none.md')).ok, false);
    });

    it('a patch checkpoint diffs against the version before it, and restore brings the old text back', async () => {
        const storage = newStorage();
        await finishedRun(storage);
        const checkpoints = await listCheckpoints(storage, 'run-1');
        const mainOnes = checkpoints.filter((c) => c.path === 'output/main.md');
        assert.ok(mainOnes.length >= 2);
        const patch = mainOnes[1]!;
        const diff = await checkpointDiff(storage, 'run-1', patch.seq);
        assert.ok(diff.ok);
        assert.equal(diff.value.before, 'one\ntwo\nthree\n');
        assert.equal(diff.value.after, 'one\nTWO\nthree\n');
        assert.deepEqual(diff.value.ops.filter((o) => o.op !== 0), [
            { op: -1, text: 'two\n' },
            { op: 1, text: 'TWO\n' },
        ]);

        const first = mainOnes[0]!;
        assert.equal((await restoreCheckpoint(storage, 'run-1', first.seq, true)).ok, false, 'never while the run is running');
        const restored = await restoreCheckpoint(storage, 'run-1', first.seq, false);
        assert.ok(restored.ok);
        const file = await readRunFile(storage, 'run-1', 'output/main.md');
        assert.ok(file.ok && file.value.content === 'one\ntwo\nthree\n' && file.value.version === restored.value.version);
        const events = await storage.listEvents('run-1');
        assert.equal(events.at(-2)!.type, 'checkpoint-restore');
        assert.equal(events.at(-1)!.type, 'checkpoint');
        assert.deepEqual(events.map((e) => e.seq), events.map((_, i) => i), 'the journal stays contiguous');

        // Restoring memory changes what later runs start from.
        const tom = (await listCheckpoints(storage, 'run-1')).find((c) => c.path === 'persist/notes.md')!;
        assert.ok((await restoreCheckpoint(storage, 'run-1', tom.seq, false)).ok);
        assert.deepEqual((await storage.getPersistState('run-1'))!.files, { 'persist/notes.md': 'Tom' });
    });

    it('checkpoints are labelled by what made them, and the commit checkpoint holds the committed text', async () => {
        const storage = newStorage();
        await finishedRun(storage);
        const main = (await listCheckpoints(storage, 'run-1')).filter((c) => c.path === 'output/main.md');
        assert.deepEqual(
            main.map((c) => [c.kind, c.version]),
            [
                ['write', 1],
                ['patch', 2],
                ['commit', 2],
            ],
        );
        const committed = await checkpointDiff(storage, 'run-1', main[2]!.seq);
        assert.ok(committed.ok);
        assert.equal(committed.value.kind, 'commit');
        assert.equal(committed.value.after, 'one\nTWO\nthree\n');

        assert.ok((await restoreCheckpoint(storage, 'run-1', main[0]!.seq, false)).ok);
        const after = (await listCheckpoints(storage, 'run-1')).filter((c) => c.path === 'output/main.md');
        const restore = after.at(-1)!;
        assert.deepEqual([restore.kind, restore.version], ['restore', 3]);
        const restoredDiff = await checkpointDiff(storage, 'run-1', restore.seq);
        assert.ok(restoredDiff.ok);
        assert.equal(restoredDiff.value.before, 'one\nTWO\nthree\n');
        assert.equal(restoredDiff.value.after, 'one\ntwo\nthree\n', 'the restore checkpoint rebuilds to the restored text');
    });

    it('export and import round-trip a run, which comes back read-only under a new id', async () => {
        const storage = newStorage();
        await finishedRun(storage);
        const exported = await exportRun(storage, 'run-1');
        assert.ok(exported.ok);
        const elsewhere = newStorage();
        const imported = await importRun(elsewhere, exported.value, 'imported-x');
        assert.ok(imported.ok);
        const original = await storage.listEvents('run-1');
        assert.equal(imported.value.events, original.length);
        assert.deepEqual((await elsewhere.listEvents('imported-x')).map((e) => [e.seq, e.type]), original.map((e) => [e.seq, e.type]));
        assert.equal((await elsewhere.getRun('imported-x'))!.chatKey, IMPORTED_CHAT_KEY);
        const again = await exportRun(elsewhere, 'imported-x');
        assert.ok(again.ok);
        const seq = (await listCheckpoints(elsewhere, 'imported-x'))[0]!.seq;
        assert.ok((await checkpointDiff(elsewhere, 'imported-x', seq)).ok, 'diffs still work on an import');
        assert.equal((await restoreCheckpoint(elsewhere, 'imported-x', seq, false)).ok, false, 'imports are read-only');
        assert.equal((await importRun(elsewhere, '{"kind":"something else"}', 'y')).ok, false);
        assert.equal((await importRun(elsewhere, 'not json', 'z')).ok, false);
    });

    it('an export carries no stack trace or server address; its import never runs again, whatever state it claims (issue 39 §5)', async () => {
        const storage = newStorage();
        await finishedRun(storage);
        const events = await storage.listEvents('run-1');
        const next = events.at(-1)!.seq + 1;
        const detail = 'TypeError: boom\n    at callModel (chrome-extension://x/dist/worker.js:10:5)\n    at async loop (http://127.0.0.1:8000/scripts/extensions/third-party/tavern-agent/dist/worker.js:99:1)\nrequest to http://192.168.1.20:5001/v1/completions failed';
        await storage.appendEvent(journalEvent('run-1', next, 'model-retry', { round: 1, attempt: 1, delayMs: 10, status: 502, message: 'Bad gateway from https://proxy.example.net/v1?key=abc' }));
        await storage.appendEvent(journalEvent('run-1', next + 1, 'run-fail', { code: 'model.request_failed', message: 'The model at http://localhost:5001 did not answer.', detail }));
        const exported = await exportRun(storage, 'run-1');
        assert.ok(exported.ok);
        assert.doesNotMatch(exported.value, /\bat callModel|\bat async loop|127\.0\.0\.1|192\.168|localhost:5001|proxy\.example\.net|key=abc/);
        assert.match(exported.value, /TypeError: boom/, 'the error itself stays');

        // The copy claims to be running, with a fresh lease: it is a copy all the same.
        const data = JSON.parse(exported.value) as { run: Record<string, unknown> };
        data.run.state = 'running';
        data.run.lease = { owner: 'elsewhere', until: Date.now() + 60_000 };
        const elsewhere = newStorage();
        const imported = await importRun(elsewhere, JSON.stringify(data), 'imported-running');
        assert.ok(imported.ok);
        assert.equal(await markInterruptedRuns(elsewhere, () => false, Date.now, true), 0, 'the sweep leaves an imported run alone');
        assert.equal((await elsewhere.getRun('imported-running'))!.state, 'running');
        const record = (await elsewhere.getRun('imported-running'))!;
        await elsewhere.putRun({ ...record, state: 'interrupted' });
        const resume = await planResume(elsewhere, 'imported-running');
        assert.ok(!resume.ok && resume.error.code === 'run.read_only', 'an imported run is never resumed');
    });

    it('deleting a run removes everything stored with it', async () => {
        const storage = newStorage();
        await finishedRun(storage, 'run-a');
        await finishedRun(storage, 'run-b');
        const runB = { events: await storage.listEvents('run-b'), files: await storage.listFiles('run-b'), checkpoints: await storage.listCheckpoints('run-b') };
        await storage.deleteRun('run-a');
        assert.equal(await storage.getRun('run-a'), undefined);
        assert.deepEqual(await storage.listEvents('run-a'), []);
        assert.deepEqual(await storage.listFiles('run-a'), []);
        assert.deepEqual(await storage.listCheckpoints('run-a'), []);
        assert.equal(await storage.getPersistState('run-a'), undefined);
        assert.deepEqual(
            { events: await storage.listEvents('run-b'), files: await storage.listFiles('run-b'), checkpoints: await storage.listCheckpoints('run-b') },
            runB,
            'other runs are untouched',
        );
        assert.ok(await storage.getPersistState('run-b'));
    });

    it('runs left unfinished by a reload become interrupted, journaled; ended runs are left alone', async () => {
        const { markInterruptedRuns } = await import('../../src/engine/tabs/sweep');
        const storage = newStorage();
        await finishedRun(storage, 'done');
        const base = (await storage.getRun('done'))!;
        await storage.putRun({ ...base, runId: 'cut-off', state: 'running' });
        await storage.appendEvent(journalEvent('cut-off', 0, 'run-create', { chatKey: base.chatKey, chatId: base.chatId, profileId: 'writer', generationType: 'normal', foreground: true }, 1));
        assert.equal(await markInterruptedRuns(storage), 1);
        const cut = (await storage.getRun('cut-off'))!;
        assert.equal(cut.state, 'interrupted');
        assert.equal(cut.error?.code, 'run.interrupted');
        assert.deepEqual((await storage.listEvents('cut-off')).map((e) => [e.seq, e.type]), [[0, 'run-create'], [1, 'run-fail'], [2, 'run-state']]);
        assert.equal((await storage.getRun('done'))!.state, 'completed');
        assert.equal(await markInterruptedRuns(storage), 0, 'idempotent');
        // A run another tab is still working on (it holds the run's lock) is left alone.
        await storage.putRun({ ...base, runId: 'other-tab', state: 'running' });
        assert.equal(await markInterruptedRuns(storage, (runId) => runId === 'other-tab'), 0);
        assert.equal((await storage.getRun('other-tab'))!.state, 'running');
    });
});
