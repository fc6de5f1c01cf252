import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyContextSettings } from '../../src/engine/agents/context';
import type { WorldInfoEntry } from '../../src/contract/run-input';

const dragon: WorldInfoEntry = { book: 'Lore', uid: 1, title: 'Dragons', keys: ['dragon'], content: 'Dragons sleep under the mountains.', constant: false };
const prompt = [
    { role: 'system' as const, content: 'You are Seraphina.\n\nDragons sleep under the mountains.\n\nBe kind.' },
    { role: 'assistant' as const, content: 'Welcome.' },
    { role: 'user' as const, content: 'Hello.' },
    { role: 'assistant' as const, content: 'Hi again.' },
    { role: 'user' as const, content: 'Tell me about dragons.' },
];

test('historyMessages -1 and world info on keep the prompt as SillyTavern assembled it', () => {
    assert.deepEqual(applyContextSettings(prompt, { historyMessages: -1, includeWorldInfo: true }, [dragon]), prompt);
});

test('historyMessages N keeps the system messages and the last N chat messages, always the final one', () => {
    const two = applyContextSettings(prompt, { historyMessages: 2, includeWorldInfo: true }, []);
    assert.deepEqual(two.map((m) => m.content), [prompt[0]!.content, 'Hi again.', 'Tell me about dragons.']);
    const none = applyContextSettings(prompt, { historyMessages: 0, includeWorldInfo: true }, []);
    assert.deepEqual(none.map((m) => m.content), [prompt[0]!.content, 'Tell me about dragons.']);
    const many = applyContextSettings(prompt, { historyMessages: 99, includeWorldInfo: true }, []);
    assert.equal(many.length, prompt.length);
});

test('includeWorldInfo false removes the activated entries\' text and nothing else', () => {
    const out = applyContextSettings(prompt, { historyMessages: -1, includeWorldInfo: false }, [dragon]);
    assert.equal(out[0]!.content, 'You are Seraphina.\n\nBe kind.');
    assert.deepEqual(out.slice(1), prompt.slice(1));
});
