// Unit tests of the run loop (runAgent) with the real tools and a scripted fake host, each suite once on the
// in-memory storage and once on IndexedDB storage (tests/fixtures/storage-kinds.ts).
// Run: node --import tsx --test tests/unit/run-loop.test.ts
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ModelReply, WireMessage } from '../../src/contract/model';
import { WRITER_PROFILE, type Profile } from '../../src/contract/profile';
import type { JournalEvent } from '../../src/contract/events';
import { payloadsOf } from '../fixtures/run-harness';
import { fail, type Result } from '../../src/contract/result';
import { RunInputSchema, type PrefixMessage, type RunInput } from '../../src/contract/run-input';
import type { CommitRequest } from '../../src/contract/wire';
import { ALL_TOOLS } from '../../src/tools/registry';
import type { RunStorage } from '../../src/store/run-storage';
import { suitesPerStorageKind } from '../fixtures/storage-kinds';
import { rawCall, rawResponse, replyOf, runHarness, toolTurn, type Step } from '../fixtures/run-harness';

/** Each `describe` below runs once per storage kind; `newStorage()` makes a fresh storage of that kind. */
const { describe, newStorage } = suitesPerStorageKind();

// ---------------------------------------------------------------------------------------------------
// Fakes

/** The shared fakes under their local names. */
const call = rawCall;
const raw = rawResponse;

const tools = toolTurn;
const retryable = (status = 429): ModelReply => ({ ok: false, status, message: `HTTP ${status} from upstream`, aborted: false });


interface HarnessOptions {
    script: Step[];
    storage?: RunStorage;
    commit?: (request: CommitRequest) => Result<{ messageId: number }>;
    controller?: AbortController;
}

/** The shared scripted host, on the storage kind of the suite being run. */
const harness = (opts: HarnessOptions) => runHarness({ ...opts, storage: opts.storage ?? newStorage() });

const CHAT = {
    chatId: 'Alice - 2024-05-01@12h00m00s',
    integrity: 'integrity-abc',
    characterId: '0',
    groupId: null,
    characterName: 'Alice',
    userName: 'Bob',
};

const BASE_PREFIX: PrefixMessage[] = [
    { index: 0, role: 'assistant', name: 'Alice', text: 'Welcome to the inn, traveler.', hidden: false, agentRunId: null },
    { index: 1, role: 'user', name: 'Bob', text: 'Tell me about the dragon.', hidden: false, agentRunId: null },
];

function makeInput(runId: string, prefix: PrefixMessage[] = BASE_PREFIX): RunInput {
    return RunInputSchema.parse({
        runId,
        generationType: 'normal',
        chat: CHAT,
        prefix,
        prompt: [
            { role: 'system', content: 'You are Alice, the innkeeper.' },
            { role: 'user', content: 'Tell me about the dragon.' },
        ],
        worldInfo: { captured: true, entries: [] },
        profile: WRITER_PROFILE,
        source: 'custom',
        retry: { maxRetries: 2, baseDelayMs: 0 },
        skills: [],
        hiddenSkills: [],
    });
}

function withTools(overrides: Partial<Profile['tools']>, extra: Partial<Profile> = {}): Profile {
    return { ...WRITER_PROFILE, ...extra, tools: { ...WRITER_PROFILE.tools, ...overrides } };
}

const REPLY = 'The dragon sleeps beneath the mountain, Bob.';

/** write output/main.md, then commit and finish: the shortest complete run. */
function happyScript(reply = REPLY): Step[] {
    return [
        tools(call('call-w', 'workspace_write_file', { path: 'output/main.md', content: reply })),
        tools(call('call-c', 'workspace_commit', { reason: 'done' }), call('call-f', 'workspace_finish', { reason: 'reply committed' })),
    ];
}

const typesOf = (events: JournalEvent[]) => events.map((event): string => event.type);
const ofType = payloadsOf;
const transitions = (events: JournalEvent[]) =>
    ofType(events, 'run-state').map((p) => `${p.from}→${p.to}`);

/** Every key anywhere in a JSON value. */
function allKeys(value: unknown, out = new Set<string>()): Set<string> {
    if (Array.isArray(value)) value.forEach((item) => allKeys(item, out));
    else if (value && typeof value === 'object') {
        for (const [key, inner] of Object.entries(value)) {
            out.add(key);
            allKeys(inner, out);
        }
    }
    return out;
}

function toolMessage(messages: WireMessage[], callId: string): WireMessage {
    const found = messages.find((m) => m.role === 'tool' && m.tool_call_id === callId);
    assert.ok(found, `no tool message for ${callId}; messages: ${JSON.stringify(messages.map((m) => [m.role, m.tool_call_id]))}`);
    return found;
}

// ---------------------------------------------------------------------------------------------------

describe('runAgent: a complete run', () => {
    it('writes, commits and finishes with the committed message id', async () => {
        const h = harness({ script: happyScript() });
        const outcome = await h.run(makeInput('run-ok'));
        assert.deepEqual(outcome, { runId: 'run-ok', state: 'completed', messageId: 5, error: null });
        assert.equal(h.requests.length, 2);
        assert.equal(h.commits.length, 1);
        assert.deepEqual(h.commits[0], { runId: 'run-ok', path: 'output/main.md', text: REPLY, mode: 'replace', reason: 'done' });
        const record = await h.storage.getRun('run-ok');
        assert.equal(record?.state, 'completed');
        assert.equal(record?.messageId, 5);
        assert.equal(record?.error, null);
        assert.equal(record?.chatKey, CHAT.integrity);
    });

    it('journals every step, and the pushed events equal the stored journal with contiguous seq from 0', async () => {
        const h = harness({ script: happyScript() });
        await h.run(makeInput('run-journal'));
        const journal = await h.journal('run-journal');
        assert.ok(journal.length > 10, `journal too short: ${typesOf(journal).join(', ')}`);
        assert.deepEqual(h.pushed, journal);
        assert.deepEqual(journal.map((e) => e.seq), journal.map((_, i) => i));
        assert.ok(journal.every((e) => e.runId === 'run-journal'));

        assert.equal(journal[0]!.type, 'run-create');
        assert.deepEqual(journal[0]!.payload, {
            chatKey: CHAT.integrity,
            chatId: CHAT.chatId,
            profileId: 'writer',
            generationType: 'normal',
            foreground: true,
        });
        assert.deepEqual(transitions(journal), [
            'created→preparing',
            'preparing→running',
            'running→awaiting_commit',
            'awaiting_commit→running',
            'running→finishing',
            'finishing→completed',
        ]);
        for (const type of ['model-request', 'model-response', 'tool-call-start', 'tool-call-complete', 'file-write', 'checkpoint', 'commit', 'persist-promote', 'run-finish']) {
            assert.ok(typesOf(journal).includes(type), `journal lacks ${type}: ${typesOf(journal).join(', ')}`);
        }
        assert.equal(ofType(journal, 'model-request').length, 2);
        assert.equal(ofType(journal, 'model-response').length, 2);
        assert.deepEqual(ofType(journal, 'tool-call-start').map((p) => p.providerCallId), ['call-w', 'call-c', 'call-f']);
        assert.deepEqual(ofType(journal, 'tool-call-complete').map((p) => p.callId), ['call-0001', 'call-0002', 'call-0003']);
        assert.deepEqual(ofType(journal, 'tool-call-fail'), []);
        const commit = ofType(journal, 'commit');
        assert.deepEqual(commit, [{ path: 'output/main.md', mode: 'replace', messageId: 5, chars: REPLY.length, reason: 'done' }]);
        assert.deepEqual(ofType(journal, 'run-finish'), [{ reason: 'reply committed' }]);

        // Order: the commit happens while awaiting_commit; finish, promotion, then the final state.
        const types = typesOf(journal);
        const idx = (type: string) => types.indexOf(type);
        assert.ok(idx('file-write') < idx('commit'));
        assert.ok(idx('commit') < idx('persist-promote'));
        assert.ok(idx('persist-promote') < idx('run-finish'));
        assert.equal(journal.at(-1)!.type, 'run-state');
        assert.deepEqual(journal.at(-1)!.payload, { from: 'finishing', to: 'completed' });
    });

    it('stores the hidden files: input, tool args and results, raw model responses', async () => {
        const h = harness({ script: happyScript() });
        const input = makeInput('run-hidden');
        await h.run(input);
        const files = await h.files('run-hidden');
        for (const path of [
            'input/prompt.json',
            'tool-args/call-0001.json',
            'tool-args/call-0002.json',
            'tool-args/call-0003.json',
            'tool-results/call-0001.json',
            'tool-results/call-0002.json',
            'tool-results/call-0003.json',
            'model-responses/round-001.json',
            'model-responses/round-002.json',
            'output/main.md',
        ]) {
            assert.ok(files.has(path), `missing ${path}; stored: ${[...files.keys()].join(', ')}`);
        }
        assert.deepEqual(JSON.parse(files.get('input/prompt.json')!), input.prompt);
        assert.deepEqual(JSON.parse(files.get('tool-args/call-0001.json')!), { path: 'output/main.md', content: REPLY });
        const result = JSON.parse(files.get('tool-results/call-0001.json')!);
        assert.equal(result.ok, true);
        assert.deepEqual(JSON.parse(files.get('model-responses/round-001.json')!), (happyScript()[0] as { raw: unknown }).raw);
        assert.equal(files.get('output/main.md'), REPLY);
    });

    it('offers the writer its visible tools with provider-safe schemas', async () => {
        const h = harness({ script: happyScript() });
        await h.run(makeInput('run-tools'));
        const first = h.requests[0]!;
        assert.deepEqual(
            first.tools.map((t) => t.function.name),
            ALL_TOOLS.filter((t) => WRITER_PROFILE.tools.allow.some((p) => p === '*' || (p.endsWith('.*') ? t.name.startsWith(p.slice(0, -1)) : p === t.name)) || (t.name === 'script.run' && WRITER_PROFILE.scripts === 'all')).map((t) => t.alias),
        );
        assert.ok(first.tools.some((t) => t.function.name === 'workspace_write_file'));
        for (const tool of first.tools) {
            assert.equal(tool.type, 'function');
            assert.ok(!tool.function.name.includes('.'), `provider names have no dots: ${tool.function.name}`);
            assert.ok(tool.function.description.length > 0);
            assert.equal(tool.function.parameters.type, 'object');
            const keys = allKeys(tool.function.parameters);
            assert.ok(!keys.has('additionalProperties'), `${tool.function.name} schema has additionalProperties`);
            assert.ok(!keys.has('$schema'), `${tool.function.name} schema has $schema`);
        }
        const write = first.tools.find((t) => t.function.name === 'workspace_write_file')!.function.parameters as {
            properties: Record<string, unknown>;
            required?: string[];
        };
        assert.deepEqual(Object.keys(write.properties).sort(), ['content', 'mode', 'path']);
        assert.deepEqual([...(write.required ?? [])].sort(), ['content', 'path']);

        // The conversation starts with the agent's system message, then the prompt SillyTavern assembled.
        assert.equal(first.messages[0]!.role, 'system');
        assert.match(first.messages[0]!.content!, /workspace_write_file/);
        assert.deepEqual(first.messages.slice(1), [
            { role: 'system', content: 'You are Alice, the innkeeper.' },
            { role: 'user', content: 'Tell me about the dragon.' },
        ]);
    });

    it('sends tool results back as role "tool" messages answering the assistant turn', async () => {
        const h = harness({ script: happyScript() });
        await h.run(makeInput('run-results'));
        const second = h.requests[1]!.messages;
        const assistant = second.at(-2)!;
        assert.equal(assistant.role, 'assistant');
        assert.deepEqual(assistant.tool_calls, [
            { id: 'call-w', type: 'function', function: { name: 'workspace_write_file', arguments: JSON.stringify({ path: 'output/main.md', content: REPLY }) } },
        ]);
        const result = second.at(-1)!;
        assert.equal(result.role, 'tool');
        assert.equal(result.tool_call_id, 'call-w');
        assert.match(result.content!, /output\/main\.md/);
        assert.doesNotMatch(result.content!, /^ERROR/);
    });

    it('answers a recoverable tool error with an ERROR tool message and goes on', async () => {
        const h = harness({
            script: [
                tools(call('call-bad', 'workspace_read_file', { path: 'scratch/missing.md' }), call('call-x', 'chat_delete_everything', {})),
                ...happyScript(),
            ],
        });
        const outcome = await h.run(makeInput('run-recover'));
        assert.equal(outcome.state, 'completed');
        const second = h.requests[1]!.messages;
        assert.match(toolMessage(second, 'call-bad').content!, /^ERROR workspace\.file_not_found: .*\nHint: ./s);
        assert.match(toolMessage(second, 'call-x').content!, /^ERROR tool\.not_allowed: /);
        const fails = ofType(await h.journal('run-recover'), 'tool-call-fail');
        assert.deepEqual(fails.map((f) => [f.callId, f.code]), [['call-0001', 'workspace.file_not_found'], ['call-0002', 'tool.not_allowed']]);
    });
});

describe('runAgent: failures', () => {
    it('fails on a malformed response and never promotes persist/', async () => {
        const h = harness({
            script: [tools(call('call-p', 'workspace_write_file', { path: 'persist/memory.md', content: 'x' })), replyOf({})],
        });
        const outcome = await h.run(makeInput('run-malformed'));
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'model.malformed_response');
        assert.equal(outcome.messageId, null);
        assert.equal(await h.storage.getPersistState('run-malformed'), undefined);
        const journal = await h.journal('run-malformed');
        assert.deepEqual(h.pushed, journal);
        assert.equal(ofType(journal, 'persist-promote').length, 0);
        const [runFail] = ofType(journal, 'run-fail');
        assert.equal(runFail?.code, 'model.malformed_response');
        assert.ok(runFail?.detail, 'the technical detail is journaled');
        assert.equal(transitions(journal).at(-1), 'running→failed');
        assert.equal((await h.storage.getRun('run-malformed'))?.state, 'failed');
        assert.deepEqual((await h.storage.getRun('run-malformed'))?.error?.code, 'model.malformed_response');
    });

    it('fails with host.chat_changed when the host refuses the commit, and does not finish', async () => {
        const h = harness({
            script: happyScript(),
            commit: () => fail('host.chat_changed', 'The chat changed while the agent was working.'),
        });
        const outcome = await h.run(makeInput('run-changed'));
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'host.chat_changed');
        assert.equal(outcome.messageId, null);
        assert.equal(h.commits.length, 1);
        const journal = await h.journal('run-changed');
        assert.equal(ofType(journal, 'commit').length, 0);
        assert.equal(ofType(journal, 'run-finish').length, 0);
        assert.equal(ofType(journal, 'persist-promote').length, 0);
        assert.deepEqual(ofType(journal, 'tool-call-start').map((p) => p.providerCallId), ['call-w', 'call-c']);
        assert.equal(transitions(journal).at(-1), 'awaiting_commit→failed');
    });

    it('maps any other host commit error to host.commit_failed', async () => {
        const h = harness({ script: happyScript(), commit: () => ({ ok: false, error: { code: 'st.save_failed', message: 'saveChat rejected' } }) }) // a code from no list: the host's answer is data;
        const outcome = await h.run(makeInput('run-commit-failed'));
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'host.commit_failed');
    });

    it('is cancelled when the signal aborts during a model call, and never commits afterwards', async () => {
        const controller = new AbortController();
        const h = harness({
            controller,
            script: [
                tools(call('call-w', 'workspace_write_file', { path: 'output/main.md', content: REPLY })),
                // Stop pressed while the model is answering; this host returns the answer anyway.
                () => {
                    controller.abort('user pressed Stop');
                    return tools(call('call-c', 'workspace_commit', {}), call('call-f', 'workspace_finish', {}));
                },
            ],
        });
        const outcome = await h.run(makeInput('run-cancel'));
        assert.equal(outcome.state, 'cancelled');
        assert.equal(outcome.error?.code, 'run.cancelled');
        assert.equal(outcome.messageId, null);
        assert.equal(h.commits.length, 0);
        const journal = await h.journal('run-cancel');
        assert.equal(ofType(journal, 'run-cancel').length, 1);
        assert.equal(ofType(journal, 'run-fail').length, 0);
        assert.equal(ofType(journal, 'commit').length, 0);
        assert.equal(ofType(journal, 'persist-promote').length, 0);
        assert.deepEqual(ofType(journal, 'tool-call-start').map((p) => p.providerCallId), ['call-w']);
        assert.equal(transitions(journal).at(-1), 'running→cancelled');
        assert.equal((await h.storage.getRun('run-cancel'))?.state, 'cancelled');
        assert.equal(await h.storage.getPersistState('run-cancel'), undefined);
    });

    it('is cancelled when the host reports the model call as aborted', async () => {
        const controller = new AbortController();
        const h = harness({
            controller,
            script: [
                () => {
                    controller.abort();
                    return { ok: false, status: null, message: 'aborted', aborted: true };
                },
            ],
        });
        const outcome = await h.run(makeInput('run-cancel-2'));
        assert.equal(outcome.state, 'cancelled');
        assert.equal(outcome.error?.code, 'run.cancelled');
        assert.equal(h.requests.length, 1);
        assert.equal(ofType(await h.journal('run-cancel-2'), 'run-cancel').length, 1);
    });

    it('retries retryable failures up to maxRetries, journaling each retry, then fails with model.request_failed', async () => {
        const h = harness({ script: [retryable(429), retryable(503), retryable(502), ...happyScript()] });
        const outcome = await h.run(makeInput('run-retry-fail'));
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'model.request_failed');
        assert.equal(h.requests.length, 3, '1 attempt + maxRetries (2) retries');
        const retries = ofType(await h.journal('run-retry-fail'), 'model-retry');
        assert.deepEqual(retries.map((r) => [r.round, r.attempt, r.delayMs, r.status]), [[1, 1, 0, 429], [1, 2, 0, 503]]);
    });

    it('recovers when a retry succeeds', async () => {
        const h = harness({ script: [retryable(429), ...happyScript()] });
        const outcome = await h.run(makeInput('run-retry-ok'));
        assert.equal(outcome.state, 'completed');
        assert.equal(h.requests.length, 3);
        assert.equal(ofType(await h.journal('run-retry-ok'), 'model-retry').length, 1);
    });

    it('does not retry a non-retryable failure', async () => {
        const h = harness({ script: [{ ok: false, status: 401, message: 'bad key', aborted: false }, ...happyScript()] });
        const outcome = await h.run(makeInput('run-no-retry'));
        assert.equal(outcome.error?.code, 'model.request_failed');
        assert.equal(h.requests.length, 1);
        assert.equal(ofType(await h.journal('run-no-retry'), 'model-retry').length, 0);
    });

    /** Memory storage whose appendEvent rejects from the first event of `fromType` on. */
    /** Storage whose journal breaks from the first event of `fromType` on; `inner` is the same data, working. */
    function failingJournal(fromType: string, error: () => unknown): RunStorage & { inner: RunStorage } {
        const inner = newStorage();
        let broken = false;
        return {
            ...inner,
            inner,
            async appendEvents(writes) {
                if (writes.some((w) => w.event.type === fromType)) broken = true;
                if (broken) throw error();
                return inner.appendEvents(writes);
            },
        };
    }

    it('fails with store.write_failed when a journal append rejects', async () => {
        const storage = failingJournal('tool-call-start', () => new Error('disk I/O error'));
        const h = harness({ storage, script: happyScript() });
        const outcome = await h.run(makeInput('run-store'));
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'store.write_failed');
        assert.equal(h.commits.length, 0);
        assert.equal(await storage.getPersistState('run-store'), undefined);
        const journal = await h.journal('run-store');
        // Only stored events reach the panel: the journal and the pushed events still agree.
        assert.deepEqual(h.pushed, journal);
        assert.deepEqual(journal.map((e) => e.seq), journal.map((_, i) => i));
        // The model response is stored with the first call's start, in one transaction: neither landed.
        assert.equal(journal.at(-1)!.type, 'model-request');
        assert.equal(ofType(journal, 'model-response').length, 0);
    });

    it('records the failure in the stored run record even when the journal cannot be written', async () => {
        const storage = failingJournal('tool-call-start', () => new Error('disk I/O error'));
        const h = harness({ storage, script: happyScript() });
        await h.run(makeInput('run-store-record'));
        const record = await storage.getRun('run-store-record');
        assert.equal(record?.state, 'failed');
        assert.equal(record?.error?.code, 'store.write_failed');
    });

    it('fails with store.quota_exceeded on a QuotaExceededError', async () => {
        const storage = failingJournal('file-write', () => new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
        const h = harness({ storage, script: happyScript() });
        const outcome = await h.run(makeInput('run-quota'));
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'store.quota_exceeded');
        assert.equal(h.commits.length, 0);
    });

    it('a run that fails after storing its persist/ never passes that memory on', async () => {
        const storage = failingJournal('persist-promote', () => new Error('disk I/O error'));
        const h = harness({
            storage,
            script: [
                tools(call('call-p', 'workspace_write_file', { path: 'persist/memory.md', content: 'The dragon is named Ash.' })),
                ...happyScript(),
            ],
        });
        const outcome = await h.run(makeInput('run-late-fail'));
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'store.write_failed');
        assert.equal((await storage.getRun('run-late-fail'))?.state, 'failed');

        // A later run whose prefix holds the failed run's message starts without its memory.
        const prefix: PrefixMessage[] = [
            ...BASE_PREFIX,
            { index: 2, role: 'assistant', name: 'Alice', text: REPLY, hidden: false, agentRunId: 'run-late-fail' },
            { index: 3, role: 'user', name: 'Bob', text: 'And its name?', hidden: false, agentRunId: null },
        ];
        const next = harness({ storage: storage.inner, script: [tools(call('call-r', 'workspace_read_file', { path: 'persist/memory.md' }))] });
        await next.run(makeInput('run-after', prefix));
        assert.match(toolMessage(next.requests[1]!.messages, 'call-r').content!, /^ERROR workspace\.file_not_found/);
    });
});

describe('runAgent: budgets', () => {
    it('after maxRounds gives one wrap-up turn with only commit and finish', async () => {
        const h = harness({
            script: [
                tools(call('call-w', 'workspace_write_file', { path: 'output/main.md', content: REPLY })),
                tools(call('call-l', 'workspace_list_files', {})),
                tools(
                    call('call-late', 'workspace_write_file', { path: 'scratch/late.md', content: 'too late' }),
                    call('call-c', 'workspace_commit', {}),
                    call('call-f', 'workspace_finish', {}),
                ),
            ],
        });
        const outcome = await h.run(makeInput('run-rounds'), withTools({ maxRounds: 2 }));
        assert.equal(outcome.state, 'completed');
        assert.equal(outcome.messageId, 5);
        assert.equal(h.requests.length, 3);
        assert.ok(h.requests[1]!.tools.length > 2);
        assert.deepEqual(h.requests[2]!.tools.map((t) => t.function.name), ['workspace_commit', 'workspace_finish']);
        const notice = h.requests[2]!.messages.at(-1)!;
        assert.equal(notice.role, 'user');
        assert.match(notice.content!, /workspace_commit/);
        assert.match(notice.content!, /workspace_finish/);

        const journal = await h.journal('run-rounds');
        assert.deepEqual(ofType(journal, 'budget-wrap-up'), [{ reason: 'maxRounds', rounds: 2, calls: 2, maxRounds: 2 }]);
        assert.deepEqual(ofType(journal, 'model-request').map((p) => p.wrapUp), [false, false, true]);
        const late = ofType(journal, 'tool-call-fail');
        assert.deepEqual(late.map((f) => [f.callId, f.code]), [['call-0003', 'tool.budget_exhausted']]);
        assert.equal((await h.files('run-rounds')).has('scratch/late.md'), false);
        // The wrap-up notice is journaled before the wrap-up request.
        const types = typesOf(journal);
        assert.ok(types.indexOf('budget-wrap-up') < types.lastIndexOf('model-request'));
    });

    it('after maxCallsPerRun wraps up with reason maxCallsPerRun', async () => {
        const h = harness({
            script: [
                tools(call('call-w', 'workspace_write_file', { path: 'output/main.md', content: REPLY }), call('call-l', 'workspace_list_files', {})),
                tools(call('call-c', 'workspace_commit', {}), call('call-f', 'workspace_finish', {})),
            ],
        });
        const outcome = await h.run(makeInput('run-calls'), withTools({ maxCallsPerRun: 2 }));
        assert.equal(outcome.state, 'completed');
        assert.deepEqual(h.requests[1]!.tools.map((t) => t.function.name), ['workspace_commit', 'workspace_finish']);
        assert.deepEqual(ofType(await h.journal('run-calls'), 'budget-wrap-up'), [{ reason: 'maxCallsPerRun', rounds: 1, calls: 2, maxRounds: 80 }]);
    });

    it('fails with run.budget_exhausted when the wrap-up turn neither commits nor finishes', async () => {
        const h = harness({
            script: [tools(call('call-l1', 'workspace_list_files', {})), tools(call('call-l2', 'workspace_list_files', {}))],
        });
        const outcome = await h.run(makeInput('run-wrap-fail'), withTools({ maxRounds: 1 }));
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'run.budget_exhausted');
        assert.equal(h.requests.length, 2, 'exactly one wrap-up turn');
    });

    it('refuses the call over maxCallsPerTool with tool.budget_exhausted and goes on', async () => {
        const h = harness({
            script: [
                tools(call('call-l1', 'workspace_list_files', {}), call('call-l2', 'workspace_list_files', { path: 'output' })),
                tools(call('call-l3', 'workspace_list_files', {})),
                ...happyScript(),
            ],
        });
        const outcome = await h.run(makeInput('run-per-tool'), withTools({ maxCallsPerTool: { 'workspace.list_files': 2 } }));
        assert.equal(outcome.state, 'completed');
        assert.equal(h.requests.length, 4);
        const third = toolMessage(h.requests[2]!.messages, 'call-l3').content!;
        assert.match(third, /^ERROR tool\.budget_exhausted: /);
        assert.doesNotMatch(toolMessage(h.requests[2]!.messages, 'call-l2').content!, /^ERROR/);
        const journal = await h.journal('run-per-tool');
        assert.deepEqual(ofType(journal, 'tool-call-fail').map((f) => [f.callId, f.code]), [['call-0003', 'tool.budget_exhausted']]);
        // A per-tool limit is not a run budget: no wrap-up.
        assert.equal(ofType(journal, 'budget-wrap-up').length, 0);
    });
});

describe('runAgent: plain text instead of tool calls', () => {
    it('saves the text, reminds twice, then fails with model.tool_call_required', async () => {
        const h = harness({
            script: [replyOf(raw('Once upon a time…')), replyOf(raw('The dragon slept.')), replyOf(raw('The end.')), ...happyScript()],
        });
        const outcome = await h.run(makeInput('run-plain'));
        assert.equal(outcome.state, 'failed');
        assert.equal(outcome.error?.code, 'model.tool_call_required');
        assert.equal(h.requests.length, 3);
        assert.equal(h.commits.length, 0);
        const journal = await h.journal('run-plain');
        assert.deepEqual(ofType(journal, 'model-reminder'), [
            { round: 1, attempt: 1, savedTo: 'output/direct_output.md' },
            { round: 2, attempt: 2, savedTo: 'output/direct_output.md' },
        ]);
        assert.equal((await h.files('run-plain')).get('output/direct_output.md'), 'The end.');
        assert.deepEqual(
            ofType(journal, 'file-write').map((p) => [p.path, p.mode]),
            Array.from({ length: 3 }, () => ['output/direct_output.md', 'direct_output']),
        );
        // The model sees its own text and then a reminder.
        const second = h.requests[1]!.messages;
        assert.deepEqual(second.at(-2), { role: 'assistant', content: 'Once upon a time…' });
        assert.equal(second.at(-1)!.role, 'user');
        assert.match(second.at(-1)!.content!, /1\/2/);
        assert.match(h.requests[2]!.messages.at(-1)!.content!, /2\/2/);
        assert.equal(await h.storage.getPersistState('run-plain'), undefined);
    });

    it('honours a profile with a different reminder count', async () => {
        const h = harness({ script: [replyOf(raw('plain')), ...happyScript()] });
        const outcome = await h.run(makeInput('run-plain-0'), { ...WRITER_PROFILE, maxToolReminders: 0 });
        assert.equal(outcome.error?.code, 'model.tool_call_required');
        assert.equal(h.requests.length, 1);
    });

    it('goes on normally when the model uses tools after a reminder', async () => {
        const h = harness({ script: [replyOf(raw('plain')), ...happyScript()] });
        const outcome = await h.run(makeInput('run-plain-ok'));
        assert.equal(outcome.state, 'completed');
        assert.equal(ofType(await h.journal('run-plain-ok'), 'model-reminder').length, 1);
    });
});

describe('runAgent: persist/ and finish', () => {
    const MEMORY = 'The dragon is named Ash.';

    function firstRun(h: ReturnType<typeof harness>, runId: string) {
        return h.run(makeInput(runId));
    }

    it('seeds the next run from the persist/ of the run that committed the newest agent message in its prefix', async () => {
        const storage = newStorage();
        const first = harness({
            storage,
            script: [tools(call('call-m', 'workspace_write_file', { path: 'persist/memory.md', content: MEMORY })), ...happyScript()],
        });
        assert.equal((await firstRun(first, 'run-A')).state, 'completed');
        const promoted = await storage.getPersistState('run-A');
        assert.deepEqual(promoted?.files, { 'persist/memory.md': MEMORY });
        assert.equal(promoted?.chatKey, CHAT.integrity);

        const prefix: PrefixMessage[] = [
            ...BASE_PREFIX,
            { index: 2, role: 'assistant', name: 'Alice', text: REPLY, hidden: false, agentRunId: 'run-A' },
            { index: 3, role: 'user', name: 'Bob', text: 'And its name?', hidden: false, agentRunId: null },
        ];
        const second = harness({
            storage,
            script: [
                tools(call('call-r', 'workspace_read_file', { path: 'persist/memory.md' })),
                tools(call('call-m2', 'workspace_write_file', { path: 'persist/memory.md', content: `${MEMORY}\nBob asked its name.` })),
                ...happyScript('Its name is Ash.'),
            ],
        });
        assert.equal((await second.run(makeInput('run-B', prefix))).state, 'completed');
        assert.match(toolMessage(second.requests[1]!.messages, 'call-r').content!, /The dragon is named Ash\./);
        assert.deepEqual((await storage.getPersistState('run-B'))?.files, { 'persist/memory.md': `${MEMORY}\nBob asked its name.` });
        // The first run's memory is left as it was (memory follows the branch).
        assert.deepEqual((await storage.getPersistState('run-A'))?.files, { 'persist/memory.md': MEMORY });

        // A run whose prefix holds no agent message starts with an empty persist/.
        const third = harness({ storage, script: [tools(call('call-r3', 'workspace_read_file', { path: 'persist/memory.md' }))] });
        await third.run(makeInput('run-C'));
        assert.match(toolMessage(third.requests[1]!.messages, 'call-r3').content!, /^ERROR workspace\.file_not_found/);
    });

    it('skips prefix messages of runs that never promoted persist/', async () => {
        const storage = newStorage();
        const first = harness({
            storage,
            script: [tools(call('call-m', 'workspace_write_file', { path: 'persist/memory.md', content: MEMORY })), ...happyScript()],
        });
        await firstRun(first, 'run-A');
        const prefix: PrefixMessage[] = [
            ...BASE_PREFIX,
            { index: 2, role: 'assistant', name: 'Alice', text: REPLY, hidden: false, agentRunId: 'run-A' },
            { index: 3, role: 'assistant', name: 'Alice', text: 'half a reply', hidden: false, agentRunId: 'run-failed-never-promoted' },
        ];
        const second = harness({ storage, script: [tools(call('call-r', 'workspace_read_file', { path: 'persist/memory.md' }))] });
        await second.run(makeInput('run-B', prefix));
        assert.match(toolMessage(second.requests[1]!.messages, 'call-r').content!, /The dragon is named Ash\./);
    });

    it('does not run tool calls that come after an accepted finish in the same turn', async () => {
        const h = harness({
            script: [
                tools(call('call-w', 'workspace_write_file', { path: 'output/main.md', content: REPLY })),
                tools(
                    call('call-c', 'workspace_commit', {}),
                    call('call-f', 'workspace_finish', {}),
                    call('call-after', 'workspace_write_file', { path: 'scratch/after.md', content: 'should not exist' }),
                    call('call-commit-again', 'workspace_commit', { mode: 'append' }),
                ),
            ],
        });
        const outcome = await h.run(makeInput('run-after-finish'));
        assert.equal(outcome.state, 'completed');
        assert.equal(h.commits.length, 1);
        assert.equal(h.requests.length, 2);
        const files = await h.files('run-after-finish');
        assert.equal(files.has('scratch/after.md'), false);
        assert.equal(files.has('tool-results/call-0004.json'), false);
        const journal = await h.journal('run-after-finish');
        assert.deepEqual(ofType(journal, 'tool-call-start').map((p) => p.providerCallId), ['call-w', 'call-c', 'call-f']);
        assert.equal(ofType(journal, 'commit').length, 1);
    });

    it('refuses finish before a commit in a foreground run, and the run goes on', async () => {
        const h = harness({ script: [tools(call('call-f0', 'workspace_finish', {})), ...happyScript()] });
        const outcome = await h.run(makeInput('run-early-finish'));
        assert.equal(outcome.state, 'completed');
        assert.match(toolMessage(h.requests[1]!.messages, 'call-f0').content!, /^ERROR workspace\.commit_required: /);
    });

    it('lets a background run finish without committing', async () => {
        const h = harness({ script: [tools(call('call-f', 'workspace_finish', { reason: 'nothing to say' }))] });
        const outcome = await h.run(makeInput('run-bg'), { ...WRITER_PROFILE, presentation: 'background' });
        assert.deepEqual(outcome, { runId: 'run-bg', state: 'completed', messageId: null, error: null });
        assert.equal(h.commits.length, 0);
    });

    it('does not fail the run when an edit swaps one emoji for another', async () => {
        const h = harness({
            script: [
                tools(call('call-w1', 'workspace_write_file', { path: 'output/main.md', content: 'Alice smiles 😀' })),
                tools(call('call-w2', 'workspace_write_file', { path: 'output/main.md', content: 'Alice smiles 😃' })),
                ...happyScript('Alice smiles 😃'),
            ],
        });
        const outcome = await h.run(makeInput('run-emoji'));
        assert.equal(outcome.error?.code ?? null, null);
        assert.equal(outcome.state, 'completed');
    });
});
