// The run loop against SPEC §1–§4 edges that issue 10 found open: commit caps, narrowed visible roots,
// persist/ only after finish, read limits, budgets for bad calls, run-unique call records, truncated
// responses, throwing tools, Retry-After, and the one output cap.
// Run: node --import tsx --test tests/unit/run-conformance.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import { MAX_TOOL_OUTPUT_CHARS } from '../../src/engine/projection/model-notes';
import { runAgent } from '../../src/engine/run/run-lifecycle';
import { isRetryable, MAX_RETRY_DELAY_MS, retryDelay } from '../../src/engine/loop/model-retry';
import { createMemoryRunStorage } from '../../src/store/run-storage';
import { ALL_TOOLS } from '../../src/tools/registry';
import { aliasOf, defineTool, success } from '../../src/tools/tool';
import { sampleRunInput } from '../fixtures/run-input';
import { payloadsOf, rawCall, rawResponse, replyOf, runHarness, toolTurn, type Step } from '../fixtures/run-harness';

const write = (id: string, path = 'output/main.md', content = 'The reply.') => rawCall(id, 'workspace_write_file', { path, content });
const commit = (id: string) => rawCall(id, 'workspace_commit', {});
const finish = (id: string) => rawCall(id, 'workspace_finish', {});
const profileWith = (tools: Partial<Profile['tools']>, workspace?: Profile['workspace']): Profile => ({
    ...WRITER_PROFILE,
    tools: { ...WRITER_PROFILE.tools, ...tools },
    ...(workspace ? { workspace } : {}),
});
type Fail = { callId: string; code: string; message: string };

describe('commit and finish keep their own caps', () => {
    it('allows at most 10 commits a run by default, even in one turn', async () => {
        const h = runHarness({ script: [toolTurn(write('w'), ...Array.from({ length: 12 }, (_, i) => commit(`c${i}`)), finish('f'))] });
        const outcome = await h.run(sampleRunInput({ runId: 'commit-cap' }));
        assert.equal(outcome.state, 'completed');
        assert.equal(h.commits.length, 10);
        const refused = payloadsOf(await h.journal('commit-cap'), 'tool-call-fail');
        assert.deepEqual(refused.map((f) => f.code), ['tool.budget_exhausted', 'tool.budget_exhausted']);
        assert.match(refused[0]!.message, /workspace\.commit may be called at most 10 times/);
    });

    it("holds the profile's commit cap in the wrap-up turn too", async () => {
        const h = runHarness({
            script: [toolTurn(write('w')), toolTurn(commit('c1'), commit('c2'), commit('c3'), finish('f'))],
        });
        const outcome = await h.run(sampleRunInput({ runId: 'wrap-cap' }), profileWith({ maxRounds: 1, maxCallsPerTool: { 'workspace.commit': 2 } }));
        assert.equal(outcome.state, 'completed');
        assert.equal(h.commits.length, 2);
        assert.equal(h.requests[1]!.tools.length, 2, 'the wrap-up turn offers only commit and finish');
    });

    it('does not offer a tool capped at 0 calls', async () => {
        const h = runHarness({ script: [toolTurn(write('w'), commit('c'), finish('f'))] });
        await h.run(sampleRunInput({ runId: 'cap-zero' }), profileWith({ maxCallsPerTool: { 'workspace.search_files': 0 } }));
        const offered = h.requests[0]!.tools.map((t) => t.function.name);
        assert.ok(!offered.includes('workspace_search_files'));
        assert.ok(offered.includes('workspace_read_file'));
    });
});

describe('workspace roots', () => {
    it('narrows the visible roots to the profile and says so when listing', async () => {
        const h = runHarness({
            script: [
                toolTurn(rawCall('l', 'workspace_list_files', {}), rawCall('r', 'workspace_read_file', { path: 'scratch/notes.md' })),
                toolTurn(write('w'), commit('c'), finish('f')),
            ],
        });
        const profile = profileWith({}, { visibleRoots: ['output', 'persist'], writableRoots: ['output'] });
        await h.run(sampleRunInput({ runId: 'roots' }), profile);
        const results = h.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
        assert.match(results[0]!, /^Workspace root, depth 2: 2 roots, 0 files\. You see output\/, persist\/; you may write output\/\.$/m);
        assert.match(results[0]!, /^output\/ {2}\(empty\)$/m);
        assert.doesNotMatch(results[0]!, /scratch/);
        assert.match(results[1]!, /^ERROR workspace\.path_not_visible/);
    });
});

describe('persist/ reaches the chat only through workspace.finish', () => {
    it('does not promote persist/ when the run ends after its wrap-up turn without finish', async () => {
        const h = runHarness({ script: [toolTurn(write('p', 'persist/memory.md', 'The bridge fell.'), write('w')), toolTurn(commit('c'))] });
        const outcome = await h.run(sampleRunInput({ runId: 'no-finish' }), profileWith({ maxRounds: 1 }));
        assert.equal(outcome.state, 'completed');
        assert.equal(await h.storage.getPersistState('no-finish'), undefined);
        const journal = await h.journal('no-finish');
        assert.equal(payloadsOf(journal, 'persist-promote').length, 0);
        assert.equal(payloadsOf(journal, 'persist-skip').length, 1);
    });

    it('promotes persist/ after an accepted finish', async () => {
        const h = runHarness({ script: [toolTurn(write('p', 'persist/memory.md', 'The bridge fell.'), write('w'), commit('c'), finish('f'))] });
        await h.run(sampleRunInput({ runId: 'finish' }));
        assert.deepEqual((await h.storage.getPersistState('finish'))?.files, { 'persist/memory.md': 'The bridge fell.' });
    });
});

describe('read limits and range codes', () => {
    it('answers a read over 80,000 chars with workspace.read_too_large, and bad starts with workspace.invalid_range', async () => {
        const h = runHarness({
            script: [
                toolTurn(write('w')),
                toolTurn(
                    rawCall('big', 'workspace_read_file', { path: 'output/main.md', max_chars: 80_001 }),
                    rawCall('line', 'workspace_read_file', { path: 'output/main.md', start_line: 0 }),
                    rawCall('char', 'workspace_read_file', { path: 'output/main.md', start_char: -1 }),
                ),
                toolTurn(commit('c'), finish('f')),
            ],
        });
        await h.run(sampleRunInput({ runId: 'reads' }));
        const fails = payloadsOf(await h.journal('reads'), 'tool-call-fail');
        assert.deepEqual(fails.map((f) => f.code), ['workspace.read_too_large', 'workspace.invalid_range', 'workspace.invalid_range']);
    });
});

describe('budgets count calls with invalid arguments', () => {
    it('ends a model that repeats bad JSON: the calls spend the budget and the wrap-up follows', async () => {
        const bad = () => toolTurn(rawCall('b', 'workspace_write_file', '{"path": "output/main.md", '));
        const h = runHarness({ script: [bad(), bad(), bad(), toolTurn(write('w'), commit('c'), finish('f'))] });
        const outcome = await h.run(sampleRunInput({ runId: 'bad-json' }), profileWith({ maxCallsPerRun: 3 }));
        const journal = await h.journal('bad-json');
        assert.deepEqual(payloadsOf(journal, 'budget-wrap-up'), [{ reason: 'maxCallsPerRun', rounds: 3, calls: 3, maxRounds: 80 }]);
        // In the wrap-up turn only commit and finish run: the write is refused, so nothing can be committed.
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'run.budget_exhausted');
    });
});

describe('tool-call records are keyed by a run-unique id', () => {
    it('keeps every call when the provider sends call_0 every round', async () => {
        const h = runHarness({
            script: [
                toolTurn(rawCall('call_0', 'workspace_write_file', { path: 'scratch/a.md', content: 'a' })),
                toolTurn(rawCall('call_0', 'workspace_write_file', { path: 'output/main.md', content: 'b' })),
                toolTurn(rawCall('call_0', 'workspace_commit', {})),
                toolTurn(rawCall('call_0', 'workspace_finish', {})),
            ],
        });
        await h.run(sampleRunInput({ runId: 'call0' }));
        const files = await h.files('call0');
        const args = [...files.keys()].filter((path) => path.startsWith('tool-args/')).sort();
        assert.equal(args.length, 4);
        assert.equal(files.get(args[0]!), JSON.stringify({ path: 'scratch/a.md', content: 'a' }));
        assert.equal(files.get(args[1]!), JSON.stringify({ path: 'output/main.md', content: 'b' }));
        const starts = payloadsOf(await h.journal('call0'), 'tool-call-start');
        assert.equal(new Set(starts.map((s) => s.callId)).size, 4);
        assert.deepEqual(starts.map((s) => s.providerCallId), ['call_0', 'call_0', 'call_0', 'call_0']);
    });
});

describe('the safety net around tools', () => {
    it('runs none of the tool calls of a response cut off by its length limit', async () => {
        const truncated = replyOf(rawResponse(null, [write('w', 'output/main.md', 'The reply, cut o')], 'length'));
        const h = runHarness({ script: [truncated, toolTurn(write('w2'), commit('c'), finish('f'))] });
        await h.run(sampleRunInput({ runId: 'cut' }));
        const fails = payloadsOf(await h.journal('cut'), 'tool-call-fail');
        assert.deepEqual(fails.map((f) => f.code), ['model.response_truncated']);
        const writes = payloadsOf(await h.journal('cut'), 'file-write');
        assert.deepEqual(writes.map((w) => w.chars), ['The reply.'.length], 'only the second, complete write ran');
        assert.match(h.requests[1]!.messages.at(-1)!.content ?? '', /^ERROR model\.response_truncated/);
    });

    it('turns a throwing tool into a journaled error result and goes on', async () => {
        const boom = defineTool({
            name: 'test.boom',
            alias: aliasOf('test.boom'),
            description: 'Throws.',
            args: z.object({}),
            readOnly: true,
            async execute() {
                throw new Error('kaput');
            },
        });
        const huge = defineTool({
            name: 'test.huge',
            alias: aliasOf('test.huge'),
            description: 'Returns too much.',
            args: z.object({}),
            readOnly: true,
            execute: async () => success('x'.repeat(MAX_TOOL_OUTPUT_CHARS + 5)),
        });
        const storage = createMemoryRunStorage();
        const script: Step[] = [toolTurn(rawCall('a', 'test_boom'), rawCall('b', 'test_huge')), toolTurn(write('w'), commit('c'), finish('f'))];
        const sent: string[][] = [];
        const outcome = await runAgent(sampleRunInput({ runId: 'net', profile: profileWith({ allow: ['workspace.*', 'test.*'] }) }), {
            storage,
            tools: [...ALL_TOOLS, boom, huge],
            sink: () => undefined,
            signal: new AbortController().signal,
            host: {
                async requestModel(request) {
                    sent.push(request.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? ''));
                    const step = script.shift()!;
                    return typeof step === 'function' ? step(request) : step;
                },
                commit: async () => ({ ok: true, value: { messageId: 1 } }),
                onEvents() {},
            },
        });
        assert.equal(outcome.state, 'completed');
        const [boomText, hugeText] = sent[1]!;
        assert.match(boomText!, /^ERROR tool\.execution_failed: test_boom failed: kaput/);
        assert.ok(hugeText!.length < MAX_TOOL_OUTPUT_CHARS + 300);
        assert.match(hugeText!, /output cut at 100000 of 100005 characters; the full result is kept in tool-results\/call-0002\.json/);
        const stored = (await storage.listFiles('net')).find((f) => f.path === 'tool-results/call-0002.json')!;
        assert.equal((JSON.parse(stored.content) as { result: { content: string } }).result.content.length, MAX_TOOL_OUTPUT_CHARS + 5);
    });
});

describe('retries', () => {
    it("waits the server's Retry-After (capped) and jitters its own backoff", async () => {
        const limited = { ok: false as const, status: 429, message: 'slow down', aborted: false };
        const h = runHarness({
            script: [{ ...limited, retryAfterMs: 1 }, { ...limited, retryAfterMs: 3 }, { ...limited }, toolTurn(write('w'), commit('c'), finish('f'))],
            random: () => 0,
        });
        const input = sampleRunInput({ runId: 'retry', retry: { maxRetries: 3, baseDelayMs: 4 } });
        const outcome = await h.run(input);
        assert.equal(outcome.state, 'completed');
        const delays = payloadsOf(await h.journal('retry'), 'model-retry').map((r) => r.delayMs);
        // Retry-After 1 ms, then 3 ms; then backoff 4·2² = 16 ms, jittered to half with random 0.
        assert.deepEqual(delays, [1, 3, 8]);
    });

    it('caps every wait, whatever the server asks', () => {
        const limited = { ok: false as const, status: 429, message: 'slow down', aborted: false };
        const policy = { maxRetries: 20, baseDelayMs: 1000 };
        assert.equal(retryDelay(1, { ...limited, retryAfterMs: 10 * 60_000 }, policy), MAX_RETRY_DELAY_MS);
        assert.equal(retryDelay(12, limited, policy, () => 1), MAX_RETRY_DELAY_MS);
        assert.equal(retryDelay(2, limited, policy, () => 1), 2000);
        assert.equal(retryDelay(2, limited, policy, () => 0), 1000);
    });

    it('classifies failures in one place', () => {
        const failed = (status: number | null, message = '') => ({ ok: false as const, status, message, aborted: false });
        assert.equal(isRetryable(failed(429)), true);
        assert.equal(isRetryable(failed(503)), true);
        assert.equal(isRetryable(failed(408)), true);
        assert.equal(isRetryable(failed(401)), false);
        assert.equal(isRetryable(failed(null, 'Too Many Requests')), true, 'SillyTavern reports upstream errors inside a 200');
        assert.equal(isRetryable(failed(null, 'Failed to fetch')), true);
        assert.equal(isRetryable(failed(null, 'invalid api key')), false);
        assert.equal(isRetryable({ ...failed(null, 'overloaded'), aborted: true }), false);
    });

    it('does not retry a client error', async () => {
        const h = runHarness({ script: [{ ok: false, status: 400, message: 'bad request', aborted: false }] });
        const outcome = await h.run(sampleRunInput({ runId: 'no-retry' }));
        assert.equal(outcome.error?.code, 'model.request_failed');
        assert.equal(h.requests.length, 1);
    });
});
