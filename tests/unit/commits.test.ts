// Unit tests of commit conflicts, the reasoning a commit carries, and guidance (issues 13.3, 15.1, 15.3)
// through the real run loop and tools with a scripted host.
// Run: node --import tsx --test tests/unit/commits.test.ts
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireMessage } from '../../src/contract/model';
import { WRITER_PROFILE } from '../../src/contract/profile';
import { fail, ok } from '../../src/contract/result';
import { RunInputSchema, type RunInput } from '../../src/contract/run-input';
import { GuidanceQueue, guidanceMessage } from '../../src/engine/agents/guidance-queue';
import { payloadsOf, rawCall as call, rawResponse, replyOf, runHarness, toolTurn as tools } from '../fixtures/run-harness';
import { eventFact } from '../../src/contract/events';

function makeInput(runId: string): RunInput {
    return RunInputSchema.parse({
        runId,
        generationType: 'normal',
        chat: { chatId: 'Alice - 1', integrity: 'integrity-1', characterId: '0', groupId: null, characterName: 'Alice', userName: 'Bob' },
        prefix: [{ index: 0, role: 'user', name: 'Bob', text: 'Hello.', hidden: false, agentRunId: null }],
        prompt: [{ role: 'user', content: 'Hello.' }],
        worldInfo: { captured: true, entries: [] },
        profile: WRITER_PROFILE,
        source: 'custom',
        retry: { maxRetries: 0, baseDelayMs: 0 },
        skills: [],
        hiddenSkills: [],
    });
}

const toolContent = (messages: WireMessage[], id: string) => String(messages.find((m) => m.role === 'tool' && m.tool_call_id === id)?.content ?? '');

describe('commit over the user edit', () => {
    it('keeps the user text in output/user_edit.md, tells the model (recoverable), and the next commit goes through', async () => {
        let commits = 0;
        const h = runHarness({
            script: [
                tools(call('w1', 'workspace_write_file', { path: 'output/main.md', content: 'First draft.' }), call('c1', 'workspace_commit', {})),
                tools(call('w2', 'workspace_write_file', { path: 'output/main.md', content: 'Second draft.' }), call('c2', 'workspace_commit', {})),
                tools(call('r', 'workspace_read_file', { path: 'output/user_edit.md' })),
                tools(call('c3', 'workspace_commit', {}), call('f', 'workspace_finish', {})),
            ],
            commit() {
                commits += 1;
                return commits === 2 ? fail('workspace.commit_conflict', 'The user edited this reply in the chat after your last commit.', 'Bob wrote this himself.') : ok({ messageId: 1 });
            },
        });
        const outcome = await h.run(makeInput('run-conflict'));
        assert.equal(outcome.state, 'completed');
        assert.equal(h.commits.length, 3, 'the host was asked three times; the second was refused');
        assert.match(toolContent(h.requests[2]!.messages, 'c2'), /^ERROR workspace\.commit_conflict:.*output\/user_edit\.md/s);
        assert.match(toolContent(h.requests[3]!.messages, 'r'), /Bob wrote this himself\./, 'the model can read the user text');
        const files = await h.files('run-conflict');
        assert.ok([...files.entries()].some(([path, content]) => path.startsWith('output/user_edit.md') && content === 'Bob wrote this himself.'));
        const journal = await h.journal('run-conflict');
        assert.equal(payloadsOf(journal, 'commit').length, 2, 'only the commits that landed are journaled as commits');
        assert.deepEqual(
            payloadsOf(journal, 'tool-call-fail').map((p) => p.code),
            ['workspace.commit_conflict'],
        );
    });

    it('a reply that SillyTavern clean-up empties is a recoverable workspace.empty_artifact, not a failed run', async () => {
        let commits = 0;
        const h = runHarness({
            script: [
                tools(call('w1', 'workspace_write_file', { path: 'output/main.md', content: '<think>only thoughts</think>' }), call('c1', 'workspace_commit', {})),
                tools(call('w2', 'workspace_write_file', { path: 'output/main.md', content: 'A reply.' }), call('c2', 'workspace_commit', {}), call('f', 'workspace_finish', {})),
            ],
            commit: () => ((commits += 1) === 1 ? fail('workspace.empty_artifact', 'Clean-up left nothing.') : ok({ messageId: 1 })),
        });
        const outcome = await h.run(makeInput('run-empty'));
        assert.equal(outcome.state, 'completed');
        assert.match(toolContent(h.requests[1]!.messages, 'c1'), /^ERROR workspace\.empty_artifact:/);
    });
});

describe('reasoning travels with the commit', () => {
    it('the reasoning of the turns since the last commit goes to the host, then starts again', async () => {
        const withReasoning = (reasoning: string, ...calls: ReturnType<typeof call>[]) => {
            const body = rawResponse(null, calls) as { choices: Array<{ message: Record<string, unknown> }> };
            body.choices[0]!.message.reasoning_content = reasoning;
            return replyOf(body);
        };
        const h = runHarness({
            script: [
                withReasoning('Plan the reply.', call('w', 'workspace_write_file', { path: 'output/main.md', content: 'Hi.' })),
                withReasoning('Commit it.', call('c1', 'workspace_commit', {})),
                tools(call('c2', 'workspace_commit', { mode: 'append' }), call('f', 'workspace_finish', {})),
            ],
        });
        await h.run(makeInput('run-reasoning'));
        assert.equal(h.commits[0]!.reasoning, 'Plan the reply.\n\nCommit it.');
        assert.equal(h.commits[1]!.reasoning, undefined, 'no new reasoning since the first commit');
    });
});

describe('guidance', () => {
    it('queued while the model works, it reaches the next request as a user note, journaled queued then delivered', async () => {
        const queue = new GuidanceQueue();
        let queued: Awaited<ReturnType<GuidanceQueue['add']>> | null = null;
        const h = runHarness({
            guidance: queue,
            script: [
                async () => {
                    queued = await queue.add('  Make it rhyme.  ');
                    return tools(call('w', 'workspace_write_file', { path: 'output/main.md', content: 'Hi.' }));
                },
                tools(call('c', 'workspace_commit', {}), call('f', 'workspace_finish', {})),
            ],
        });
        await h.run(makeInput('run-guide'));
        assert.deepEqual(queued, ok({ guidanceId: 'g1' }));
        const notes = (i: number) => h.requests[i]!.messages.filter((m) => m.role === 'user' && String(m.content).includes('Make it rhyme.'));
        assert.equal(notes(0).length, 0);
        assert.equal(notes(1).length, 1, 'delivered once, in the next request');
        assert.equal(notes(1)[0]!.content, guidanceMessage([{ guidanceId: 'g1', text: 'Make it rhyme.' }]));
        assert.equal(h.requests[1]!.messages.at(-1)!.content, notes(1)[0]!.content, 'after the tool results it follows');
        const journal = await h.journal('run-guide');
        const types = journal.map((e) => e.type);
        assert.ok(types.indexOf('guidance-queue') < types.indexOf('guidance-deliver'));
        assert.deepEqual(payloadsOf(journal, 'guidance-queue'), [{ guidanceId: 'g1', text: 'Make it rhyme.' }]);
        assert.deepEqual(payloadsOf(journal, 'guidance-deliver'), [{ guidanceIds: ['g1'], round: 2 }]);
        assert.equal(types.lastIndexOf('model-request') > types.indexOf('guidance-deliver'), true, 'journaled before the request that carries it');
        const late = await queue.add('Too late.');
        assert.equal(late.ok ? null : late.error.code, 'run.not_found', 'after the run, guidance is refused, not lost silently');
    });

    it('refuses empty and overlong guidance, and guidance before the run exists', async () => {
        const queue = new GuidanceQueue();
        const code = async (text: string) => {
            const result = await queue.add(text);
            return result.ok ? null : result.error.code;
        };
        assert.equal(await code('Soon.'), 'run.not_found');
        queue.bind({ append: async (type, payload) => ({ v: 1, runId: 'r', seq: 0, at: 0, ...eventFact(type, payload) }) });
        assert.equal(await code('   '), 'run.invalid_input');
        assert.equal(await code('x'.repeat(4001)), 'run.invalid_input');
        assert.equal(await code('Fine.'), null);
        assert.deepEqual(queue.take(), [{ guidanceId: 'g1', text: 'Fine.' }]);
        assert.deepEqual(queue.take(), [], 'each note is taken once');
    });
});
