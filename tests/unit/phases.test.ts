// Agents around SillyTavern's reply, in the engine (issue 34): a director before it writes a brief and never
// the chat; a keeper after it never writes the chat, and its memory goes into the reply it follows; a reply
// agent reads its brief; a keeper works beside the chat's writer, never blocking the next turn.
// Run: node --import tsx --test tests/unit/phases.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryPayload } from '../../src/contract/memory';
import { DIRECTOR_PROFILE, MEMORY_KEEPER_PROFILE, WRITER_PROFILE } from '../../src/contract/profile';
import type { RunOutcome } from '../../src/contract/run-input';
import type { HostBridge } from '../../src/contract/wire';
import { newEngineState } from '../../src/engine/api/engine-state';
import { launchRun } from '../../src/engine/api/run-launch';
import { phasedProfile } from '../../src/engine/run/phase-run';
import type { RunDependencies } from '../../src/engine/run/run-session';
import { RunLease } from '../../src/engine/tabs/leases';
import type { RunRecord } from '../../src/contract/records';
import { createMemoryRunStorage } from '../../src/store/run-storage';
import { rawCall, runHarness, toolTurn } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

const tools = (request: { tools: Array<{ function: { name: string } }> }) => request.tools.map((tool) => tool.function.name);

describe('a director before the reply', () => {
    it('is not offered commit, finishes without one, and its outcome carries output/brief.md', async () => {
        const h = runHarness({
            script: [toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/brief.md', content: '- The owl is hurt.\n- Keep it short.' })), toolTurn(rawCall('f', 'workspace_finish', {}))],
        });
        const profile = phasedProfile(DIRECTOR_PROFILE, 'before');
        const outcome = await h.run(sampleRunInput({ runId: 'director', phase: 'before', profile }), profile);
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        assert.equal(outcome.brief, '- The owl is hurt.\n- Keep it short.');
        assert.equal(h.commits.length, 0);
        assert.ok(!tools(h.requests[0]!).includes('workspace_commit'));
        assert.match(h.requests[0]!.messages[0]!.content ?? '', /BEFORE Seraphina's next reply/);
        assert.match(h.requests[0]!.messages[0]!.content ?? '', /output\/brief\.md/);
        assert.equal((await h.storage.getRun('director'))?.phase, 'before');
    });

    it('even a writer profile set before the reply cannot commit', async () => {
        const h = runHarness({ script: [toolTurn(rawCall('c', 'workspace_commit', {})), toolTurn(rawCall('f', 'workspace_finish', {}))] });
        const profile = phasedProfile(WRITER_PROFILE, 'before');
        const outcome = await h.run(sampleRunInput({ runId: 'writer-before', phase: 'before', profile }), profile);
        assert.equal(outcome.state, 'completed');
        assert.equal(outcome.brief, '', 'no brief written: an empty one');
        assert.equal(h.commits.length, 0);
        assert.match(JSON.stringify(h.requests[1]!.messages), /tool\.not_allowed/);
    });
});

describe('a reply agent with a brief', () => {
    it('reads the brief in its starting context', async () => {
        const h = runHarness({ script: [toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: 'Hoo.' }), rawCall('c', 'workspace_commit', {}), rawCall('f', 'workspace_finish', {}))] });
        await h.run(sampleRunInput({ runId: 'briefed', brief: '- The owl is hurt.' }));
        assert.match(h.requests[0]!.messages[0]!.content ?? '', /A director prepared this brief for the reply\. Respect it:\n- The owl is hurt\./);
    });
});

describe('a keeper after the reply', () => {
    it('is not offered commit, and its memory goes into the reply it follows, whole when that reply gave the base', async () => {
        const attached: Array<{ runId: string; memory: MemoryPayload }> = [];
        const h = runHarness({
            script: [toolTurn(rawCall('w', 'workspace_write_file', { path: 'persist/threads.md', content: '- The owl is hurt.' })), toolTurn(rawCall('f', 'workspace_finish', {}))],
            attachMemory: async (request) => {
                attached.push(request);
                return { ok: true, value: { stored: true, bytes: 10 } };
            },
        });
        const base = sampleRunInput();
        const prefix = [...base.prefix, { index: 2, role: 'assistant' as const, name: 'Seraphina', text: 'The owl hoots.', hidden: false, agentRunId: 'reply-run', memory: { v: 1 as const, files: { 'persist/a.md': 'old' } } }];
        const profile = phasedProfile(MEMORY_KEEPER_PROFILE, 'after');
        const outcome = await h.run(sampleRunInput({ runId: 'keeper', phase: 'after', follows: { messageIndex: 2 }, prefix, profile }), profile);
        assert.equal(outcome.state, 'completed', JSON.stringify(outcome.error));
        assert.equal(h.commits.length, 0);
        assert.ok(!tools(h.requests[0]!).includes('workspace_commit'));
        assert.match(h.requests[0]!.messages[0]!.content ?? '', /AFTER a reply was added to the chat \(message #2/);
        assert.equal(attached.length, 1);
        assert.deepEqual(attached[0]!.memory, { v: 1, files: { 'persist/a.md': 'old', 'persist/threads.md': '- The owl is hurt.' } });
    });

    it('works beside the chat\'s writer: a keeper never makes the next turn busy, and a reply run still keeps the chat to itself', async () => {
        const state = newEngineState();
        const storage = createMemoryRunStorage();
        state.storage = storage;
        const host: HostBridge = { requestModel: async () => ({ ok: false, status: null, message: 'x', aborted: false }), commit: async () => ({ ok: true, value: { messageId: 1 } }), onEvents() {} };
        const chat = sampleRunInput().chat;
        let release = () => undefined as void;
        const held = new Promise<void>((resolve) => (release = resolve));
        // Each run claims its lease first, as runLifecycle does (launchRun always gives its terms): without Web
        // Locks the claim keeps the chat to one writer.
        const working = (runId: string, phase: 'reply' | 'after') => async (deps: RunDependencies): Promise<RunOutcome> => {
            const record: RunRecord = { v: 1, runId, chatKey: chat.integrity, chatId: chat.chatId, profileId: 'writer', generationType: 'normal', state: 'running', messageId: null, error: null, createdAt: 1, updatedAt: 1, phase };
            const lease = await RunLease.claim(storage, record, deps.lease!, Date.now);
            await held;
            lease.release();
            return { runId, state: 'completed', messageId: null, error: null };
        };
        const keeper = launchRun(state, storage, { runId: 'keeper', chat, phase: 'after' }, host, working('keeper', 'after'));
        await new Promise((resolve) => setTimeout(resolve, 10));
        const reply = launchRun(state, storage, { runId: 'reply', chat }, host, working('reply', 'reply'));
        await new Promise((resolve) => setTimeout(resolve, 10));
        const second = await launchRun(state, storage, { runId: 'reply-2', chat }, host, working('reply-2', 'reply'));
        assert.equal(!second.ok && second.error.code, 'run.chat_busy', 'two replies never write one chat at once');
        const keeperToo = launchRun(state, storage, { runId: 'keeper-2', chat, phase: 'after' }, host, working('keeper-2', 'after'));
        release();
        for (const result of await Promise.all([keeper, reply, keeperToo])) assert.ok(result.ok && result.value.state === 'completed', JSON.stringify(result));
    });
});
