import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openCharacter, sendMessage } from '../harness/browser';
import { agentOn, call, calls, chatLines, toolResults } from '../harness/agent';
import { startTavernSession, waitForExtension } from '../harness/tavern';
import type { ModelSource } from '../harness/st-server';

/**
 * The same scripted run through SillyTavern's Claude and Gemini backends (reverse proxy pointed at the
 * mock): the engine decodes each provider's own response shape and commits the same text.
 */
for (const source of ['claude', 'makersuite'] as ModelSource[]) {
    test(`a run through the ${source} backend commits the same reply`, async () => {
        const session = await startTavernSession({ source });
        try {
            const { page } = await session.open();
            await waitForExtension(page);
            await openCharacter(page);
            await agentOn(page);
            session.mock.reset();
            session.mock.enqueue(
                { reasoning: 'I should draft first.', toolCalls: [call('workspace_write_file', { path: 'output/main.md', content: 'Hello from every provider.' })] },
                calls(call('workspace_read_file', { path: 'output/main.md' })),
                calls(call('workspace_apply_patch', { path: 'output/main.md', old_string: 'every', new_string: 'each' })),
                calls(call('workspace_commit', {}), call('workspace_finish', {})),
            );
            await sendMessage(page, `Say hello through ${source}.`);
            assert.equal((await chatLines(page)).at(-1)!.mes, 'Hello from each provider.');
            const requests = session.mock.generations();
            assert.equal(requests.length, 4);
            assert.ok(requests.every((r) => r.dialect === (source === 'claude' ? 'claude' : 'gemini')));
            // The provider saw every tool result in its own format (tool_result blocks, functionResponse
            // parts), each answering its own call, with what the tool returned.
            const shown = requests.map((r) => toolResults(r));
            assert.deepEqual(shown.map((results) => results.map((r) => r.name)), [
                [],
                ['workspace_write_file'],
                ['workspace_write_file', 'workspace_read_file'],
                ['workspace_write_file', 'workspace_read_file', 'workspace_apply_patch'],
            ]);
            const [, read, patch] = shown[3]!.map((r) => r.content);
            assert.match(read!, /Hello from every provider\./, 'the read shows the draft');
            assert.match(patch!, /^Replaced 1 occurrence in output\/main\.md\b/, 'the patch result, not an error');
            if (source === 'makersuite') {
                // Gemini's thought signature on the first call was kept and sent back with it.
                assert.match(JSON.stringify(requests[1]!.body), /"thoughtSignature":"sig-\d+"/);
            }
        } finally {
            await session.close();
        }
    });
}
