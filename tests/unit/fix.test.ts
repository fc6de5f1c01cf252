// `/agent fix` (issue 13 §1): which message a fix may revise, its arguments, and the fix run itself: it starts
// from the reply's current text (already in output/main.md, already read), is told what to do, commits a
// replacement, and its memory starts from the fixed message's and is written back whole.
// Run: node --import tsx --test tests/unit/fix.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MemoryPayload } from '../../src/contract/memory';
import { ok } from '../../src/contract/result';
import type { PrefixMessage } from '../../src/contract/run-input';
import { parseFixArguments, resolveFixTarget } from '../../src/host/chat/fix-target';
import { loadStoredInput } from '../../src/engine/run/stored-input';
import { rawCall, runHarness, toolTurn } from '../fixtures/run-harness';
import { sampleRunInput } from '../fixtures/run-input';

const marked = (runId: string, mes: string, memory?: unknown) => ({ mes, is_user: false, is_system: false, extra: { tavern_agent: { runId, ...(memory ? { memory } : {}) } } });
const userMessage = (mes: string) => ({ mes, is_user: true, is_system: false, extra: {} });
const plainReply = (mes: string) => ({ mes, is_user: false, is_system: false, extra: {} });

describe('the reply a fix revises', () => {
    const memory: MemoryPayload = { v: 1, files: { 'persist/notes.md': 'The bridge fell.' } };
    const chat = [plainReply('Greeting.'), userMessage('Hi'), marked('run-a', 'Agent reply.', memory), userMessage('More'), plainReply('A normal reply.')];

    it("is the chat's last agent reply when no id is given, with its run and memory", () => {
        const found = resolveFixTarget(chat, null);
        assert.ok(found.ok);
        assert.equal(found.value.index, 2);
        assert.equal(found.value.message, chat[2], 'the message itself, by identity');
        assert.equal(found.value.previousRunId, 'run-a');
        assert.deepEqual(found.value.memory, memory);
    });

    it('is refused for a user message, a reply no agent wrote, a hidden message, or no such id', () => {
        const own = resolveFixTarget(chat, 1);
        assert.ok(!own.ok && own.error.code === 'run.fix_not_agent_reply');
        const normal = resolveFixTarget(chat, 4);
        assert.ok(!normal.ok && normal.error.code === 'run.fix_not_agent_reply');
        const hidden = resolveFixTarget([{ ...marked('run-a', 'x'), is_system: true }], 0);
        assert.ok(!hidden.ok && hidden.error.code === 'run.fix_not_agent_reply');
        const missing = resolveFixTarget(chat, 9);
        assert.ok(!missing.ok && missing.error.code === 'run.fix_message_not_found');
        const none = resolveFixTarget([userMessage('Hi')], null);
        assert.ok(!none.ok && none.error.code === 'run.fix_not_agent_reply');
    });

    it('ignores a malformed memory in the marker instead of carrying it along', () => {
        const found = resolveFixTarget([marked('run-a', 'x', { v: 9 })], 0);
        assert.ok(found.ok);
        assert.equal(found.value.memory, undefined);
    });
});

describe('/agent fix arguments', () => {
    it('takes id=<n> before the request, or the named id, else the last reply', () => {
        assert.deepEqual(parseFixArguments(' make it shorter'), { messageId: null, request: 'make it shorter' });
        assert.deepEqual(parseFixArguments('id=4 make it shorter'), { messageId: 4, request: 'make it shorter' });
        assert.deepEqual(parseFixArguments('make it shorter', '7'), { messageId: 7, request: 'make it shorter' });
        assert.equal(parseFixArguments('id=four shorter'), null);
    });
});

describe('a fix run', () => {
    const reply = (runId: string, text: string, memory?: MemoryPayload): PrefixMessage => ({
        index: 2,
        role: 'assistant',
        name: 'Seraphina',
        text,
        hidden: false,
        agentRunId: runId,
        ...(memory ? { memory } : {}),
    });

    it('starts with the reply in output/main.md, read, is shown it with the request, and commits the patched text', async () => {
        const edited = 'You wake in the glade. The user added this line.';
        const h = runHarness({
            script: [
                // No read first: the seeded file counts as read, so the patch applies at once.
                toolTurn(rawCall('p', 'workspace_apply_patch', { path: 'output/main.md', old_string: ' The user added this line.', new_string: '' })),
                toolTurn(rawCall('c', 'workspace_commit'), rawCall('f', 'workspace_finish')),
            ],
        });
        const base = sampleRunInput();
        const input = sampleRunInput({ runId: 'fix-1', prefix: [...base.prefix, reply('run-a', edited)], fix: { messageIndex: 2, text: edited, request: 'make it shorter' } });
        const outcome = await h.run(input);
        assert.equal(outcome.state, 'completed');
        const first = h.requests[0]!.messages;
        assert.match(String(first[0]!.content), /REVISES an existing reply/);
        const last = String(first.at(-1)!.content);
        assert.equal(first.at(-1)!.role, 'user');
        assert.match(last, /make it shorter/);
        assert.ok(last.includes(edited), 'the model is shown the edited text');
        assert.equal(h.commits.length, 1);
        assert.equal(h.commits[0]!.text, 'You wake in the glade.');
        assert.equal(h.commits[0]!.mode, 'replace');
        const files = await h.files('fix-1');
        assert.equal(files.get('output/main.md'), 'You wake in the glade.');
        // Kept with the run's frozen input, so a resumed fix run is still a fix of that message.
        assert.deepEqual((await loadStoredInput(h.storage, 'fix-1'))?.input.fix, input.fix);
    });

    it('never commits its own instructions: a text that copies them is refused, and the model told why', async () => {
        const h = runHarness({
            script: [
                // The model copies the whole last message (header, request, reply) into the file.
                toolTurn(rawCall('w', 'workspace_write_file', { path: 'output/main.md', content: '[Revise your reply (message #2) as the user asks]\nRequest: make it shorter\n\nYou wake.' })),
                toolTurn(rawCall('c', 'workspace_commit')),
                toolTurn(rawCall('w2', 'workspace_write_file', { path: 'output/main.md', content: 'You wake.' })),
                toolTurn(rawCall('c2', 'workspace_commit'), rawCall('f', 'workspace_finish')),
            ],
        });
        const base = sampleRunInput();
        const input = sampleRunInput({ runId: 'fix-leak', prefix: [...base.prefix, reply('run-a', 'You wake in the glade.')], fix: { messageIndex: 2, text: 'You wake in the glade.', request: 'make it shorter' } });
        const outcome = await h.run(input);
        assert.equal(outcome.state, 'completed');
        assert.match(String(h.requests[0]!.messages[0]!.content), /never the bracketed/);
        assert.deepEqual(h.commits.map((c) => c.text), ['You wake.'], 'only the clean text reached the chat');
        assert.match(JSON.stringify(h.requests[2]!.messages.at(-1)), /instruction header/);
    });

    it("starts from the fixed message's memory (not a later one's) and writes its own whole into it", async () => {
        const atlas = 'a'.repeat(3000);
        const own: MemoryPayload = { v: 1, files: { 'persist/notes.md': 'The bridge fell.', 'persist/atlas.md': atlas } };
        const later: PrefixMessage = { ...reply('run-b', 'Later.', { v: 1, files: { 'persist/notes.md': 'A later branch.' } }), index: 4 };
        const attached: Array<{ runId: string; memory: MemoryPayload }> = [];
        const seen: string[] = [];
        const h = runHarness({
            script: [
                toolTurn(rawCall('r', 'workspace_read_file', { path: 'persist/notes.md' })),
                (request) => {
                    seen.push(String(request.messages.at(-1)!.content));
                    return toolTurn(rawCall('w', 'workspace_write_file', { path: 'persist/notes.md', content: 'The bridge fell. Fixed.' }), rawCall('c', 'workspace_commit'), rawCall('f', 'workspace_finish'));
                },
            ],
            attachMemory: async (request) => (attached.push(request), ok({ stored: true, bytes: 1 })),
        });
        const base = sampleRunInput();
        const prefix = [...base.prefix, reply('run-a', 'Old.', own), { ...base.prefix[1]!, index: 3 }, later];
        await h.run(sampleRunInput({ runId: 'fix-2', prefix, fix: { messageIndex: 2, text: 'Old.', request: 'fix it' } }));
        assert.match(seen[0]!, /The bridge fell\./);
        assert.doesNotMatch(seen[0]!, /later branch/);
        // Whole, not a delta against run-a: the fixed message no longer carries run-a's id.
        assert.deepEqual(attached, [{ runId: 'fix-2', memory: { v: 1, files: { 'persist/notes.md': 'The bridge fell. Fixed.', 'persist/atlas.md': atlas } } }]);
    });
});
