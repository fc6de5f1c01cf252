import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WireMessage } from '../../src/contract/model';
import { prepareRunGenerationParameters, runGenerationParameters } from '../../src/host/model/generation-parameters';
import type { OpenAiModule } from '../../src/host/sillytavern/st-internals';

/** SillyTavern's openai.js as far as the builder uses it, counting how often it builds parameters. */
function fakeOpenAi(model: string) {
    const built: unknown[][] = [];
    const openai: OpenAiModule = {
        oai_settings: { chat_completion_source: 'custom', temp_openai: 0.7 },
        getChatCompletionModel: () => model,
        async createGenerationParameters(settings, m, type, messages) {
            built.push(messages);
            const s = settings as Record<string, unknown>;
            return { generate_data: { type, model: m, temperature: s.temp_openai, messages } };
        },
    };
    return { openai, built };
}

const say = (content: string): WireMessage => ({ role: 'user', content });

describe('generation parameters', () => {
    it('are built once per run; each request changes only the messages', async () => {
        const { openai, built } = fakeOpenAi('gpt-4.1');
        const first = await runGenerationParameters(openai, 'gp-run-1', [say('one')]);
        openai.oai_settings.temp_openai = 1.5;
        const second = await runGenerationParameters(openai, 'gp-run-1', [say('one'), say('two')]);
        assert.equal(built.length, 1);
        assert.deepEqual(first, { type: 'quiet', model: 'gpt-4.1', temperature: 0.7, messages: [say('one')] });
        assert.deepEqual(second, { type: 'quiet', model: 'gpt-4.1', temperature: 0.7, messages: [say('one'), say('two')] });
        // A change to one request's body never reaches the next.
        Object.assign(second, { stream: true });
        assert.equal((await runGenerationParameters(openai, 'gp-run-1', [])).stream, undefined);
        // The next run reads the settings as they are then.
        assert.equal((await runGenerationParameters(openai, 'gp-run-2', [])).temperature, 1.5);
        assert.equal(built.length, 2);
    });

    it('are built per request for models whose messages SillyTavern rewrites while building them', async () => {
        const { openai, built } = fakeOpenAi('o1-mini');
        await runGenerationParameters(openai, 'gp-run-o1', [say('one')]);
        const second = await runGenerationParameters(openai, 'gp-run-o1', [say('two')]);
        assert.equal(built.length, 2);
        assert.deepEqual(second.messages, [say('two')]);
    });

    it('prepared ahead of a run, are not built again by its first request, and a failed preparation is tried again', async () => {
        const { openai, built } = fakeOpenAi('gpt-4.1');
        prepareRunGenerationParameters('gp-run-ahead', async () => openai);
        await new Promise((resolve) => setTimeout(resolve, 5));
        assert.equal(built.length, 1);
        const first = await runGenerationParameters(openai, 'gp-run-ahead', [say('one')]);
        assert.equal(built.length, 1);
        assert.deepEqual(first.messages, [say('one')]);

        const failing = fakeOpenAi('gpt-4.1');
        const create = failing.openai.createGenerationParameters;
        failing.openai.createGenerationParameters = async () => {
            throw new Error('not ready');
        };
        prepareRunGenerationParameters('gp-run-failed', async () => failing.openai);
        await new Promise((resolve) => setTimeout(resolve, 5));
        failing.openai.createGenerationParameters = create;
        assert.deepEqual((await runGenerationParameters(failing.openai, 'gp-run-failed', [say('two')])).messages, [say('two')]);
        assert.equal(failing.built.length, 1);
    });
});
